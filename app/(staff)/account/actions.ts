'use server';
// The signed-in person's own account. Each action is defined through serverAction(), which checks
// the session and the arguments first.
import { z } from 'zod';
import { changePassword, endSessions } from '@/lib/auth/accounts/changes';
import { formArguments, serverAction } from '@/lib/auth/server-action';
import type { ChangePasswordState } from '@/components/account-settings';
import type { ActionOutcome } from '@/components/confirm-action';

// The new password's rules are the service's (a PasswordRuleError, shown as "New password: ...").
const Passwords = z
  .object({ currentPassword: z.string(), newPassword: z.string() })
  .refine(({ currentPassword }) => currentPassword !== '', { error: 'Current password: must not be empty' });

export const changePasswordAction = serverAction({
  name: 'changePassword',
  role: 'staff',
  args: formArguments((form) => ({ currentPassword: form.get('currentPassword') ?? '', newPassword: form.get('newPassword') ?? '' }), Passwords),
  refuse: (message): ChangePasswordState => ({ kind: 'error', message }),
  async run([, { currentPassword, newPassword }], { staff, context }): Promise<ChangePasswordState> {
    await changePassword(staff.id, currentPassword, newPassword, context);
    return { kind: 'changed' };
  },
});

export const signOutEverywhereAction = serverAction({
  name: 'signOutEverywhere',
  role: 'staff',
  args: z.tuple([]),
  refuse: (message): ActionOutcome => ({ ok: false, message }),
  async run(_args, { staff, context }): Promise<ActionOutcome> {
    await endSessions(staff.id, 'sign-out-everywhere', context);
    return { ok: true };
  },
});
