// The SSRF guard: a webhook is a request this server makes to an address someone typed, so it must
// never reach the server's own network. An endpoint must be https:// and every address its host
// resolves to must be public: loopback, private, link-local (cloud metadata lives there),
// unique-local, carrier-grade NAT, unspecified, multicast, reserved, IPv4-mapped, IPv4-compatible
// and the other special ranges (NAT64, 6to4, Teredo: IPv4 carried inside IPv6) are refused. It is checked when the endpoint is saved and again on every
// connection, through a DNS lookup that checks what it returns, so a name that later resolves
// somewhere private (DNS rebinding) is refused too. WEBHOOK_ALLOW_PRIVATE_URLS=1 lifts it, and
// allows http://: for tests and private networks only.
import 'server-only';
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../errors';
import { settings } from '../settings';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export function privateUrlsAllowed(): boolean {
  return settings().WEBHOOK_ALLOW_PRIVATE_URLS;
}

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (cloud metadata services live there)',
  uniqueLocal: 'a unique-local (private) address',
  carrierGradeNat: 'a carrier-grade NAT address',
  ipv4Mapped: 'an IPv4-mapped address',
  ipv4Compatible: 'an IPv4-compatible address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
};

// IPv4-compatible addresses, ::a.b.c.d (RFC 4291 deprecated them): ipaddr.js calls all of ::/96 but
// :: and ::1 "unicast", yet a host may route them to the IPv4 address inside (127.0.0.1, 10.0.0.1).
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

// `::` then an IPv4 address and nothing more: how libuv writes a resolved ::7f00:1 (::127.0.0.1).
const DOUBLE_COLON_IPV4 = /^::([^:]*\.[^:]*)$/;

/**
 * An address as ipaddr.js should read it. It reads `::a.b.c.d` as the IPv4-mapped ::ffff:a.b.c.d
 * (its "deprecated transitional" form), where RFC 4291, URLs and resolvers mean ::/96; spelled
 * with its six zero groups, the same address, it reads it as written.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const ipv4 = DOUBLE_COLON_IPV4.exec(address)?.[1];
  return ipaddr.parse(ipv4 === undefined ? address : `0:0:0:0:0:0:${ipv4}`);
}

/** What kind of address `address` is when a webhook may not connect to it; null for a public unicast one. */
export function forbiddenKind(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = parseAddress(address);
  const range: string = parsed.range();
  if (range !== 'unicast') return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
  return parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE) ? RANGE_NAMES.ipv4Compatible : null;
}

/** The URL of a webhook endpoint, checked for form: absolute, https (or http when allowed), no credentials. */
export function parseWebhookUrl(text: string): URL {
  const trimmed = text.trim();
  const invalid = (why: string) => new ApiError('invalid_webhook_url', `url: ${why}`);
  if (trimmed.length === 0) throw invalid('is required');
  if (trimmed.length > WEBHOOK_URL_MAX_LENGTH) throw invalid(`must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw invalid('must be an absolute URL such as https://example.com/webhooks');
  }
  const allowed = privateUrlsAllowed() ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(url.protocol)) {
    throw invalid(privateUrlsAllowed() ? 'must start with https:// or http://' : 'must start with https://');
  }
  if (url.username || url.password) throw invalid('must not contain a user name or password');
  if (!url.hostname) throw invalid('must name a host');
  url.hash = '';
  return url;
}

/** An IP literal's address, without IPv6 brackets; null for a name. */
function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : null;
}

const refused = (host: string, why: string) => new ApiError('webhook_url_refused', `url: ${host} cannot receive webhooks: ${why}`);

/**
 * Refuses a URL whose host is, or resolves to, an address that is not public (unless private
 * URLs are allowed). For saving an endpoint; connections check again (checkingLookup).
 */
export async function checkDestination(url: URL): Promise<void> {
  if (privateUrlsAllowed()) return;
  const literal = literalAddress(url.hostname);
  const addresses = literal
    ? [literal]
    : await dns.promises.lookup(url.hostname, { all: true, verbatim: true }).then(
        (found) => found.map((entry) => entry.address),
        (error: NodeJS.ErrnoException) => {
          throw refused(url.hostname, `the name does not resolve (${error.code ?? 'lookup failed'})`);
        },
      );
  for (const address of addresses) {
    const kind = forbiddenKind(address);
    if (kind) throw refused(url.hostname, literal ? `${address} is ${kind}` : `it resolves to ${address}, ${kind}`);
  }
}

/** The refusal of a connection to a literal address (a name goes through checkingLookup). */
export function refusalOfLiteralHost(hostname: string): string | null {
  if (privateUrlsAllowed()) return null;
  const literal = literalAddress(hostname);
  const kind = literal && forbiddenKind(literal);
  return kind ? `${literal} is ${kind}` : null;
}

export class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOKREFUSED';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * dns.lookup for outgoing webhook connections: it answers only when every address the name
 * resolves to is allowed, so the socket can only connect where the check just looked.
 */
export function checkingLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (!privateUrlsAllowed()) {
      for (const { address } of addresses) {
        const kind = forbiddenKind(address);
        if (kind) return callback(new RefusedAddressError(`${hostname} resolves to ${address}, ${kind}`), []);
      }
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}
