// The second step of a sign-in, over next-auth's endpoints on a production server of this file's
// own (its throttle rows and log are this file's alone): a right password for an account with a
// second factor answers "the code now" with a pending sign-in's token and no session; the code then
// signs in, once; a replayed code, a wrong one and a used recovery code are refused; a pending token
// that is not ours, altered, expired or of a session that has ended is refused before any code is
// checked; codes are throttled per account and count against the address's allowance of password
// attempts; and an account the store asks for a second factor that has none gets no page, page
// token or action until it enrols.
import { describe, expect } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { db } from '../../lib/db/client';
import { confirmEnrolment, startEnrolment } from '../../lib/auth/second-factor/factors';
import { pendingSignInToken } from '../../lib/auth/second-factor/pending-sign-in';
import { setSecondFactorRequirement } from '../../lib/auth/second-factor/policy';
import { codeAt } from '../../lib/auth/second-factor/totp';
import { usingDatabase, type TestDatabase } from '../support/database';
import { withServerEnv } from '../support/fixtures';
import type { RunningServer } from '../support/server';
import { csrfOn, logLinesIn, refusalOf, signInOn, userIn, type AuthAnswer } from '../support/sign-in';

const PASSWORD = 'a second factor passphrase';
const ALLOWANCE = 8;
const STEP_MS = 30_000;

// TRUST_PROXY, so each test sends its attempts from an address of its own (X-Forwarded-For).
const test = withServerEnv({ TRUST_PROXY: '1', PASSWORD_ATTEMPTS_PER_MINUTE: String(ALLOWANCE) });

let counter = 0;
const unique = (label: string) => `${label}-${Date.now()}-${++counter}`;
const addressOf = () => `198.51.100.${(++counter % 250) + 1}`;

type Enrolled = { id: string; email: string; secret: string; recoveryCodes: string[] };

/** An account with a password and a confirmed second factor, made in this process as the pages make them. */
async function enrolledAccount(database: TestDatabase, label: string): Promise<Enrolled> {
  const email = `${unique(label)}@example.com`;
  await userIn(database.url, email, PASSWORD);
  return usingDatabase(database.url, async () => {
    const { id } = await db().user.findUniqueOrThrow({ where: { email } });
    const { secret } = await startEnrolment(id, email);
    const recoveryCodes = await confirmEnrolment(id, codeAt(secret, Date.now()), OPERATOR_COMMAND);
    return { id, email, secret, recoveryCodes };
  });
}

