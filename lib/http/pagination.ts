/**
 * Headers that lead to the next page of a list: `Link: <…>; rel="next"` (RFC 8288) and
 * `Next-Cursor`, since the body itself must stay a bare array.
 */
export function nextPageHeaders(url: URL, nextCursor: string | null): Record<string, string> {
  if (!nextCursor) return {};
  const next = new URL(url.pathname, url.origin);
  for (const [key, value] of url.searchParams) if (key !== 'cursor') next.searchParams.set(key, value);
  next.searchParams.set('cursor', nextCursor);
  return { Link: `<${next.pathname}${next.search}>; rel="next"`, 'Next-Cursor': nextCursor };
}
