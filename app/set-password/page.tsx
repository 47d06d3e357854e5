import type { Metadata } from 'next';
import { connection } from 'next/server';
import { BrandedMain } from '@/components/brand';
import { SetPasswordForm } from '@/components/set-password-form';
import { PASSWORD_MIN_LENGTH } from '@/lib/auth/passwords/policy';
import { checkPasswordLinkAction, setPasswordAction } from './actions';

export const metadata: Metadata = { title: 'Set your password · Plant Store', referrer: 'no-referrer' };

export default async function SetPasswordPage() {
  // Rendered per request, like every page: its scripts need the request's CSP nonce (proxy.ts).
  await connection();
  return (
    <BrandedMain>
      <SetPasswordForm minLength={PASSWORD_MIN_LENGTH} actions={{ checkPasswordLinkAction, setPasswordAction }} />
    </BrandedMain>
  );
}
