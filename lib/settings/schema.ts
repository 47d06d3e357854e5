// Every setting of the service, each an environment variable: the kind of value it takes (kinds.ts),
// which also says its default. docs/operations.md's table (Configuration) describes each; a test
// (test/unit/settings-docs.test.ts) keeps the table's rows and defaults the same as these.
import * as z from 'zod/mini';
import { proxyTrust, type ProxyTrust } from './proxy-trust';
import { choice, duration, durations, kind, origin, refuse, Refused, text, wholeNumber } from './kinds';

export const DEFAULT_DATABASE_URL = 'file:./data/plants.db';
export const DEFAULT_BACKUP_INTERVAL = '24h';
export const DEFAULT_BACKUP_KEEP = 7;

export const SQLITE_SYNCHRONOUS_MODES = ['NORMAL', 'FULL'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS_MODES)[number];

/**
 * The fewest bytes AUTH_SECRET may have: its UTF-8 bytes as given, so a base64 value counts its
 * characters, not the bytes it decodes to (openssl rand -base64 32 prints 44). A generated one has 43.
 */
export const AUTH_SECRET_MIN_BYTES = 32;
export const HOW_TO_MAKE_AUTH_SECRET = `make one with  openssl rand -base64 32  (or  node -e "console.log(require('crypto').randomBytes(32).toString('base64'))")`;
const bytesOf = (secret: string) => Buffer.byteLength(secret, 'utf8');

const DATABASE_URL_SCHEME = /^(file:|postgres(?:ql)?:\/\/)/;
/** Cannot be an SQLite file or a PostgreSQL database: not named in full, which may hold a password. */
export const NOT_A_DATABASE_URL =
  'must be an SQLite file: URL (file:./data/plants.db) or a PostgreSQL URL (postgresql://user:password@host:5432/db)';

const ISSUER_ACCEPTS = "an issuer's https URL, such as https://accounts.google.com (http only on loopback)";
// A domain name of letters, digits and hyphens (the email's part after @, as accounts store it).
const EMAIL_DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/**
 * An issuer as OpenID Connect names one: https, no query or fragment, no credentials; plain http
 * only on this machine (a test's provider). Without its trailing slash, which discovery adds.
 */
function issuerUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) || url.username || url.password || url.search || url.hash) return null;
  return value.replace(/\/+$/, '');
}

const PER_MINUTE = 'a whole number (0 or "off" to turn limiting off)';
const perMinute = (fallback: number) => wholeNumber({ accepts: PER_MINUTE, min: 0, off: 0 }, String(fallback));
const onOrOff = (fallback: 'on' | 'off') => choice({ on: true, off: false }, 'on or off', fallback);
const oneOrZero = (accepts: string) => choice({ 1: true, 0: false }, accepts, { value: false, default: 'unset' });

