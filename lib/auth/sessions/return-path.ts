// Where to send someone after signing in (or out): only a path on this site, so a crafted link
// cannot bounce a fresh session to another origin. Every redirect whose destination comes from a
// request goes through here: the login page, requireStaff, next-auth's redirect callback and its
// callbackUrl parameters, and the login form before it navigates. Browser-safe on purpose.

export const DEFAULT_RETURN_PATH = '/';
// A host that cannot exist (RFC 2606). A value is resolved against it, and refused if that
// leaves it: what the URL parser reads as another host is what a browser would follow.
const PROBE_ORIGIN = 'http://return-path.invalid';
// Browsers drop tabs and newlines from URLs and read `\` as `/`, so `/<TAB>/evil.example` becomes
// `//evil.example`; and CR or LF in a Location header is a 500. None of them, nor any other
// control character or whitespace, belongs in a path we send people to.
const UNSAFE_CHARACTER = /[\p{Cc}\s\\]/u;
// Longer than any path of this site needs; a return path travels in a Location header and a cookie.
const MAX_LENGTH = 2048;

/** A path on this site (with its query and fragment) to send someone to, or `/`. */
export function safeReturnPath(value: unknown): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (typeof candidate !== 'string' || !candidate.startsWith('/') || candidate.length > MAX_LENGTH) return DEFAULT_RETURN_PATH;
  if (UNSAFE_CHARACTER.test(candidate)) return DEFAULT_RETURN_PATH;
  let resolved: URL;
  try {
    resolved = new URL(candidate, PROBE_ORIGIN);
  } catch {
    return DEFAULT_RETURN_PATH;
  }
  if (resolved.origin !== PROBE_ORIGIN) return DEFAULT_RETURN_PATH;
  // The parser percent-encodes what it keeps, so the result is plain ASCII. Dot segments can
  // still leave a leading `//` (`/.//evil.example`), which a browser reads as a host.
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return path.startsWith('//') ? DEFAULT_RETURN_PATH : path;
}

/**
 * The same, for a value that may also be an absolute URL on `origin` (next-auth names its own
 * destinations that way): the path on this site it points to, or `/`.
 */
export function returnPathOn(origin: string, value: unknown): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (typeof candidate === 'string' && (candidate === origin || candidate.startsWith(`${origin}/`))) {
    return safeReturnPath(candidate.slice(origin.length) || DEFAULT_RETURN_PATH);
  }
  return safeReturnPath(candidate);
}
