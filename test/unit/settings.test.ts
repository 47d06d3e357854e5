// The settings (lib/settings): each read from its variable by its schema, with its default when
// unset; a value it cannot take is refused with a message naming the variable, what it takes and
// what it got, every refusal at once; a refused setting throws only where it is read.
import { afterEach, describe, expect, it } from 'vitest';
import { checkSettings, readSettings, settings, SettingsError } from '../../lib/settings';
import { SETTINGS } from '../../lib/settings/schema';
import { envAsItIs, setEnv } from '../support/settings';

const problemsOf = (env: Record<string, string>) => readSettings(env).problems;

describe('each setting', () => {
  it('takes its default when unset or blank, and refuses nothing then', () => {
    const blank = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, '  ']));
    expect(problemsOf({})).toEqual([]);
    expect(readSettings(blank).settings).toEqual(readSettings({}).settings);
    expect(readSettings({}).settings).toMatchObject({
      DATABASE_URL: 'file:./data/plants.db',
      DATABASE_POOL_SIZE: 10,
      RATE_LIMIT_PER_MINUTE: 6000,
      PASSWORD_HASH_CONCURRENCY: null,
      TRUST_PROXY: { hops: 0 },
      PORT: 3000,
      KEEP_ALIVE_TIMEOUT: null,
      BODY_TIMEOUT_MS: 10_000,
      API_DIRECT_ROUTES: true,
      AUTH_COOKIE_SECURE: true,
      METRICS: true,
      WEBHOOK_RETRY_SCHEDULE: [5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      WEBHOOK_SECRET_GRACE: { ms: 86_400_000, text: '24h' },
      WEBHOOK_ALLOW_PRIVATE_URLS: false,
      BACKUP_INTERVAL: { ms: 86_400_000, text: '24h' },
      BACKUP_KEEP: 7,
      SQLITE_SYNCHRONOUS: 'FULL',
      VERCEL: false,
      PLANT_STORE_BENCH_ROUTES: false,
    });
  });

  it('reads what it is given, without the spaces around it, words in any case', () => {
    expect(
      readSettings({
        DATABASE_POOL_SIZE: ' 3 ',
        RATE_LIMIT_PER_MINUTE: 'OFF',
        KEEP_ALIVE_TIMEOUT: '65000',
        BODY_TIMEOUT_MS: 'off',
        PORT: '0',
        API_DIRECT_ROUTES: 'off',
        AUTH_COOKIE_SECURE: 'FALSE',
        METRICS: 'Off',
        SQLITE_SYNCHRONOUS: 'normal',
        PUBLIC_URL: 'https://plants.example.com/',
        NEXTAUTH_URL: 'https://plants.example.com/api/auth',
        WEBHOOK_RETRY_SCHEDULE: 'none',
        WEBHOOK_SECRET_GRACE: '0s',
        BACKUP_INTERVAL: '1.5h',
        WEBHOOK_ALLOW_PRIVATE_URLS: '1',
        VERCEL: '1',
      }).settings,
    ).toMatchObject({
      DATABASE_POOL_SIZE: 3,
      RATE_LIMIT_PER_MINUTE: 0,
      KEEP_ALIVE_TIMEOUT: 65_000,
      BODY_TIMEOUT_MS: 0,
      PORT: 0,
      API_DIRECT_ROUTES: false,
      AUTH_COOKIE_SECURE: false,
      METRICS: false,
      SQLITE_SYNCHRONOUS: 'NORMAL',
      PUBLIC_URL: 'https://plants.example.com',
      NEXTAUTH_URL: 'https://plants.example.com',
      WEBHOOK_RETRY_SCHEDULE: [],
      WEBHOOK_SECRET_GRACE: { ms: 0, text: '0s' },
      BACKUP_INTERVAL: { ms: 5_400_000, text: '1.5h' },
      WEBHOOK_ALLOW_PRIVATE_URLS: true,
      // On Vercel, whose edge sets the forwarded headers itself, one proxy is trusted unless told otherwise.
      TRUST_PROXY: { hops: 1 },
    });
  });

  // Every number is digits only: no sign, fraction, exponent, hex, unit or word (but "off" where it means 0).
  it.each([
    ['DATABASE_POOL_SIZE', 'ten', 'DATABASE_POOL_SIZE must be a whole number of connections (1 or more), got "ten"'],
    ['DATABASE_POOL_SIZE', '0', 'DATABASE_POOL_SIZE must be a whole number of connections (1 or more), got "0"'],
    ['DATABASE_POOL_SIZE', '2.5', 'DATABASE_POOL_SIZE must be a whole number of connections (1 or more), got "2.5"'],
    ['KEEP_ALIVE_TIMEOUT', '5s', 'KEEP_ALIVE_TIMEOUT must be a whole number of milliseconds, got "5s"'],
    ['KEEP_ALIVE_TIMEOUT', '-1', 'KEEP_ALIVE_TIMEOUT must be a whole number of milliseconds, got "-1"'],
    ['RATE_LIMIT_PER_MINUTE', '1e3', 'RATE_LIMIT_PER_MINUTE must be a whole number (0 or "off" to turn limiting off), got "1e3"'],
    ['PASSWORD_ATTEMPTS_PER_MINUTE', '0x10', 'PASSWORD_ATTEMPTS_PER_MINUTE must be a whole number (0 or "off" to turn limiting off), got "0x10"'],
    ['PASSWORD_HASH_CONCURRENCY', '0', 'PASSWORD_HASH_CONCURRENCY must be a whole number of at least 1, got "0"'],
    ['BODY_TIMEOUT_MS', '10s', 'BODY_TIMEOUT_MS must be a whole number of milliseconds (or off), got "10s"'],
    ['BACKUP_KEEP', 'all', 'BACKUP_KEEP must be a whole number of files (1 or more), got "all"'],
    ['AUDIT_RETENTION_DAYS', '30d', 'AUDIT_RETENTION_DAYS must be a whole number of days (1 or more), or unset to keep every record, got "30d"'],
    ['PORT', '-1', 'PORT must be a port number from 1 to 65535, or 0 for any free port, got "-1"'],
    ['API_DIRECT_ROUTES', 'no', 'API_DIRECT_ROUTES must be on or off, got "no"'],
    ['AUTH_COOKIE_SECURE', 'no', 'AUTH_COOKIE_SECURE must be true or false, got "no"'],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', 'yes', 'WEBHOOK_ALLOW_PRIVATE_URLS must be 1 (to lift the guard) or 0, got "yes"'],
    ['WEBHOOK_RETRY_SCHEDULE', '5s, soon, 1h', 'WEBHOOK_RETRY_SCHEDULE must be comma-separated durations such as 5s,5m,30m,2h (units ms, s, m, h, d), got "soon"'],
    ['NEXTAUTH_URL', 'plants.example.com', 'NEXTAUTH_URL must be the service\'s public origin, such as https://plants.example.com, got "plants.example.com"'],
    ['METRICS', 'maybe', 'METRICS must be "on" or "off", got "maybe"'],
    ['MAIL_RETRY_SCHEDULE', '10s,later', 'MAIL_RETRY_SCHEDULE must be comma-separated durations such as 10s,1m,5m (units ms, s, m, h, d), got "later"'],
    // Not named in full either: an SMTP URL holds the account's password.
    ['SMTP_URL', 'https://mailer:hunter2@smtp.example.com', 'SMTP_URL must be an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465, got "https:..."'],
    // Not named in full: the URL may hold a password.
    ['DATABASE_URL', 'mysql://root:hunter2@db/plants', 'DATABASE_URL must be an SQLite file: URL (file:./data/plants.db) or a PostgreSQL URL (postgresql://user:password@host:5432/db), got "mysql:..."'],
  ])('refuses %s=%j, saying what it takes', (name, value, message) => {
    expect(problemsOf({ [name]: value })).toEqual([message]);
  });

  it('refuses an SQLite file on Vercel, where it would lose every plant', () => {
    expect(problemsOf({ VERCEL: '1' })).toEqual([
      'On Vercel, DATABASE_URL must name a PostgreSQL database: SQLite files do not persist on serverless functions',
    ]);
    expect(problemsOf({ VERCEL: '1', DATABASE_URL: 'postgresql://plants@db/plants' })).toEqual([]);
  });
});

