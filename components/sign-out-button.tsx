'use client';
// Signs out the way next-auth's signOut() does (CSRF token, then POST /api/auth/signout) without
// next-auth/react, which added to every staff page's JavaScript for this one click
// (docs/performance.md#page-weight).
import { useState } from 'react';
import { postAuthForm } from '@/lib/api-client/auth';
import { ScriptButton } from './script-button';

const AFTER_SIGN_OUT = '/login';

async function signOut(): Promise<string> {
  const answer = await postAuthForm('signout', { callbackUrl: AFTER_SIGN_OUT });
  if (answer.status >= 400) throw new Error(`sign-out answered ${answer.status}`);
  return AFTER_SIGN_OUT;
}

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <ScriptButton
      className="link-button"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        // A full page load, not router.push: the client router's cache still holds signed-in pages.
        // next-auth's own sign-out page still works when this could not: it asks, then signs out.
        signOut()
          .catch(() => '/api/auth/signout')
          .then((next) => window.location.assign(next));
      }}
    >
      Sign out
    </ScriptButton>
  );
}
