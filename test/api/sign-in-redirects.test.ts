// Every redirect whose destination a request names ends on this site: the login page (signed in
// or not), next-auth's sign-in, callback and sign-out endpoints, and its callback-url cookie.
// A value that once got through: `/login?callbackUrl=/%09/evil.example` answered
// `Location: /<TAB>/evil.example`, which a browser reads as //evil.example.
import { beforeAll, describe, expect, it } from 'vitest';
import { newAccount } from '../support/accounts';
import { sharedServer } from '../support/api';
import { csrfOn, postAuth, signInOn } from '../support/sign-in';

let email: string;
let PASSWORD: string;
const server = () => ({ url: sharedServer().url });

beforeAll(async () => {
  ({ email, password: PASSWORD } = await newAccount('staff', 'redirects'));
});

/** A new session cookie: signing out (as one test here does) ends every session of the account. */
async function freshSession(): Promise<string> {
  const signedIn = await signInOn(server(), email, PASSWORD);
  expect(signedIn.session).not.toBeNull();
  return signedIn.session!;
}

const HOSTILE = [
  '/\t/evil.example/phish',
  '/\n/evil.example',
  '/\r\nSet-Cookie: stolen=1',
  '//evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/.//evil.example',
  'https://evil.example/phish',
  'javascript:alert(document.cookie)',
  '/\u2215\u2215evil.example',
  '/\u3000/evil.example',
];

/** A destination that keeps a browser on the site it came from, written in plain ASCII. */
function expectOnSite(destination: string | null) {
  expect(destination).not.toBeNull();
  const site = new URL(sharedServer().url);
  const resolved = new URL(destination!, `${site.origin}/login`);
  expect(resolved.origin, destination!).toBe(site.origin);
  expect(destination).toMatch(/^[\x21-\x7e]+$/);
  expect(destination).not.toMatch(/\\|^\/\/|^javascript:/i);
}

const get = (path: string, cookie = '') => fetch(`${sharedServer().url}${path}`, { redirect: 'manual', headers: { cookie } });
const query = (value: string) => new URLSearchParams({ callbackUrl: value }).toString();

describe.each(HOSTILE)('callbackUrl %j', (value) => {
  it('the login page answers 200 to a signed-out visitor, and sends a signed-in one to a path on this site', async () => {
    const signedOut = await get(`/login?${query(value)}`);
    expect(signedOut.status).toBe(200);
    const signedIn = await get(`/login?${query(value)}`, await freshSession());
    expect(signedIn.status).toBe(307);
    expectOnSite(signedIn.headers.get('location'));
  });

  it("next-auth's sign-in endpoint sends to the login page with a path on this site", async () => {
    const response = await get(`/api/auth/signin?${query(value)}`);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!, sharedServer().url);
    expect(location.pathname).toBe('/login');
    expectOnSite(location.searchParams.get('callbackUrl'));
  });

  it('signing in with it, by form or JSON, leads to a path on this site', async () => {
    const json = await signInOn(server(), email, PASSWORD, { callbackUrl: value });
    expect(json.status).toBe(200);
    expectOnSite(json.url);
    const form = await postAuth(server(), 'callback/credentials', { email, password: PASSWORD, callbackUrl: value }, { json: false });
    expect(form.status).toBe(302);
    expectOnSite(form.location);
  });

  it('signing out with it leads to a path on this site', async () => {
    const csrf = await csrfOn(server(), await freshSession());
    const answer = await postAuth(server(), 'signout', { callbackUrl: value }, { csrf });
    expect(answer.status).toBe(200);
    expectOnSite(answer.url);
  });

  it("in next-auth's callback-url cookie, it breaks nothing, and signing in still leads to this site", async () => {
    const cookie = `__Secure-next-auth.callback-url=${encodeURIComponent(value)}`;
    expect((await get('/api/auth/session', cookie)).status).toBe(200);
    // Pages and the session-token route read the session too: none of them may fail on it.
    expect((await get('/login', cookie)).status).toBe(200);
    const session = await freshSession();
    expect((await get('/tokens', `${cookie}; ${session}`)).status).toBe(200);
    const token = await fetch(`${sharedServer().url}/api/session-token`, { method: 'POST', headers: { cookie: `${cookie}; ${session}` } });
    expect(token.status).toBe(200);
    const csrf = await csrfOn(server(), cookie);
    const answer = await postAuth(server(), 'callback/credentials', { email, password: PASSWORD }, { csrf });
    expect(answer.status).toBe(200);
    expectOnSite(answer.url);
  });
});

describe('ordinary return paths', () => {
  it('come back where they were going', async () => {
    const answer = await signInOn(server(), email, PASSWORD, { callbackUrl: '/tokens?tab=mine' });
    expect(answer.url).toBe('/tokens?tab=mine');
    const signedIn = await get('/login?callbackUrl=%2Fdocs', await freshSession());
    expect(signedIn.headers.get('location')).toBe('/docs');
  });

  it('a signed-out visitor to a staff page is sent to sign in, and back', async () => {
    const response = await get('/tokens');
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe('/login?callbackUrl=%2Ftokens');
  });
});
