// Which address a request came from, and which forwarded headers are believed.
import { afterEach, describe, expect, it } from 'vitest';
import { addressBucket } from '../../lib/shared/address-windows';
import { clientAddress } from '../../lib/shared/client-address';
import { trustedProxyHops } from '../../server/forwarded-headers.mjs';

const from = (forwardedFor: string) => clientAddress(new Headers({ 'x-forwarded-for': forwardedFor }));

afterEach(() => {
  delete process.env.TRUST_PROXY;
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, {}, 0],
    [undefined, { VERCEL: '1' }, 1],
    ['false', { VERCEL: '1' }, 0],
    ['true', {}, 1],
    ['TRUE', {}, 1],
    ['2', {}, 2],
  ])('%s (with %j) trusts %i proxies', (value, extra, hops) => {
    expect(trustedProxyHops({ ...extra, TRUST_PROXY: value })).toBe(hops);
  });

  it.each(['yes', '-1', '1.5', 'true,false'])('refuses %j', (value) => {
    expect(() => trustedProxyHops({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must be true, false or a number of proxies/);
  });
});

describe('clientAddress', () => {
  it('without a trusted proxy, is the one entry the server wrote (the socket address)', () => {
    expect(from('127.0.0.1')).toBe('127.0.0.1');
    expect(from('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(from('2001:DB8::1')).toBe('2001:db8::1');
  });

  it('behind N trusted proxies, is the Nth entry from the end (the one the first proxy appended)', () => {
    process.env.TRUST_PROXY = 'true';
    expect(from('198.51.100.7, 203.0.113.9')).toBe('203.0.113.9');
    process.env.TRUST_PROXY = '2';
    expect(from('198.51.100.7, 203.0.113.9, 10.0.0.2')).toBe('203.0.113.9');
    expect(from('10.0.0.2')).toBe('10.0.0.2');
    expect(from('[2001:db8::5]:4711, 10.0.0.2')).toBe('2001:db8::5');
  });

  it('is "unknown" when nothing names a valid address', () => {
    expect(clientAddress(new Headers())).toBe('unknown');
    expect(from('evil.example')).toBe('unknown');
    expect(from('1.2.3.4.5')).toBe('unknown');
  });
});

describe('addressBucket', () => {
  it('counts an IPv4 address alone and an IPv6 address by its /64', () => {
    expect(addressBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(addressBucket('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(addressBucket('2001:db8:0:1:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(addressBucket('2001:0db8:0000:0001::9')).toBe('2001:db8:0:1::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('unknown')).toBe('unknown');
  });
});
