// Signing in as a browser does, over next-auth's endpoints. (The raw HTTP that fetch would not send
// or would tidy up goes through test/support/raw-socket.ts.)
import { usingDatabase } from './database';

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

/** The reason next-auth gives for a refused sign-in (its `error` parameter), or null. */
export const refusalOf = (answer: AuthAnswer) => (answer.url ? new URL(answer.url, 'http://x').searchParams.get('error') : null);
