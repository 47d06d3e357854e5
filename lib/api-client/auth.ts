// The browser's side of next-auth's endpoints, without next-auth/react (its JavaScript, for two
// calls: docs/performance.md#page-weight): a CSRF token, then a form POST that answers JSON with
// where to go next. That destination is a path on this site (lib/http/next-auth-route.ts); on a
// refusal it is next-auth's own page, with the reason in its `error` parameter.

export type AuthAnswer = {
  status: number;
  /** Where next-auth would send the browser now, resolved against this page. */
  next: URL | null;
  /** The seconds a refusal asks to wait (429, 503: Retry-After), or null. */
  retryAfterSeconds: number | null;
};

export async function postAuthForm(action: 'callback/credentials' | 'callback/second-factor' | 'signout', fields: Record<string, string>): Promise<AuthAnswer> {
  const csrf = await fetch('/api/auth/csrf', { cache: 'no-store' });
  const { csrfToken } = (await csrf.json()) as { csrfToken?: string };
  if (!csrfToken) throw new Error('no CSRF token');
  const answer = await fetch(`/api/auth/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, csrfToken, json: 'true' }),
  });
  const { url } = (await answer.json().catch(() => ({}))) as { url?: unknown };
  const retryAfter = Number(answer.headers.get('retry-after'));
  return {
    status: answer.status,
    next: typeof url === 'string' ? new URL(url, window.location.href) : null,
    retryAfterSeconds: Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : null,
  };
}

/** True when next-auth sends the browser on to the page it asked for, not to one of its own. */
export function reachedDestination(answer: AuthAnswer): boolean {
  return answer.status < 400 && answer.next !== null && !answer.next.pathname.startsWith('/api/auth/');
}