describe('email', () => {
  it('is off unless SMTP_URL is set, and then needs PUBLIC_URL (or NEXTAUTH_URL) and MAIL_FROM', () => {
    expect(readSettings({}).settings).toMatchObject({ SMTP_URL: null, MAIL_FROM: undefined, STORE_NAME: 'Plant Store' });
    const SMTP_URL = 'smtps://mailer:hunter2@smtp.example.com:465';
    expect(problemsOf({ SMTP_URL, MAIL_FROM: 'plants@example.com' })).toEqual([
      "SMTP_URL needs PUBLIC_URL: the links in messages name the service's public address, never one a request gives",
    ]);
    expect(problemsOf({ SMTP_URL, PUBLIC_URL: 'https://plants.example.com' })).toEqual([
      'MAIL_FROM must be set with SMTP_URL: the address messages come from, such as "Plant Store <plants@example.com>"',
    ]);
    const ready = { SMTP_URL, MAIL_FROM: 'plants@example.com' };
    expect(problemsOf({ ...ready, PUBLIC_URL: 'https://plants.example.com' })).toEqual([]);
    expect(problemsOf({ ...ready, NEXTAUTH_URL: 'https://plants.example.com/api/auth' })).toEqual([]);
    expect(readSettings({ ...ready, PUBLIC_URL: 'https://plants.example.com' }).settings.SMTP_URL).toBe(SMTP_URL);
  });
});

