'use server';
// "Forgot your password?": open to anyone, like the sign-in page. The limits are checked and the
// answer given first; the account is looked up, and a link mailed, only after the response
// (lib/mail/forgot-password.ts), so the answer's time says nothing of whether the account exists.
import { after } from 'next/server';
import { z } from 'zod';
import { StaffEmail } from '@/lib/auth/accounts/directory';
import { formArguments, serverAction } from '@/lib/auth/server-action';
import { MailNotConfiguredError, requestPasswordEmail } from '@/lib/mail/forgot-password';
import type { ForgotPasswordState } from '@/components/forgot-password-form';

const Request = z.object({ email: z.string().trim().pipe(StaffEmail) });

const inWords = (seconds: number) => (seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);

export const requestPasswordEmailAction = serverAction({
  name: 'requestPasswordEmail',
  role: 'anyone',
  args: formArguments((form) => ({ email: form.get('email') ?? '' }), Request),
  refuse: (message): ForgotPasswordState => ({ kind: 'error', message }),
  async run([, { email }], { request }): Promise<ForgotPasswordState> {
    try {
      const admitted = await requestPasswordEmail(email, request);
      if (!admitted.accepted) {
        return {
          kind: 'error',
          message: `A link for this address was asked for a moment ago. Wait ${inWords(admitted.retryAfterSeconds)} and try again.`,
          email,
        };
      }
      after(admitted.work);
    } catch (error) {
      if (error instanceof MailNotConfiguredError) return { kind: 'error', message: error.message, email };
      throw error;
    }
    return { kind: 'sent', email };
  },
});
