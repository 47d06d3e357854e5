'use client';
// A one-time set-password link, shown once for the admin to hand over. The server answers with a
// path; the full address is this page's own origin, which is the one the admin reached us at.
import { SecretBox } from './secret-box';

export function OneTimeLink({ email, path, intro }: { email: string; path: string; intro: string }) {
  const link = typeof window === 'undefined' ? path : `${window.location.origin}${path}`;
  return (
    <SecretBox secret={link} label={`Set-password link for ${email}`}>
      <p>
        <strong>{intro}</strong> Hand this link to {email}: it sets their password, works once and expires in 24 hours. It
        is not shown again.
      </p>
    </SecretBox>
  );
}
