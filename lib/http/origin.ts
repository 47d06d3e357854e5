// The origin this service is reached at, for the few answers that must name one. It is the
// configured PUBLIC_URL, or, for a request that came through a reverse proxy the operator trusts
// (TRUST_PROXY), the host and scheme that proxy forwards. It is never taken from the Host header or
// from a client's own X-Forwarded-Host: without either setting, or from a peer that is not a proxy
// TRUST_PROXY names, it is unknown, and answers use paths instead.
import type { ProxyTrust } from '../settings/proxy-trust';
import { settings } from '../settings';
import { throughTrustedProxy } from '../shared/client-address';

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** PUBLIC_URL's origin (NEXTAUTH_URL's when only that is set), or null. */
export function configuredPublicOrigin(): string | null {
  return settings().PUBLIC_URL ?? settings().NEXTAUTH_URL;
}

const lastEntry = (value: string | null | undefined) => value?.split(',').at(-1)?.trim() ?? '';

/** The scheme a trusted proxy says clients used: its X-Forwarded-Proto, the last entry (the nearest proxy's word). */
const forwardedProto = (value: string | null | undefined) => lastEntry(value).toLowerCase() || 'http';

/** The origin clients reach this service at, when the operator has said how to know it; else null. */
export function publicOrigin(request: Request | Headers): string | null {
  const configured = configuredPublicOrigin();
  const headers = request instanceof Headers ? request : request.headers;
  if (configured || !throughTrustedProxy(headers)) return configured;
  // The nearest proxy's word: it overwrites or appends what came before it.
  const host = lastEntry(headers.get('x-forwarded-host')) || (headers.get('host') ?? '');
  const proto = forwardedProto(headers.get('x-forwarded-proto'));
  if (!HOST.test(host) || (proto !== 'http' && proto !== 'https')) return null;
  return `${proto}://${host.toLowerCase()}`;
}

/** Strict-Transport-Security for answers that reach clients over https: two years, subdomains too. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';

/**
 * Whether a request reached this service over https, by the scheme publicOrigin takes: so whether
 * its answer carries Strict-Transport-Security, which must never go out over plain http. Decided
 * here once when PUBLIC_URL (or NEXTAUTH_URL) names the origin; else, behind a trusted proxy, the
 * answer reads the request's X-Forwarded-Proto (as the server has it, after
 * settleForwardedHeaders); with neither, never: a client's own X-Forwarded-Proto is not believed.
 * The production server (server/main.ts) asks once at start-up, then per request.
 */
export function reachedOverHttps(trust: ProxyTrust = settings().TRUST_PROXY): (xForwardedProto: string | string[] | undefined) => boolean {
  const configured = configuredPublicOrigin();
  if (configured) {
    const https = configured.startsWith('https:');
    return () => https;
  }
  // No proxy trusted: never. (From a peer that is not a proxy TRUST_PROXY names, main.mjs has removed X-Forwarded-Proto.)
  if ('hops' in trust && trust.hops === 0) return () => false;
  return (value) => forwardedProto(Array.isArray(value) ? value.at(-1) : value) === 'https';
}
