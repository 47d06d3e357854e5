// Which address a request came from, and which forwarded headers are believed.
import { afterEach, describe, expect, it } from 'vitest';
import { addressBucket } from '../../lib/shared/address-windows';
import { clientAddress, throughTrustedProxy } from '../../lib/shared/client-address';
import { proxyTrust, trustsPeer } from '../../lib/settings/proxy-trust';
import { envAsItIs, setEnv } from '../support/settings';

const from = (forwardedFor: string) => clientAddress(new Headers({ 'x-forwarded-for': forwardedFor }));

afterEach(envAsItIs('TRUST_PROXY'));

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, {}, 0],
    [undefined, { VERCEL: '1' }, 1],
    ['false', { VERCEL: '1' }, 0],
    ['true', {}, 1],
    ['TRUE', {}, 1],
    ['2', {}, 2],
  ])('%s (with %j) trusts %i proxies', (value, extra, hops) => {
    expect(proxyTrust({ ...extra, TRUST_PROXY: value })).toEqual({ hops });
  });

  it.each(['yes', '-1', '1.5', 'true,false', 'loopback,', '10.0.0.0/33', '127.1', '0x7f000001', 'localhost', '10.0.0.0/8;', '2001:db8::/129'])('refuses %j', (value) => {
    expect(() => proxyTrust({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must be true, false, a number of proxies, or the proxies' addresses and networks/);
  });

  it('names the entry it cannot read in a list', () => {
    expect(() => proxyTrust({ TRUST_PROXY: 'loopback, 10.0.0.300' })).toThrow(/: "10.0.0.300" is none of these$/);
  });

  it.each([
    // A name, as Express has them; IPv4-mapped peers (a dual-stack socket's) match IPv4 networks.
    ['loopback', ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'], ['128.0.0.1', '::2', '10.0.0.1', '::ffff:10.0.0.1']],
    ['linklocal', ['169.254.169.254', 'fe80::1'], ['169.255.0.1', 'fec0::1']],
    ['uniquelocal', ['10.1.2.3', '172.31.0.1', '192.168.1.1', 'fd00::1'], ['172.32.0.1', '192.169.0.1', '2001:db8::1']],
    // Addresses and networks, comma-separated, in any case, with spaces.
    ['10.0.0.0/8, 2001:DB8::/32,192.0.2.7', ['10.255.0.1', '2001:db8:ffff::1', '192.0.2.7', '::ffff:10.0.0.1'], ['192.0.2.8', '2001:db9::1', '11.0.0.1']],
    // An IPv4-mapped network is the IPv4 one; an IPv6 network holds the IPv4 addresses mapped into it.
    ['::ffff:10.0.0.0/104', ['10.0.0.1', '::ffff:10.0.0.1'], ['11.0.0.1']],
    ['::ffff:0:0/96', ['203.0.113.9'], ['2001:db8::1']],
  ])('%j trusts peers %j, not %j', (value, trusted, untrusted) => {
    const trust = proxyTrust({ TRUST_PROXY: value });
    for (const peer of trusted) expect(trustsPeer(trust, peer), peer).toBe(true);
    for (const peer of [...untrusted, '', 'unknown', 'evil.example']) expect(trustsPeer(trust, peer), peer).toBe(false);
  });

  it('with a number of proxies, or true, trusts any peer; with none, no peer', () => {
    expect(trustsPeer(proxyTrust({ TRUST_PROXY: '2' }), '198.51.100.7')).toBe(true);
    expect(trustsPeer(proxyTrust({ TRUST_PROXY: 'true' }), '198.51.100.7')).toBe(true);
    expect(trustsPeer(proxyTrust({ TRUST_PROXY: 'false' }), '127.0.0.1')).toBe(false);
  });
});

describe('clientAddress', () => {
  it('without a trusted proxy, is the one entry the server wrote (the socket address)', () => {
    expect(from('127.0.0.1')).toBe('127.0.0.1');
    expect(from('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(from('2001:DB8::1')).toBe('2001:db8::1');
  });

  it('behind N trusted proxies, is the Nth entry from the end (the one the first proxy appended)', () => {
    setEnv({ TRUST_PROXY: 'true' });
    expect(from('198.51.100.7, 203.0.113.9')).toBe('203.0.113.9');
    setEnv({ TRUST_PROXY: '2' });
    expect(from('198.51.100.7, 203.0.113.9, 10.0.0.2')).toBe('203.0.113.9');
    expect(from('10.0.0.2')).toBe('10.0.0.2');
    expect(from('[2001:db8::5]:4711, 10.0.0.2')).toBe('2001:db8::5');
  });

  it("with the proxies' addresses, is the entry nearest the end that is not one of them (main.mjs appended the peer)", () => {
    setEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8' });
    // A client's own entries before the proxies' cannot make it anyone else.
    expect(from('192.0.2.66, 203.0.113.9, 10.0.0.2, 127.0.0.1')).toBe('203.0.113.9');
    expect(from('203.0.113.9, 127.0.0.1')).toBe('203.0.113.9');
    expect(from('[2001:db8::5]:4711, ::ffff:10.0.0.2, ::1')).toBe('2001:db8::5');
    // A peer not named: main.mjs left its address alone.
    expect(from('203.0.113.9')).toBe('203.0.113.9');
    // Proxies all the way: the request came from a proxy itself.
    expect(from('10.0.0.3, 127.0.0.1')).toBe('10.0.0.3');
    // An entry that is not an address is nobody's: not a proxy, so the client, unknown.
    expect(from('203.0.113.9, evil.example, 127.0.0.1')).toBe('unknown');
  });

  it("came through a trusted proxy: with a number, always; with the proxies' addresses, when the peer main.mjs appended is one", () => {
    const through = (forwardedFor: string) => throughTrustedProxy(new Headers({ 'x-forwarded-for': forwardedFor }));
    expect(through('127.0.0.1')).toBe(false);
    setEnv({ TRUST_PROXY: 'true' });
    expect(through('203.0.113.9')).toBe(true);
    setEnv({ TRUST_PROXY: 'loopback' });
    expect(through('203.0.113.9, 127.0.0.1')).toBe(true);
    expect(through('127.0.0.1')).toBe(true);
    expect(through('127.0.0.1, 203.0.113.9')).toBe(false);
    expect(throughTrustedProxy(new Headers())).toBe(false);
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
