// The address a request came from: what per-address limits count and security logs record.
// server/main.ts has already made X-Forwarded-For say only what can be believed (the socket's
// address, or what trusted proxies appended and, when TRUST_PROXY names them, the peer's address
// after it; see server/forwarded-headers.ts); on Vercel its edge sets the header. This reads the
// entry that names the client.
import { isIP } from 'node:net';
import { settings } from '../settings';

export const UNKNOWN_ADDRESS = 'unknown';

// X-Forwarded-For's entries as written; each is normalised when it is read.
const forwardedFor = (source: Request | Headers): string[] =>
  ((source instanceof Headers ? source : source.headers).get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/** The client's address, or 'unknown' when nothing names a valid one. */
export function clientAddress(source: Request | Headers): string {
  const entries = forwardedFor(source);
  const trust = settings().TRUST_PROXY;
  if ('proxies' in trust) {
    // As proxy-addr: from the end, past every proxy named, the first entry that is not one; when
    // all are, the first (the request came from a proxy itself).
    for (let index = entries.length - 1; index >= 0; index--) {
      const address = normalise(entries[index]);
      if (index === 0 || !trust.proxies(address)) return address;
    }
    return UNKNOWN_ADDRESS;
  }
  // Each trusted proxy appends the address it was reached from, so the client is as many entries
  // from the end as there are proxies; without one, main.mjs left the socket's address alone.
  const fromEnd = Math.max(trust.hops, 1);
  return normalise(entries[Math.max(entries.length - fromEnd, 0)]);
}

/**
 * Whether the request came through a proxy TRUST_PROXY trusts, so that its X-Forwarded-Host and
 * -Proto are that proxy's word: with a number of proxies, any request; with their addresses, one
 * whose last X-Forwarded-For entry (the peer, which main.mjs appended) is one of them.
 */
export function throughTrustedProxy(source: Request | Headers): boolean {
  const trust = settings().TRUST_PROXY;
  if (!('proxies' in trust)) return trust.hops > 0;
  return trust.proxies(normalise(forwardedFor(source).at(-1)));
}

/** A bare address: no brackets or port, IPv4-mapped IPv6 as IPv4. */
function normalise(entry: string | undefined): string {
  if (!entry) return UNKNOWN_ADDRESS;
  let address = entry;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1];
  return isIP(address) ? address.toLowerCase() : UNKNOWN_ADDRESS;
}