describe('the identity provider', () => {
  const provider = { OIDC_ISSUER: 'https://accounts.google.com/', OIDC_CLIENT_ID: 'id', OIDC_CLIENT_SECRET: 'secret', PUBLIC_URL: 'https://plants.example.com' };

  it('is off when unset; set, it takes an https issuer (without its trailing slash), a name and allowed domains', () => {
    expect(readSettings({}).settings).toMatchObject({ OIDC_ISSUER: null, OIDC_NAME: 'SSO', OIDC_ALLOWED_DOMAINS: [] });
    const { settings, problems } = readSettings({ ...provider, OIDC_NAME: ' Google ', OIDC_ALLOWED_DOMAINS: 'Example.com, example.org,' });
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({ OIDC_ISSUER: 'https://accounts.google.com', OIDC_NAME: 'Google', OIDC_ALLOWED_DOMAINS: ['example.com', 'example.org'] });
    expect(readSettings({ ...provider, OIDC_ISSUER: 'http://127.0.0.1:4401' }).problems).toEqual([]);
  });

  it('refuses an issuer that is not https (but on loopback), domains that are not domains, and an issuer without its client or a public origin', () => {
    expect(problemsOf({ ...provider, OIDC_ISSUER: 'http://idp.example.com' })).toEqual([
      'OIDC_ISSUER must be an issuer\'s https URL, such as https://accounts.google.com (http only on loopback), got "http://idp.example.com"',
    ]);
    expect(problemsOf({ ...provider, OIDC_ISSUER: 'https://idp.example.com/?x=1' })).toHaveLength(1);
    expect(problemsOf({ OIDC_ALLOWED_DOMAINS: 'example.com,@example.org' })).toEqual([
      'OIDC_ALLOWED_DOMAINS must be comma-separated email domains, such as example.com,example.org, got "@example.org"',
    ]);
    expect(problemsOf({ OIDC_ISSUER: provider.OIDC_ISSUER })).toEqual([
      'OIDC_ISSUER needs PUBLIC_URL: the redirect URI registered at the provider is PUBLIC_URL/api/auth/callback/oidc',
      'OIDC_CLIENT_ID must be set when OIDC_ISSUER is: the client the provider registered for this service',
      'OIDC_CLIENT_SECRET must be set when OIDC_ISSUER is: the client the provider registered for this service',
    ]);
  });
});

describe('the settings, read together', () => {
  it('list every refusal at once, in the order of the settings', () => {
    expect(problemsOf({ PORT: '80x', DATABASE_POOL_SIZE: 'ten', AUTH_SECRET: 'secret', BACKUP_KEEP: '0' })).toEqual([
      'DATABASE_POOL_SIZE must be a whole number of connections (1 or more), got "ten"',
      'PORT must be a port number from 1 to 65535, or 0 for any free port, got "80x"',
      expect.stringMatching(/^AUTH_SECRET must be at least 32 bytes, got 6: make one with {2}openssl rand -base64 32/),
      'BACKUP_KEEP must be a whole number of files (1 or more), got "0"',
    ]);
  });

  it('throw a refused one only where it is read: the others are still there', () => {
    const { settings: read } = readSettings({ PORT: '80x', METRICS: 'off' });
    expect(() => read.PORT).toThrow(new SettingsError(['PORT must be a port number from 1 to 65535, or 0 for any free port, got "80x"']));
    expect(read.METRICS).toBe(false);
    expect(read.DATABASE_POOL_SIZE).toBe(10);
  });
});

describe("the process's settings", () => {
  afterEach(envAsItIs('PORT', 'METRICS'));

  it('are read once, and again only when asked to', () => {
    setEnv({ PORT: '4000' });
    const first = settings();
    process.env.PORT = '5000';
    expect(settings()).toBe(first);
    expect(settings().PORT).toBe(4000);
    expect(checkSettings().PORT).toBe(5000);
    expect(settings().PORT).toBe(5000);
  });

  it('are checked whole by checkSettings, which names every problem in one error', () => {
    setEnv({ PORT: '80x', METRICS: 'maybe' });
    expect(() => checkSettings()).toThrow(
      'PORT must be a port number from 1 to 65535, or 0 for any free port, got "80x"\nMETRICS must be "on" or "off", got "maybe"',
    );
  });
});