/** POSTs to /api/auth/callback/<provider> from `address`, as the sign-in page does. */
async function post(server: RunningServer, provider: string, fields: Record<string, string>, address: string): Promise<AuthAnswer & { body: string }> {
  const csrf = await csrfOn(server);
  const response = await fetch(`${server.url}/api/auth/callback/${provider}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    body: new URLSearchParams({ ...fields, csrfToken: csrf.token, json: 'true' }),
  });
  const body = await response.text();
  let url: string | null = null;
  try {
    url = (JSON.parse(body) as { url?: string }).url ?? null;
  } catch {
    // an Error body
  }
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  return { status: response.status, url, location: response.headers.get('location'), cookies, body };
}

const sessionOf = (answer: AuthAnswer) => answer.cookies.find((cookie) => /next-auth\.session-token=./.test(cookie)) ?? null;

/** The first step: email and password; the pending sign-in's token it answers with. */
async function firstStep(server: RunningServer, email: string, address = addressOf()): Promise<string> {
  const answer = await post(server, 'credentials', { email, password: PASSWORD }, address);
  expect(sessionOf(answer), 'no session before the code').toBeNull();
  const refusal = refusalOf(answer) ?? '';
  expect(refusal).toMatch(/^SecondStep:p1\.[\w-]+\.[\w-]+$/);
  return refusal.slice('SecondStep:'.length);
}

const secondStep = (server: RunningServer, pending: string, code: string, address = addressOf()) => post(server, 'second-factor', { pending, code }, address);

async function throttleRows(database: TestDatabase, userId: string) {
  return database.execute(`SELECT "attempts" FROM "LoginThrottle" WHERE "key" = '${`second-factor:${userId}`.toLowerCase()}'`);
}

describe('a sign-in with a second factor', () => {
  test('the right password starts no session; the code does, once, even sent five times at once', async ({ ownServer: server, ownDatabase: database }) => {
    const account = await enrolledAccount(database, 'once');
    const pending = await firstStep(server, account.email);
    // The next step's code (one step of skew is allowed): the enrolment used this step's.
    const code = codeAt(account.secret, Date.now() + STEP_MS);
    const answers = await Promise.all(Array.from({ length: 5 }, () => secondStep(server, pending, code)));
    const signedIn = answers.filter((answer) => sessionOf(answer) !== null);
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0].status).toBe(200);
    for (const answer of answers.filter((each) => sessionOf(each) === null)) expect(refusalOf(answer)).toBe('CodeReplayed');

    // The session works.
    const session = await fetch(`${server.url}/api/auth/session`, { headers: { cookie: sessionOf(signedIn[0])! } });
    expect(((await session.json()) as { user?: { email?: string } }).user?.email).toBe(account.email);

    // Replayed later, with a new first step: refused still.
    const again = await secondStep(server, await firstStep(server, account.email), code);
    expect(sessionOf(again)).toBeNull();
    expect(refusalOf(again)).toBe('CodeReplayed');
    const records = await database.execute(`SELECT "action", "after" FROM "AuditEvent" WHERE "targetId" = '${account.id}' ORDER BY "seq"`);
    expect(records).toContainEqual({ action: 'staff.signed_in', after: null });
    expect(records).toContainEqual({ action: 'staff.sign_in_failed', after: JSON.stringify({ reason: 'second-factor code used already' }) });
  });

  test('a wrong code is refused and audited; a recovery code works once', async ({ ownServer: server, ownDatabase: database }) => {
    const account = await enrolledAccount(database, 'recovery');
    const pending = await firstStep(server, account.email);
    const right = new Set([-1, 0, 1].map((steps) => codeAt(account.secret, Date.now() + steps * STEP_MS)));
    const wrong = ['000000', '123456', '999999'].find((code) => !right.has(code))!;
    const refused = await secondStep(server, pending, wrong);
    expect(refused.status).toBe(401);
    expect(refusalOf(refused)).toBe('CredentialsSignin');
    expect(sessionOf(refused)).toBeNull();
    const failures = await database.execute(`SELECT "after" FROM "AuditEvent" WHERE "action" = 'staff.sign_in_failed' AND "targetId" = '${account.id}'`);
    expect(failures).toEqual([{ after: JSON.stringify({ reason: 'wrong second-factor code' }) }]);

    // A recovery code, typed in capitals with spaces: signs in, and is audited.
    const recovery = account.recoveryCodes[3];
    const used = await secondStep(server, pending, recovery.toUpperCase().replaceAll('-', ' '));
    expect(sessionOf(used)).not.toBeNull();
    const recorded = await database.execute(`SELECT "after" FROM "AuditEvent" WHERE "action" = 'staff.recovery_code_used' AND "targetId" = '${account.id}'`);
    expect(recorded).toEqual([{ after: JSON.stringify({ recoveryCodesLeft: 9 }) }]);
    // Once.
    const twice = await secondStep(server, await firstStep(server, account.email), recovery);
    expect(sessionOf(twice)).toBeNull();
    expect(refusalOf(twice)).toBe('CredentialsSignin');
  });

  test('a pending sign-in that is not ours, altered, expired or of an ended session is refused before any code is checked', async ({ ownServer: server, ownDatabase: database }) => {
    const account = await enrolledAccount(database, 'pending');
    const code = codeAt(account.secret, Date.now() + STEP_MS);
    const real = await firstStep(server, account.email);
    const [format, payload, signature] = real.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: account.id, ver: 0, exp: Math.floor(Date.now() / 1000) + 600 })).toString('base64url');
    const bad = [
      '',
      'nonsense',
      `${format}.${forged}.${signature}`,
      `${format}.${payload}.${'A'.repeat(signature.length)}`,
      // Signed with this server's AUTH_SECRET (this process has the same), but expired, or for a session version that has moved on.
      pendingSignInToken({ userId: account.id, sessionVersion: 0 }, Date.now() - 10 * 60 * 1000),
      pendingSignInToken({ userId: account.id, sessionVersion: 7 }),
      'x'.repeat(4000),
    ];
    for (const pending of bad) {
      const answer = await secondStep(server, pending, code);
      expect(sessionOf(answer)).toBeNull();
      expect(refusalOf(answer), `pending ${pending.slice(0, 40)}`).toBe('SecondStepExpired');
    }
    // Refused before the account's throttle was touched, except the one of a real account and
    // session version that has moved on, which is read.
    expect((await throttleRows(database, account.id)).length).toBeLessThanOrEqual(1);
    expect(logLinesIn(server.output(), ['second step failed']).filter((line) => line.userId === account.id)).toEqual([]);
    // The real one still works with that code.
    expect(sessionOf(await secondStep(server, real, code))).not.toBeNull();
  });

  test('codes are throttled per account, from any address: after five wrong ones, the right one waits too', async ({ ownServer: server, ownDatabase: database }) => {
    const account = await enrolledAccount(database, 'throttled');
    const pending = await firstStep(server, account.email);
    const right = new Set([-1, 0, 1].map((steps) => codeAt(account.secret, Date.now() + steps * STEP_MS)));
    const wrong = Array.from({ length: 20 }, (_, index) => String(100000 + index * 7919)).filter((code) => !right.has(code));
    for (const code of wrong.slice(0, 5)) expect(refusalOf(await secondStep(server, pending, code))).toBe('CredentialsSignin');
    const waiting = await secondStep(server, pending, codeAt(account.secret, Date.now() + STEP_MS));
    expect(sessionOf(waiting)).toBeNull();
    expect(refusalOf(waiting)).toMatch(/^TooManyAttempts:\d+$/);
    const [row] = (await throttleRows(database, account.id)) as { attempts: number | bigint }[];
    expect(Number(row.attempts)).toBe(5);
  });

  test("codes count against the address's allowance; a right password that asks for the code gives its attempt back", async ({ ownServer: server, ownDatabase: database }) => {
    const account = await enrolledAccount(database, 'allowance');
    const address = addressOf();
    // More first steps than the allowance, all right: none is counted.
    for (let index = 0; index < ALLOWANCE + 2; index++) await firstStep(server, account.email, address);
    const pending = await firstStep(server, account.email, address);
    const answers: (AuthAnswer & { body: string })[] = [];
    for (let index = 0; index < ALLOWANCE + 2; index++) answers.push(await secondStep(server, pending, 'abcdef', address));
    expect(answers.slice(0, ALLOWANCE).map((answer) => answer.status)).toEqual(Array(ALLOWANCE).fill(401));
    for (const refused of answers.slice(ALLOWANCE)) {
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ error: 42903 });
    }
    // Another address is not held back by this one's allowance (the account's own throttle answers it).
    const elsewhere = await secondStep(server, pending, 'abcdef');
    expect(elsewhere.status).toBe(401);
    expect(refusalOf(elsewhere)).toMatch(/^TooManyAttempts:\d+$/);
  });
});

describe('a second factor required by the store', () => {
  test('an account without one gets no page, page token or action until it enrols', async ({ ownServer: server, ownDatabase: database }) => {
    const email = `${unique('required')}@example.com`;
    await userIn(database.url, email, PASSWORD);
    await usingDatabase(database.url, () => setSecondFactorRequirement('everyone', OPERATOR_COMMAND));
    // The server reads the rule through a cache of half a second.
    await new Promise((resolve) => setTimeout(resolve, 600));
    try {
      const signedIn = await signInOn(server, email, PASSWORD);
      expect(signedIn.session).not.toBeNull();
      const page = await fetch(`${server.url}/catalogue`, { headers: { cookie: signedIn.session! }, redirect: 'manual' });
      expect(page.status).toBe(307);
      expect(page.headers.get('location')).toBe('/enrol?callbackUrl=%2Fcatalogue');
      const token = await fetch(`${server.url}/api/session-token`, { method: 'POST', headers: { cookie: signedIn.session! } });
      expect(token.status).toBe(401);
      const enrol = await fetch(`${server.url}/enrol`, { headers: { cookie: signedIn.session! }, redirect: 'manual' });
      expect(enrol.status).toBe(200);
      expect(await enrol.text()).toContain('Set up a second factor');
    } finally {
      await usingDatabase(database.url, () => setSecondFactorRequirement('off', OPERATOR_COMMAND));
    }
  });
});
