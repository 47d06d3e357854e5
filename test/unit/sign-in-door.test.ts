// How the server's door finds the segments Next's router would hand the sign-in route, and that
// it only reads the allowance's count (test/api/differential.test.ts compares its answer with the
// route's on the real servers).
import { afterEach, describe, expect, it } from 'vitest';
import { admitPasswordAttempt } from '../../lib/auth/passwords/admission';
import { ApiError } from '../../lib/errors';
import { refusalAtTheDoor, signInRouteSegments } from '../../lib/http/sign-in-door';
import { envAsItIs, setEnv } from '../support/settings';

describe('the segments Next hands the sign-in route', () => {
  it.each([
    ['/api/auth/callback/credentials', ['callback', 'credentials']],
    ['/api/auth/callback/credentials?x=1', ['callback', 'credentials']],
    ['/api/auth/callback/credentials#x', ['callback', 'credentials']],
    ['/api/auth/callback/credentials/x', ['callback', 'credentials', 'x']],
    ['/api/auth/./callback/credentials', ['callback', 'credentials']],
    ['/api/auth/x/../callback/credentials', ['callback', 'credentials']],
    ['/api/x/../auth/callback/credentials', ['callback', 'credentials']],
    ['/api/auth/callback/%2e/credentials', ['callback', 'credentials']],
    ['/api/auth/callback/credentials/%2E%2E/credentials', ['callback', 'credentials']],
    ['/api/auth/%63allback/cr%65dentials', ['callback', 'credentials']],
    ['/api/auth/callback%2Fcredentials', ['callback/credentials']],
    ['/api/auth/callback/credentials%2Fx', ['callback', 'credentials/x']],
    ['/api/auth/callback/credentials;x', ['callback', 'credentials;x']],
    ['/api/auth/callback/credentials%00', ['callback', 'credentials\0']],
  ])('%s: %j', (target, segments) => {
    expect(signInRouteSegments(target)).toEqual(segments);
  });

  it.each([
    // Next's router redirects these first (308), to the path without the slash or backslash.
    '/api/auth/callback/credentials/',
    '/api/auth//callback/credentials',
    '//api/auth/callback/credentials',
    '/api/auth/callback\\credentials',
    '/api/auth/callback/credentials/.',
    '/api/auth/callback/credentials/x/..',
    // Not the route's: Next matches its static segments as they are spelled.
    '/api/%61uth/callback/credentials',
    '/API/auth/callback/credentials',
    '/api/auth',
    '/api/auth/',
    '/plants',
  ])('%s: none', (target) => {
    expect(signInRouteSegments(target)).toBeNull();
  });
});

describe("the server's door", () => {
  afterEach(envAsItIs('PASSWORD_ATTEMPTS_PER_MINUTE'));

  it('refuses a password attempt only once the allowance is spent, with the route refusal, and counts nothing itself', async () => {
    setEnv({ PASSWORD_ATTEMPTS_PER_MINUTE: '2' });
    const address = '192.0.2.77';
    const door = (target = '/api/auth/callback/credentials', method = 'POST', from = address) => refusalAtTheDoor(method, target, from);
    expect(door()).toBeNull();
    admitPasswordAttempt(address);
    expect(door()).toBeNull();
    const second = admitPasswordAttempt(address);
    expect(() => admitPasswordAttempt(address)).toThrow(ApiError);

    // Spent: every spelling of the attempt is refused, other requests and other addresses are not.
    for (const target of ['/api/auth/callback/credentials', '/api/auth/callback/cr%65dentials?x=1', '/api/auth/x/../callback/credentials']) {
      const refusal = door(target)!;
      expect(refusal.status, target).toBe(429);
      expect(refusal.headers.get('cache-control')).toBe('no-store');
      expect(Number(refusal.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refusal.json()).toMatchObject({ error: 42903, message: expect.stringMatching(/^Too many password attempts from this address: 2 a minute/) });
    }
    expect(door('/api/auth/callback/credentials/x')).toBeNull();
    expect(door('/api/auth/csrf', 'GET')).toBeNull();
    expect(door('/api/auth/callback/credentials', 'GET')).toBeNull();
    expect(door('/plants', 'POST')).toBeNull();
    expect(door(undefined, 'POST', '192.0.2.78')).toBeNull();

    // The door took nothing: one attempt given back, and the next is admitted again.
    for (let index = 0; index < 10; index++) door();
    second.succeeded();
    expect(door()).toBeNull();
    expect(() => admitPasswordAttempt(address)).not.toThrow();
    expect(door()!.status).toBe(429);
  });

  it('is open when the allowance is off', () => {
    setEnv({ PASSWORD_ATTEMPTS_PER_MINUTE: 'off' });
    for (let index = 0; index < 30; index++) admitPasswordAttempt('192.0.2.79');
    expect(refusalAtTheDoor('POST', '/api/auth/callback/credentials', '192.0.2.79')).toBeNull();
  });
});