const SMTP_URL_ACCEPTS = 'an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465';
/** An SMTP URL; refused naming its scheme only, since it may hold a password. */
function smtpUrl(value: string): string | Refused {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  return url && (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname
    ? value
    : new Refused(`must be ${SMTP_URL_ACCEPTS}, got "${value.split(':')[0]}:..."`);
}

export const SETTINGS = {
  DATABASE_URL: kind((url) => (DATABASE_URL_SCHEME.test(url) ? url : new Refused(`${NOT_A_DATABASE_URL}, got "${url.split(':')[0]}:..."`)), DEFAULT_DATABASE_URL),
  DATABASE_POOL_SIZE: wholeNumber({ accepts: 'a whole number of connections (1 or more)', min: 1 }, '10'),
  RATE_LIMIT_PER_MINUTE: perMinute(6000),
  AUTH_FAILURES_PER_MINUTE: perMinute(100),
  PASSWORD_ATTEMPTS_PER_MINUTE: perMinute(20),
  /** Null: one fewer than the machine's cores, at least 1. */
  PASSWORD_HASH_CONCURRENCY: wholeNumber<null>({ accepts: 'a whole number of at least 1', min: 1 }, { value: null, default: 'cores − 1, at least 1' }),
  /** The service's public origin, or null. */
  PUBLIC_URL: origin({ accepts: "the service's public origin, such as https://plants.example.com" }, 'none'),
  /** next-auth's own name for the public URL: its origin, or null. */
  NEXTAUTH_URL: origin({ accepts: "the service's public origin, such as https://plants.example.com", anyPath: true }, '`PUBLIC_URL`'),
  /** Whom the forwarded headers are believed from (proxy-trust.ts); unset: see readSettings. */
  TRUST_PROXY: kind<ProxyTrust | undefined>(
    (value) => {
      try {
        return proxyTrust({ TRUST_PROXY: value });
      } catch (error) {
        // The rules' own message, which names the variable as every refusal here is named.
        return new Refused((error as Error).message.replace(/^TRUST_PROXY /, ''));
      }
    },
    { value: undefined, default: '`false` (`true` on Vercel)' },
  ),
  PORT: wholeNumber({ accepts: 'a port number from 1 to 65535, or 0 for any free port', min: 0, max: 65535 }, '3000'),
  /** The address to listen on; undefined: all interfaces. */
  HOSTNAME: text('all interfaces'),
  /** Undefined: Node's own. */
  KEEP_ALIVE_TIMEOUT: wholeNumber<null>({ accepts: 'a whole number of milliseconds', min: 0 }, { value: null, default: "Node's (5 s)" }),
  /** 0: no limit. */
  BODY_TIMEOUT_MS: wholeNumber({ accepts: 'a whole number of milliseconds (or off)', min: 0, max: 999_999_999, off: 0 }, '10000'),
  API_DIRECT_ROUTES: onOrOff('on'),
  /** As set, without the spaces around it; undefined when unset (lib/auth/sessions/secret.ts then finds one). */
  AUTH_SECRET: kind<string | undefined>(
    (secret) =>
      bytesOf(secret) >= AUTH_SECRET_MIN_BYTES
        ? secret
        : new Refused(`must be at least ${AUTH_SECRET_MIN_BYTES} bytes, got ${bytesOf(secret)}: ${HOW_TO_MAKE_AUTH_SECRET}`),
    { value: undefined, default: 'generated into `data/auth-secret` (SQLite only)' },
  ),
  AUTH_SECRET_PREVIOUS: text('unset'),
  /** Whether production's session cookies are Secure. */
  AUTH_COOKIE_SECURE: choice({ true: true, false: false }, 'true or false', { value: true, default: '`true` in production' }),
  METRICS: choice({ on: true, off: false }, '"on" or "off"', 'on'),
  /** The delays before each retry, in ms. */
  WEBHOOK_RETRY_SCHEDULE: durations('comma-separated durations such as 5s,5m,30m,2h (units ms, s, m, h, d)', '5s,5m,30m,2h,5h,10h,10h'),
  WEBHOOK_SECRET_GRACE: duration({ accepts: 'a duration such as 24h, 2d or 30m (units ms, s, m, h, d; 0s for none)' }, '24h'),
  WEBHOOK_ALLOW_PRIVATE_URLS: oneOrZero('1 (to lift the guard) or 0'),
  /** The SMTP server messages are sent through, as nodemailer reads it; null: no email (an admin hands links over). */
  SMTP_URL: kind<string | null>((value) => smtpUrl(value), { value: null, default: 'unset: no email' }),
  /** The From of every message, as given; checked with SMTP_URL (settleTogether). */
  MAIL_FROM: text('unset'),
  /** The delays before each retry of a message, in ms. */
  MAIL_RETRY_SCHEDULE: durations('comma-separated durations such as 10s,1m,5m (units ms, s, m, h, d)', '10s,1m,5m,15m,1h,3h,6h'),
  /** The store's name, as messages give it. */
  STORE_NAME: kind((value) => (value.length <= 100 ? value : refuse('a name of at most 100 characters', `${value.slice(0, 20)}...`)), 'Plant Store'),
  /** Null: every record is kept. */
  AUDIT_RETENTION_DAYS: wholeNumber<null>(
    { accepts: 'a whole number of days (1 or more), or unset to keep every record', min: 1 },
    { value: null, default: 'unset: keep every record' },
  ),
  /** As given (relative to the working directory); undefined: no scheduled backups. */
  BACKUP_DIR: text('unset: no scheduled backups'),
  // Below a second, one backup could still be running when the next is due.
  BACKUP_INTERVAL: duration({ accepts: 'a duration of at least 1s, such as 24h, 6h or 30m (units ms, s, m, h, d)', minMs: 1000 }, DEFAULT_BACKUP_INTERVAL),
  BACKUP_KEEP: wholeNumber({ accepts: 'a whole number of files (1 or more)', min: 1 }, String(DEFAULT_BACKUP_KEEP)),
  SQLITE_SYNCHRONOUS: choice<SqliteSynchronous>({ FULL: 'FULL', NORMAL: 'NORMAL' }, 'FULL (the default) or NORMAL', 'FULL'),
  // OpenTelemetry's own variables, those that decide whether this process exports traces at all
  // (lib/tracing/config.ts); the SDK reads the rest itself. As OpenTelemetry reads them: never refused.
  OTEL_EXPORTER_OTLP_ENDPOINT: text('unset: no tracing'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: text('`OTEL_EXPORTER_OTLP_ENDPOINT`'),
  OTEL_SDK_DISABLED: text('unset'),
  OTEL_TRACES_EXPORTER: text('`otlp`'),
  OTEL_EXPORTER_OTLP_PROTOCOL: text('`http/protobuf`'),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: text('`OTEL_EXPORTER_OTLP_PROTOCOL`'),
  CRON_SECRET: text('unset'),
  /** The OpenID provider's issuer URL, without a trailing slash; null: no sign-in through a provider. */
  OIDC_ISSUER: kind<string | null>((value) => issuerUrl(value) ?? refuse(ISSUER_ACCEPTS, value), { value: null, default: 'unset: no sign-in through a provider' }),
  OIDC_CLIENT_ID: text('unset'),
  OIDC_CLIENT_SECRET: text('unset'),
  /** What the sign-in page calls the provider: "Sign in with <name>". */
  OIDC_NAME: kind((value) => (value.length <= 60 ? value : refuse('a name of at most 60 characters', `${value.slice(0, 20)}...`)), 'SSO'),
  /** The email domains a first sign-in through the provider may make an account for, lower case. */
  OIDC_ALLOWED_DOMAINS: kind<string[]>(
    (value) => {
      const domains = value.split(',').map((domain) => domain.trim().toLowerCase()).filter(Boolean);
      const wrong = domains.find((domain) => !EMAIL_DOMAIN.test(domain));
      return wrong === undefined ? domains : refuse('comma-separated email domains, such as example.com,example.org', wrong);
    },
    { value: [], default: 'unset: no new accounts' },
  ),
  /** Set by Vercel on its functions: any value is true. */
  VERCEL: kind(() => true, { value: false, default: 'unset' }),
  /** Whether POST /api/bench/empty answers: the benchmark's ceiling (bench/run.ts), off outside it. */
  PLANT_STORE_BENCH_ROUTES: oneOrZero('1 (for npm run bench) or 0'),
};

export type SettingName = keyof typeof SETTINGS;

/** Every setting as the code reads it. */
export type Settings = { [Name in Exclude<SettingName, 'TRUST_PROXY'>]: z.output<(typeof SETTINGS)[Name]['schema']> } & {
  TRUST_PROXY: ProxyTrust;
};

/** A provider needs its client's id and secret and the service's public origin: OIDC_ISSUER without them is refused. */
function settleOidc(values: Partial<Record<SettingName, unknown>>): Partial<Record<SettingName, string>> | null {
  if (!values.OIDC_ISSUER) return null;
  const missing: Partial<Record<SettingName, string>> = {};
  for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const) {
    if (!values[name]) missing[name] = `${name} must be set when OIDC_ISSUER is: the client the provider registered for this service`;
  }
  // The redirect URI the provider sends people back to must be absolute, and registered there.
  if (!values.PUBLIC_URL && !values.NEXTAUTH_URL) {
    missing.OIDC_ISSUER = 'OIDC_ISSUER needs PUBLIC_URL: the redirect URI registered at the provider is PUBLIC_URL/api/auth/callback/oidc';
  }
  return Object.keys(missing).length > 0 ? missing : null;
}

/**
 * What one setting means given another, once each has been read alone: unset, TRUST_PROXY trusts
 * no proxy, but one on Vercel, whose edge sets the headers itself; and on Vercel, an SQLite file
 * would lose every plant (serverless functions get a fresh, read-only filesystem), so it is
 * refused at once rather than at the first write. Returns the refusals, by setting.
 */
export function settleTogether(values: Partial<Record<SettingName, unknown>>): Partial<Record<SettingName, string>> {
  if (values.TRUST_PROXY === undefined) values.TRUST_PROXY = { hops: values.VERCEL ? 1 : 0 };
  const refused = settleOidc(values) ?? {};
  if (values.VERCEL && typeof values.DATABASE_URL === 'string' && values.DATABASE_URL.startsWith('file:')) {
    refused.DATABASE_URL = 'On Vercel, DATABASE_URL must name a PostgreSQL database: SQLite files do not persist on serverless functions';
  }
  if (values.SMTP_URL) {
    // A message's link names the service's address, which is never taken from a request: a
    // stranger asking for a reset could otherwise have it point at a host of theirs.
    if (!values.PUBLIC_URL && !values.NEXTAUTH_URL) refused.SMTP_URL = "SMTP_URL needs PUBLIC_URL: the links in messages name the service's public address, never one a request gives";
    else if (!values.MAIL_FROM) refused.MAIL_FROM = 'MAIL_FROM must be set with SMTP_URL: the address messages come from, such as "Plant Store <plants@example.com>"';
  }
  return refused;
}
