// Which X-Forwarded-* headers this service believes. Anyone can send them; only a reverse proxy the
// operator put in front (TRUST_PROXY) may be believed. The production server (main.mjs) applies
// this to every request before anything reads it, on the direct path and Next's alike;
// lib/shared/client-address.ts and lib/http/origin.ts read the result. Plain JavaScript, because the
// server loads it from the standalone build as it is.
//
// TRUST_PROXY names the proxies as Express's `trust proxy` does (its proxy-addr package): their
// addresses and networks, so that headers are believed only from a socket whose peer is one of
// them, and the client is the rightmost X-Forwarded-For entry that is not. Or a number
// of proxies (true is one), believed from whatever socket a request came on. Addresses and networks
// are read by ipaddr.js, which the SSRF guard (lib/webhooks/guard.ts) reads them with too.
import ipaddr from 'ipaddr.js';

// Headers that name a client address, host or scheme on the client's behalf.
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-real-ip'];

// The names TRUST_PROXY takes for networks, as Express has them.
const NAMED_NETWORKS = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Whom TRUST_PROXY believes: `{ hops }`, that many proxies in front, whatever socket a request came
 * on (0: none, the default; true: one; on Vercel, whose edge sets the headers itself, one by
 * default); or `{ proxies }`, the addresses and networks of the proxies, as a test of an address.
 * @typedef {{ hops: number } | { proxies: (address: string) => boolean }} ProxyTrust
 */

/** @type {{ key: string | undefined, trust: ProxyTrust | undefined }} */
const lastRead = { key: undefined, trust: undefined };

/**
 * TRUST_PROXY as read from `env`; throws, naming what it takes, when it is none of it. Read once per
 * value: a list of networks is not parsed again for every request.
 * @param {Record<string, string | undefined>} env
 * @returns {ProxyTrust}
 */
export function proxyTrust(env = process.env) {
  const key = `${env.TRUST_PROXY ?? ''}\n${env.VERCEL ? 'vercel' : ''}`;
  if (lastRead.key !== key || !lastRead.trust) Object.assign(lastRead, { key, trust: readProxyTrust(env) });
  return /** @type {ProxyTrust} */ (lastRead.trust);
}

/**
 * @param {Record<string, string | undefined>} env
 * @returns {ProxyTrust}
 */
function readProxyTrust(env) {
  const configured = env.TRUST_PROXY?.trim().toLowerCase();
  if (!configured) return { hops: env.VERCEL ? 1 : 0 };
  if (configured === 'true') return { hops: 1 };
  if (configured === 'false') return { hops: 0 };
  if (/^\d{1,2}$/.test(configured)) return { hops: Number(configured) };
  const refused = `TRUST_PROXY must be true, false, a number of proxies, or the proxies' addresses and networks, comma-separated (such as loopback, 10.0.0.0/8, 2001:db8::/32), got "${env.TRUST_PROXY}"`;
  const entries = configured.split(',').map((entry) => entry.trim());
  /** @type {[ipaddr.IPv4 | ipaddr.IPv6, number][]} */
  const networks = [];
  for (const entry of entries) {
    const named = NAMED_NETWORKS[/** @type {keyof typeof NAMED_NETWORKS} */ (entry)];
    const network = named ? named.map((cidr) => ipaddr.parseCIDR(cidr)) : [parseNetwork(entry)];
    if (!network[0]) throw new Error(entries.length > 1 ? `${refused}: "${entry}" is none of these` : refused);
    networks.push(...network);
  }
  return { proxies: (address) => matchesAny(address, networks) };
}

/**
 * An address (all of it) or a network in CIDR notation; IPv4 only as four decimal parts, as
 * proxies write it. An IPv4-mapped IPv6 network is taken as the IPv4 one, as peers are.
 * @param {string} entry
 * @returns {[ipaddr.IPv4 | ipaddr.IPv6, number] | undefined}
 */
function parseNetwork(entry) {
  /** @type {[ipaddr.IPv4 | ipaddr.IPv6, number] | undefined} */
  let network;
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
 * @param {string} address
 * @param {[ipaddr.IPv4 | ipaddr.IPv6, number][]} networks
 */
function matchesAny(address, networks) {
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
 * @param {ProxyTrust} trust
 * @param {string} address
 */
export function trustsPeer(trust, address) {
  return 'proxies' in trust ? trust.proxies(address) : trust.hops > 0;
}

/**
 * Makes a request's forwarded headers say only what can be believed, and says whether they came
 * from a trusted proxy. From any other peer, the client's own X-Forwarded-* are removed and
 * X-Forwarded-For becomes the socket's address (Next only sets it when absent). From a trusted
 * proxy they stay; when TRUST_PROXY names the proxies, the peer's own address is appended to
 * X-Forwarded-For, as proxy-addr counts it, so that the last entry always says whether the request
 * came through one (lib/shared/client-address.ts); with a number, a request that reached the server
 * without one gets the socket's address.
 * @param {import('node:http').IncomingMessage} request
 * @param {ProxyTrust} trust what proxyTrust() said
 * @returns {boolean} whether the peer is a trusted proxy
 */
export function settleForwardedHeaders(request, trust) {
  const socketAddress = request.socket.remoteAddress ?? '';
  if (!trustsPeer(trust, socketAddress)) {
    for (const name of FORWARDED_HEADERS) delete request.headers[name];
    request.headers['x-forwarded-for'] = socketAddress;
    return false;
  }
  const forwardedFor = request.headers['x-forwarded-for'];
  if ('proxies' in trust) request.headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${socketAddress}` : socketAddress;
  else request.headers['x-forwarded-for'] ??= socketAddress;
  return true;
}
