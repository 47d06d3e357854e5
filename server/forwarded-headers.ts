// Which X-Forwarded-* headers this service believes (TRUST_PROXY, read by lib/settings/proxy-trust.ts).
// The production server (main.ts) applies this to every request before anything reads it, on the
// direct path and Next's alike; lib/shared/client-address.ts and lib/http/origin.ts read the result.
import type { IncomingMessage } from 'node:http';
import { trustsPeer, type ProxyTrust } from '../lib/settings/proxy-trust';

// Headers that name a client address, host or scheme on the client's behalf.
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-real-ip'];

/**
 * Makes a request's forwarded headers say only what can be believed, and says whether they came
 * from a trusted proxy. From any other peer, the client's own X-Forwarded-* are removed and
 * X-Forwarded-For becomes the socket's address (Next only sets it when absent). From a trusted
 * proxy they stay; when TRUST_PROXY names the proxies, the peer's own address is appended to
 * X-Forwarded-For, as proxy-addr counts it, so that the last entry always says whether the request
 * came through one (lib/shared/client-address.ts); with a number, a request that reached the server
 * without one gets the socket's address.
 * @returns whether the peer is a trusted proxy
 */
export function settleForwardedHeaders(request: IncomingMessage, trust: ProxyTrust): boolean {
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
