'use server';
// Setting a password through a one-time link. Open to anyone, like the sign-in page: the link's
// 256-bit secret is the credential, and it works once. Defined through serverAction() all the
// same, so that arguments no page sends are refused, not a fault.
import { z } from 'zod';
import { PASSWORD_LINK_MESSAGES } from '@/lib/auth/passwords/link-shape';
import { inspectPasswordLink, setPasswordWithLink } from '@/lib/auth/passwords/links';
import { PasswordRuleError } from '@/lib/auth/passwords/policy';
import { serverAction } from '@/lib/auth/server-action';
import { ApiError } from '@/lib/errors';
import type { LinkCheck, SetPasswordOutcome } from '@/components/set-password-form';

export const checkPasswordLinkAction = serverAction({
  name: 'checkPasswordLink',
  role: 'anyone',
  args: z.tuple([z.string()]),
  refuse: (message): LinkCheck => ({ usable: false, message }),
  async run([secret]): Promise<LinkCheck> {
    const link = await inspectPasswordLink(secret);
    return link.status === 'valid' ? { usable: true, email: link.email! } : { usable: false, message: PASSWORD_LINK_MESSAGES[link.status] };
  },
});

export const setPasswordAction = serverAction({
  name: 'setPassword',
  role: 'anyone',
  args: z.tuple([z.string(), z.string()]),
  // A password the rules refuse leaves the link usable, and so does a refusal to start the work now
  // (too many attempts from the address, hashing busy: an ApiError); a link refused, or arguments, do not.
  refuse: (message, error): SetPasswordOutcome => ({
    ok: false,
    message,
    linkUsable: error instanceof PasswordRuleError || error instanceof ApiError,
  }),
  async run([secret, password], { request }): Promise<SetPasswordOutcome> {
    const { email } = await setPasswordWithLink(secret, password, request);
    return { ok: true, email };
  },
});
