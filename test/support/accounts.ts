// Staff accounts for tests, made through the same service functions the pages and CLI use, and
// signed in through next-auth's real endpoints, as a browser would.
import { randomBytes } from 'node:crypto';
import { countUsers, createUser } from '../../lib/auth/accounts/directory';
import type { Role } from '../../lib/auth/scopes';

export type TestAccount = { id: string; email: string; password: string; role: Role };

/**
 * A new account with a password of its own. The first account of a database is always an admin,
 * so a staff account asked for first comes after an admin made for the purpose.
 */
export async function newAccount(role: Role = 'staff', label: string = role): Promise<TestAccount> {
  if (role === 'staff' && (await countUsers()) === 0) await newAccount('admin', 'first-admin');
  const email = `${label}-${randomBytes(6).toString('hex')}@example.com`;
  const password = `test password ${randomBytes(8).toString('hex')}`;
  const { account } = await createUser({ email, role, password });
  return { id: account.id, email, password, role: account.role };
}

/** The cookies a response sets, as name=value pairs (expired ones removed from `jar`). */
export function keepCookies(jar: Map<string, string>, response: Response): void {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair] = cookie.split(';');
    const name = pair.slice(0, pair.indexOf('='));
    const value = pair.slice(pair.indexOf('=') + 1);
    if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) jar.delete(name);
    else jar.set(name, value);
  }
}

export type Browser = {
  /** The Cookie header this browser sends. */
  cookie(): string;
  /** A request with this browser's cookies (and same-origin headers), keeping what it sets. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
};

/** A cookie jar against `baseUrl`, like one browser profile. */
export function browser(baseUrl: string): Browser {
  const jar = new Map<string, string>();
  const self: Browser = {
    cookie: () => [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
    async fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      if (jar.size) headers.set('cookie', self.cookie());
      headers.set('origin', baseUrl);
      const response = await fetch(`${baseUrl}${path}`, { redirect: 'manual', ...init, headers });
      keepCookies(jar, response);
      return response;
    },
  };
  return self;
}

/** Signs in through next-auth's Credentials endpoint; resolves to the browser, or throws. */
export async function signIn(baseUrl: string, account: { email: string; password: string }): Promise<Browser> {
  const session = browser(baseUrl);
  const { csrfToken } = (await (await session.fetch('/api/auth/csrf')).json()) as { csrfToken: string };
  const response = await session.fetch('/api/auth/callback/credentials', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken, email: account.email, password: account.password, json: 'true' }),
  });
  await response.body?.cancel();
  if (!session.cookie().includes('next-auth.session-token')) throw new Error(`sign-in failed for ${account.email}: ${response.status}`);
  return session;
}
