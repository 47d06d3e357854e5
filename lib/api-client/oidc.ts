// The browser's side of signing in through the identity provider: a CSRF token, then next-auth's
// sign-in POST for the provider, which answers where to send the browser (the provider's sign-in
// page, with state, nonce and PKCE's challenge; or, when the provider cannot be reached, this
// site's sign-in page with the reason). Only an https:// or http:// address is followed.

/** Where to send the browser next, or null when the server gave no usable answer. */
export async function oidcSignInUrl(callbackUrl: string): Promise<URL | null> {
  const csrf = await fetch('/api/auth/csrf', { cache: 'no-store' });
  const { csrfToken } = (await csrf.json()) as { csrfToken?: string };
  if (!csrfToken) return null;
  const answer = await fetch('/api/auth/signin/oidc', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken, callbackUrl, json: 'true' }),
  });
  const { url } = (await answer.json().catch(() => ({}))) as { url?: unknown };
  if (typeof url !== 'string') return null;
  const next = new URL(url, window.location.href);
  return next.protocol === 'https:' || next.protocol === 'http:' ? next : null;
}
