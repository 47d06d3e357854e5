'use client';
import { useState } from 'react';
import { oidcSignInUrl } from '@/lib/api-client/oidc';
import { Alert } from './notices';
import { useHydrated } from './use-hydrated';

/**
 * The identity provider's button: "Sign in with <name>". It goes through the page's script (a CSRF
 * token first), so it is disabled until the page has hydrated. `refusal` is why the last sign-in
 * through the provider did not happen, in words, when the provider sent the browser back refused.
 */
export function OidcSignIn({
  providerName,
  callbackUrl,
  refusal,
  passwordsForAdminsOnly,
}: {
  providerName: string;
  callbackUrl: string;
  refusal: string | null;
  /** Password sign-in is for admins only: this is the page's way in, first, and says why the password form is not. */
  passwordsForAdminsOnly: boolean;
}) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState(refusal ?? '');

  async function start() {
    setBusy(true);
    setAlert('');
    try {
      const next = await oidcSignInUrl(callbackUrl);
      if (next) {
        window.location.assign(next.href);
        return;
      }
      setAlert('Could not start signing in. Reload the page and try again.');
    } catch {
      setAlert('Could not reach the server. Check your connection and try again.');
    }
    setBusy(false);
  }

  return (
    <section className="card narrow oidc-sign-in" aria-labelledby="oidc-heading">
      {passwordsForAdminsOnly ? (
        <>
          <h1 id="oidc-heading">Sign in</h1>
          <p>{`Staff sign in with ${providerName}: an admin has turned password sign-in off for everyone but admins.`}</p>
        </>
      ) : (
        <h2 id="oidc-heading">Or use single sign-on</h2>
      )}
      <div className="actions">
        <button type="button" onClick={start} disabled={busy || !hydrated}>
          {busy ? `Going to ${providerName}…` : `Sign in with ${providerName}`}
        </button>
      </div>
      <div className="notice-area">
        <Alert>{alert}</Alert>
      </div>
    </section>
  );
}
