/**
 * Where to send someone after signing in: only a path on this site, so a crafted link cannot
 * bounce a fresh session to another origin.
 */
export function safeReturnPath(value: string | string[] | undefined): string {
  const path = Array.isArray(value) ? value[0] : value;
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return '/';
  return path;
}
