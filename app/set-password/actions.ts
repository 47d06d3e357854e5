'use server';
// Setting a password through a one-time link. Open to anyone, like the sign-in page: the link's
// 256-bit secret is the credential, and it works once.
import { incomingRequest } from '@/lib/audit/context';
import { inspectPasswordLink, PASSWORD_LINK_MESSAGES, PasswordLinkError, setPasswordWithLink } from '@/lib/auth/password-links';
import { PasswordRuleError } from '@/lib/auth/password-policy';
import { ApiError } from '@/lib/http/errors';

export type LinkCheck = { usable: true; email: string } | { usable: false; message: string };

export async function checkPasswordLinkAction(secret: string): Promise<LinkCheck> {
  const link = await inspectPasswordLink(String(secret));
  return link.status === 'valid' ? { usable: true, email: link.email! } : { usable: false, message: PASSWORD_LINK_MESSAGES[link.status] };
}

export type SetPasswordOutcome = { ok: true; email: string } | { ok: false; message: string; linkUsable: boolean };

export async function setPasswordAction(secret: string, password: string): Promise<SetPasswordOutcome> {
  try {
    const { email } = await setPasswordWithLink(String(secret), String(password), await incomingRequest());
    return { ok: true, email };
  } catch (error) {
    if (error instanceof PasswordRuleError) return { ok: false, message: `New password: ${error.rule}`, linkUsable: true };
    if (error instanceof PasswordLinkError) return { ok: false, message: error.message, linkUsable: false };
    // Refused before any work: too many attempts from this address, or hashing busy.
    if (error instanceof ApiError) return { ok: false, message: error.message, linkUsable: true };
    throw error;
  }
}
