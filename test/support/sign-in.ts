// Signing in as a browser does, over next-auth's endpoints. (The raw HTTP that fetch would not send
// or would tidy up goes through test/support/raw-socket.ts.)
import { expect } from 'vitest';
import { withClocksStopped } from './clock';
import { usingDatabase } from './database';
import type { RunningServer } from './server';

type Server = { url: string };

/** A staff account in the database at `url`, made as `npm run user -- create` makes one (the same lib function), in this process. */
export async function userIn(url: string, email: string, password: string): Promise<void> {
  const { createUser } = await import('../../lib/auth/accounts/directory');
  await usingDatabase(url, () => createUser({ email, password }));
}

const cookiePairs = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);

/** A CSRF token and the cookie that goes with it; next-auth accepts the pair any number of times. */
export async function csrfOn(server: Server, cookie = ''): Promise<{ token: string; cookie: string }> {
  const response = await fetch(`${server.url}/api/auth/csrf`, { headers: { cookie } });
  if (!response.ok) throw new Error(`GET /api/auth/csrf answered ${response.status}`);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { token: csrfToken, cookie: [cookie, ...cookiePairs(response)].filter(Boolean).join('; ') };
}

export type AuthAnswer = { status: number; url: string | null; location: string | null; cookies: string[] };

/** POSTs a form to /api/auth/<action> with a valid CSRF token; `json` asks for `{url}` instead of a redirect. */
export async function postAuth(
  server: Server,
  action: string,
  fields: Record<string, string>,
  options: { json?: boolean; csrf?: { token: string; cookie: string }; cookie?: string } = {},
): Promise<AuthAnswer> {
  const csrf = options.csrf ?? (await csrfOn(server, options.cookie));
  const body = new URLSearchParams({ ...fields, csrfToken: csrf.token, ...(options.json === false ? {} : { json: 'true' }) });
  const response = await fetch(`${server.url}/api/auth/${action}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const text = await response.text();
  let url: string | null = null;
  try {
    url = (JSON.parse(text) as { url?: string }).url ?? null;
  } catch {
    // a redirect, or an Error body
  }
  return { status: response.status, url, location: response.headers.get('location'), cookies: cookiePairs(response) };
}

/** Signs in through the Credentials provider; `session` is the cookie to send as that person. */
export async function signInOn(server: Server, email: string, password: string, fields: Record<string, string> = {}) {
  const answer = await postAuth(server, 'callback/credentials', { email, password, ...fields });
  const session = answer.cookies.find((cookie) => cookie.includes('next-auth.session-token=')) ?? null;
  return { ...answer, session };
}

export type LogLine = { msg: string; email?: string; address?: string; [field: string]: unknown };

/** A server's JSON log lines with one of `messages`, for `email` if given. */
export function logLinesIn(output: string, messages: string[], email?: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => messages.includes(line.msg) && (email === undefined || line.email === email));
}

/** Password checks a server ran for `email`: each writes "sign-in failed" or "sign-in succeeded". */
export const passwordChecksIn = (output: string, email: string) => logLinesIn(output, ['sign-in failed', 'sign-in succeeded'], email).length;

/**
 * The password attempts `server` has refused for their address's allowance, by where, from its
 * metrics (read with `token`, one with metrics:read): at its door, before Next's router, or in the
 * sign-in route.
 */
export async function refusedAttemptsOn(server: Server, token: string): Promise<{ door: number; handler: number }> {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}: ${text}`);
  const count = (at: string) => Number(new RegExp(`^plant_store_password_attempts_refused_total\\{at="${at}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { door: count('door'), handler: count('handler') };
}

/** The reason next-auth gives for a refused sign-in (its `error` parameter), or null. */
export const refusalOf = (answer: AuthAnswer) => (answer.url ? new URL(answer.url, 'http://x').searchParams.get('error') : null);

/**
 * A burst of 100 sign-in attempts at one account, against the throttle: 24 wrong guesses at once;
 * the moment the throttle refuses one (or, were it broken, once all 24 are answered), the correct
 * password and 75 more guesses join those still being checked. The servers' clocks stand still
 * meanwhile: on a slow machine the burst may outlast the 5 s wait after the fifth attempt, which
 * would rightly let the correct password in. `attempt(n, password)` sends the nth attempt.
 */
export async function throttledBurst(
  servers: RunningServer[],
  email: string,
  password: string,
  attempt: (index: number, password: string) => Promise<AuthAnswer>,
): Promise<{ correct: AuthAnswer; answers: AuthAnswer[] }> {
  return withClocksStopped(
    servers.map((server) => server.clock),
    async () => {
      const first = Array.from({ length: 24 }, (_, index) => attempt(index, `wrong guess ${index}`));
      let settled = 0;
      for (const answer of first) void answer.then(() => settled++);
      const output = () => servers.map((server) => server.output()).join('\n');
      await expect
        .poll(() => logLinesIn(output(), ['sign-in throttled'], email).length > 0 || settled === first.length, { interval: 5, timeout: 20_000 })
        .toBe(true);
      const correct = attempt(24, password);
      const rest = Array.from({ length: 75 }, (_, index) => attempt(25 + index, `wrong guess ${25 + index}`));
      const answers = await Promise.all([...first, correct, ...rest]);
      return { correct: await correct, answers };
    },
  );
}
