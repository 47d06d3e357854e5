import type { Metadata } from 'next';
import { connection } from 'next/server';
import { BrandedMain } from '@/components/brand';
import { ForgotPasswordForm } from '@/components/forgot-password-form';
import { mailConfigured } from '@/lib/mail/config';
import { requestPasswordEmailAction } from './actions';

export const metadata: Metadata = { title: 'Forgot your password · Plant Store' };

export default async function ForgotPasswordPage() {
  // Rendered per request, like every page: its scripts need the request's CSP nonce (proxy.ts).
  await connection();
  return (
    <BrandedMain>
      <ForgotPasswordForm mailOn={mailConfigured()} action={requestPasswordEmailAction} />
    </BrandedMain>
  );
}
