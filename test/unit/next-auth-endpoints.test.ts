// Which requests to /api/auth/ are next-auth's endpoints, and which of them is a password attempt
// (test/api/sign-in-limits.test.ts sends every spelling of the sign-in to the real server).
import { describe, expect, it } from 'vitest';
import { isPasswordAttempt, nextAuthRequest } from '../../lib/auth/sessions/next-auth-endpoints';
import { ApiError } from '../../lib/errors';

const refusalOf = (method: string, segments: string[]) => {
  try {
    nextAuthRequest(method, segments);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code, allow: error.headers.Allow ?? null };
  }
};

describe("next-auth's endpoints", () => {
  it.each([
    ['GET', 'csrf'],
    ['GET', 'providers'],
    ['GET', 'session'],
    ['POST', 'session'],
    ['GET', 'signin'],
    ['GET', 'signout'],
    ['POST', 'signout'],
    ['GET', 'error'],
    ['GET', 'verify-request'],
  ])('%s /api/auth/%s is one, and checks no password', (method, path) => {
    expect(nextAuthRequest(method, path.split('/'))).toEqual({ passwordAttempt: false, dropped: false, oidc: null });
  });

  it('POST /api/auth/callback/credentials is the one password attempt; POST /api/auth/_log is answered without next-auth', () => {
    expect(nextAuthRequest('POST', ['callback', 'credentials'])).toEqual({ passwordAttempt: true, dropped: false, oidc: null });
    expect(isPasswordAttempt('POST', ['callback', 'credentials'])).toBe(true);
    expect(nextAuthRequest('POST', ['_log'])).toEqual({ passwordAttempt: false, dropped: true, oidc: null });
  });

  it("POST /api/auth/callback/second-factor, a second factor's code, is admitted as a password attempt too, as spelled only", () => {
    expect(nextAuthRequest('POST', ['callback', 'second-factor'])).toEqual({ passwordAttempt: true, dropped: false, oidc: null });
    expect(isPasswordAttempt('POST', ['callback', 'second-factor'])).toBe(true);
    for (const path of [['callback', 'second-factor', 'x'], ['callback', 'Second-Factor'], ['callback', 'second-factor/']]) {
      expect(() => nextAuthRequest('POST', path), path.join('/')).toThrow('No sign-in endpoint at this path');
      expect(isPasswordAttempt('POST', path)).toBe(false);
    }
  });

  it.each([
    [['callback', 'credentials', 'x']],
    [['callback', 'credentials', '']],
    [['callback', 'credentials', 'x', 'y']],
    [['callback', 'credentials/x']],
    [['callback/credentials']],
    [['callback']],
    [['callback', 'Credentials']],
    [['Callback', 'credentials']],
    [['callback', 'github']],
    [['signin', 'credentials']],
    [['csrf', 'x']],
    [['error', 'CredentialsSignin']],
    [['']],
    [[]],
    [['__proto__']],
    [['constructor']],
    [['nothing']],
  ])('/api/auth/%j is no endpoint: 404 40405, and no password attempt', (segments) => {
    expect(refusalOf('POST', segments)).toEqual({ status: 404, code: 40405, allow: null });
    expect(refusalOf('GET', segments)).toEqual({ status: 404, code: 40405, allow: null });
    expect(isPasswordAttempt('POST', segments)).toBe(false);
  });

  it.each([
    ['GET', ['callback', 'credentials'], 'POST, OPTIONS'],
    ['HEAD', ['callback', 'credentials'], 'POST, OPTIONS'],
    ['PUT', ['callback', 'credentials'], 'POST, OPTIONS'],
    ['POST', ['csrf'], 'GET, OPTIONS'],
    ['HEAD', ['csrf'], 'GET, OPTIONS'],
    ['GET', ['_log'], 'POST, OPTIONS'],
    ['DELETE', ['session'], 'GET, POST, OPTIONS'],
  ])('%s on /api/auth/%j is 405 with Allow: %s', (method, segments, allow) => {
    expect(refusalOf(method, segments)).toEqual({ status: 405, code: 40501, allow });
    expect(isPasswordAttempt(method, segments)).toBe(false);
  });
});
