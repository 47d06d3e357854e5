// When answers carry Strict-Transport-Security: when clients reach the service over https, as the
// public origin says (PUBLIC_URL, or a trusted proxy's X-Forwarded-Proto). The production server
// asks this once at start-up and then per request (test/api/security-headers.test.ts holds it there).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reachedOverHttps, STRICT_TRANSPORT_SECURITY } from '../../lib/http/origin';
import { proxyTrust } from '../../lib/settings/proxy-trust';
import { envAsItIs, setEnv } from '../support/settings';

beforeEach(() => {
  setEnv({ PUBLIC_URL: undefined, NEXTAUTH_URL: undefined });
});
afterEach(envAsItIs('PUBLIC_URL', 'NEXTAUTH_URL'));

// What TRUST_PROXY says: none, a number of proxies, the proxies' addresses.
const NONE = proxyTrust({ TRUST_PROXY: 'false' });
const TRUSTS = { 1: proxyTrust({ TRUST_PROXY: '1' }), 2: proxyTrust({ TRUST_PROXY: '2' }), loopback: proxyTrust({ TRUST_PROXY: 'loopback' }) };

const PROXY_SAYS = [undefined, '', 'https', 'http', 'HTTPS', 'http, https', 'https, http', 'https,http', 'wss'];

describe('reachedOverHttps', () => {
  it('says two years, subdomains included', () => {
    expect(STRICT_TRANSPORT_SECURITY).toBe('max-age=63072000; includeSubDomains');
  });

  it.each(['false', '1', '2', 'loopback'])('PUBLIC_URL https: always, whatever X-Forwarded-Proto says (TRUST_PROXY=%s)', (value) => {
    setEnv({ PUBLIC_URL: 'https://plants.example.com' });
    const overHttps = reachedOverHttps(proxyTrust({ TRUST_PROXY: value }));
    for (const proto of PROXY_SAYS) expect(overHttps(proto), String(proto)).toBe(true);
  });

  it.each(['false', '1', '2', 'loopback'])('PUBLIC_URL http: never, whatever X-Forwarded-Proto says (TRUST_PROXY=%s)', (value) => {
    setEnv({ PUBLIC_URL: 'http://plants.example.com' });
    const overHttps = reachedOverHttps(proxyTrust({ TRUST_PROXY: value }));
    for (const proto of PROXY_SAYS) expect(overHttps(proto), String(proto)).toBe(false);
  });

  it('NEXTAUTH_URL, when PUBLIC_URL is not set, decides alike', () => {
    setEnv({ NEXTAUTH_URL: 'https://plants.example.com/api/auth' });
    expect(reachedOverHttps(NONE)('http')).toBe(true);
    setEnv({ NEXTAUTH_URL: 'http://plants.example.com' });
    expect(reachedOverHttps(TRUSTS[1])('https')).toBe(false);
  });

  it("without PUBLIC_URL or a trusted proxy: never, since a client's X-Forwarded-Proto is no one's word", () => {
    const overHttps = reachedOverHttps(NONE);
    for (const proto of PROXY_SAYS) expect(overHttps(proto), String(proto)).toBe(false);
  });

  // With the proxies' addresses, server/main.ts has removed X-Forwarded-Proto from any other peer's requests.
  it.each(['1', '2', 'loopback'] as const)("behind trusted proxies (TRUST_PROXY=%s): when the last entry of X-Forwarded-Proto (the nearest proxy's) is https", (value) => {
    const overHttps = reachedOverHttps(TRUSTS[value]);
    expect(PROXY_SAYS.filter((proto) => overHttps(proto))).toEqual(['https', 'HTTPS', 'http, https']);
    // Node gives a repeated header as an array only for a few names; if it ever did, the last counts.
    expect(overHttps(['http', 'https'])).toBe(true);
    expect(overHttps(['https', 'http'])).toBe(false);
  });
});
