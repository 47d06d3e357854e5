// TRUST_PROXY, read: whom the forwarded headers (X-Forwarded-*) are believed from. Anyone can send
// them; only a reverse proxy the operator put in front may be believed. The production server
// applies the result to every request (server/forwarded-headers.ts); lib/shared/client-address.ts
// and lib/http/origin.ts read what it left.
//
// TRUST_PROXY names the proxies as Express's `trust proxy` does (its proxy-addr package): their
// addresses and networks, so that headers are believed only from a socket whose peer is one of
// them, and the client is the rightmost X-Forwarded-For entry that is not. Or a number
// of proxies (true is one), believed from whatever socket a request came on. Addresses and networks
// are read by ipaddr.js, which the SSRF guard (lib/webhooks/guard.ts) reads them with too.
import ipaddr from 'ipaddr.js';

// The names TRUST_PROXY takes for networks, as Express has them.
const NAMED_NETWORKS: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Whom TRUST_PROXY believes: `{ hops }`, that many proxies in front, whatever socket a request came
 * on (0: none, the default; true: one; on Vercel, whose edge sets the headers itself, one by
 * default); or `{ proxies }`, the addresses and networks of the proxies, as a test of an address.
 */
export type ProxyTrust = { hops: number } | { proxies: (address: string) => boolean };

/**
 * TRUST_PROXY as read from `env` (VERCEL decides what unset means); throws, naming what it takes,
 * when it is none of it. lib/settings reads it once per process.
 */
export function proxyTrust(env: { TRUST_PROXY?: string; VERCEL?: string }): ProxyTrust {
  const configured = env.TRUST_PROXY?.trim().toLowerCase();
  if (!configured) return { hops: env.VERCEL ? 1 : 0 };
  if (configured === 'true') return { hops: 1 };
  if (configured === 'false') return { hops: 0 };
  if (/^\d{1,2}$/.test(configured)) return { hops: Number(configured) };
  const refused = `TRUST_PROXY must be true, false, a number of proxies, or the proxies' addresses and networks, comma-separated (such as loopback, 10.0.0.0/8, 2001:db8::/32), got "${env.TRUST_PROXY}"`;
  const entries = configured.split(',').map((entry) => entry.trim());
  const networks: Network[] = [];
  for (const entry of entries) {
    const named = Object.hasOwn(NAMED_NETWORKS, entry) ? NAMED_NETWORKS[entry] : undefined;
    const network = named ? named.map((cidr) => ipaddr.parseCIDR(cidr)) : [parseNetwork(entry)];
    if (!network[0]) throw new Error(entries.length > 1 ? `${refused}: "${entry}" is none of these` : refused);
    networks.push(...(network as Network[]));
  }
  return { proxies: (address) => matchesAny(address, networks) };
}

/**
 * An address (all of it) or a network in CIDR notation; IPv4 only as four decimal parts, as
 * proxies write it. An IPv4-mapped IPv6 network is taken as the IPv4 one, as peers are.
 */
function parseNetwork(entry: string): Network | undefined {
  let network: Network | undefined;
  if (ipaddr.IPv4.isValidFourPartDecimal(entry)) network = [ipaddr.IPv4.parse(entry), 32];
  else if (ipaddr.IPv6.isValid(entry)) network = [ipaddr.IPv6.parse(entry), 128];
  else if (ipaddr.IPv4.isValidCIDRFourPartDecimal(entry)) network = ipaddr.IPv4.parseCIDR(entry);
  else if (ipaddr.IPv6.isValidCIDR(entry)) network = ipaddr.IPv6.parseCIDR(entry);
  if (!network) return undefined;
  const [address, bits] = network;
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && bits >= 96) return [address.toIPv4Address(), bits - 96];
  return network;
}

/**
 * Whether `address` is in one of `networks`; an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, how
 * a dual-stack socket names an IPv4 peer) as the IPv4 one. Not an address: false.
 */
function matchesAny(address: string, networks: Network[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return networks.some(([network, bits]) => {
    if (parsed.kind() === network.kind()) return parsed.match(network, bits);
    return parsed instanceof ipaddr.IPv4 && parsed.toIPv4MappedAddress().match(network, bits);
  });
}

/**
 * Whether a request on a socket whose peer is `address` came through a proxy TRUST_PROXY trusts,
 * so that its forwarded headers are that proxy's word. With a number of proxies, any peer is.
 */
export function trustsPeer(trust: ProxyTrust, address: string): boolean {
  return 'proxies' in trust ? trust.proxies(address) : trust.hops > 0;
}
