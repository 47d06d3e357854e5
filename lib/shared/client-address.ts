// The address a request came from: what per-address limits count and security logs record.
// server/main.mjs has already made X-Forwarded-For say only what can be believed (the socket's
// address, or what trusted proxies appended; see server/forwarded-headers.mjs); on Vercel its
// edge sets the header. This reads the entry that names the client.
import { isIP } from 'node:net';
import { trustedProxyHops } from '../../server/forwarded-headers.mjs';

export const UNKNOWN_ADDRESS = 'unknown';

/** The client's address, or 'unknown' when nothing names a valid one. */
export function clientAddress(source: Request | Headers): string {
  const headers = source instanceof Headers ? source : source.headers;
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // Each trusted proxy appends the address it was reached from, so the client is as many entries
  // from the end as there are proxies; without one, main.mjs left the socket's address alone.
  const fromEnd = Math.max(trustedProxyHops(), 1);
  return normalise(entries[Math.max(entries.length - fromEnd, 0)]);
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
