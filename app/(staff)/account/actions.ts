'use server';
// The signed-in person's own account. Each action checks the session itself.
import { incomingRequest, staffContext } from '@/lib/audit/context';
import { AccountError, changePassword, endSessions } from '@/lib/auth/accounts';
import { PasswordRuleError } from '@/lib/auth/password-policy';
import { actionCaller } from '@/lib/auth/staff';

export type ChangePasswordState = { kind: 'idle' } | { kind: 'changed' } | { kind: 'error'; message: string };

export async function changePasswordAction(_previous: ChangePasswordState, form: FormData): Promise<ChangePasswordState> {
  const { ok, staff, refusal } = await actionCaller('changePassword');
  if (!ok) return { kind: 'error', message: refusal };
  const current = String(form.get('currentPassword') ?? '');
  const next = String(form.get('newPassword') ?? '');
  if (!current) return { kind: 'error', message: 'Current password: must not be empty' };
  try {
    await changePassword(staff.id, current, next, staffContext(staff, await incomingRequest()));
    return { kind: 'changed' };
  } catch (error) {
    if (error instanceof PasswordRuleError) return { kind: 'error', message: `New password: ${error.rule}` };
    if (error instanceof AccountError) return { kind: 'error', message: error.message };
    throw error;
  }
}

export async function signOutEverywhereAction(): Promise<{ ok: boolean; message?: string }> {
  const { ok, staff, refusal } = await actionCaller('signOutEverywhere');
  if (!ok) return { ok: false, message: refusal };
  await endSessions(staff.id, 'sign-out-everywhere', staffContext(staff, await incomingRequest()));
  return { ok: true };
}
