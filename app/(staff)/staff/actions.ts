'use server';
// Managing staff accounts: admins only. Any signed-in person (or anyone at all) can call a server
// action directly, so each is defined through serverAction(), which checks the caller's role and
// the arguments first, and logs a refusal.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { disableAccount, enableAccount, resetPassword, setAccountRole } from '@/lib/auth/accounts/changes';
import { passwordLinkPath } from '@/lib/auth/passwords/links';
import { ROLES } from '@/lib/auth/scopes';
import { formArguments, serverAction } from '@/lib/auth/server-action';
import { createUser, StaffEmail } from '@/lib/auth/accounts/directory';
import { mailConfigured } from '@/lib/mail/config';
import { setPasswordSignInAdminsOnly } from '@/lib/auth/oidc/password-sign-in';
import type { AddStaffState, StaffActionOutcome } from '@/components/staff/staff-actions';
import type { RequirementState } from '@/components/staff/second-factor-requirement';
import { removeSecondFactor } from '@/lib/auth/second-factor/factors';
import { setSecondFactorRequirement } from '@/lib/auth/second-factor/policy';
import { REQUIREMENTS } from '@/lib/auth/second-factor/requirement';

const NewMember = z.object({ email: z.string().trim().pipe(StaffEmail), role: z.enum(ROLES, { error: 'must be admin or staff' }) });

export const addStaffMemberAction = serverAction({
  name: 'addStaffMember',
  role: 'admin',
  args: formArguments((form) => ({ email: form.get('email') ?? '', role: form.get('role') ?? 'staff' }), NewMember),
  refuse: (message): AddStaffState => ({ kind: 'error', message }),
  async run([, member], { context }): Promise<AddStaffState> {
    const { account, passwordLink } = await createUser({ ...member, by: context });
    revalidatePath('/staff');
    // With email set up the link went to the member: the page does not see it (one copy, theirs).
    if (mailConfigured()) return { kind: 'invited', email: account.email };
    return { kind: 'created', email: account.email, linkPath: passwordLinkPath(passwordLink!) };
  },
});

const refuseChange = (message: string): StaffActionOutcome => ({ ok: false, message });

/**
 * The answer to a change made: the page shows it, with the new set-password link if it made one,
 * unless it was mailed to the account's address: then the answer says so instead.
 */
function changed(link?: { secret: string; mailed: boolean }): StaffActionOutcome {
  revalidatePath('/staff');
  if (!link) return { ok: true };
  return link.mailed ? { ok: true, emailed: true } : { ok: true, linkPath: passwordLinkPath(link.secret) };
}

export const disableAccountAction = serverAction({
  name: 'disableAccount',
  role: 'admin',
  args: z.tuple([z.string()]),
  refuse: refuseChange,
  async run([id], { context }) {
    await disableAccount(id, context);
    return changed();
  },
});

export const enableAccountAction = serverAction({
  name: 'enableAccount',
  role: 'admin',
  args: z.tuple([z.string()]),
  refuse: refuseChange,
  async run([id], { context }) {
    await enableAccount(id, context);
    return changed();
  },
});

export const setRoleAction = serverAction({
  name: 'setRole',
  role: 'admin',
  args: z.tuple([z.string(), z.enum(ROLES, { error: 'role: must be admin or staff' })]),
  refuse: refuseChange,
  async run([id, role], { context }) {
    await setAccountRole(id, role, context);
    return changed();
  },
});

export const resetPasswordAction = serverAction({
  name: 'resetPassword',
  role: 'admin',
  args: z.tuple([z.string()]),
  refuse: refuseChange,
  async run([id], { context }) {
    return changed(await resetPassword(id, context));
  },
});

export const resetSecondFactorAction = serverAction({
  name: 'resetSecondFactor',
  role: 'admin',
  args: z.tuple([z.string()]),
  refuse: refuseChange,
  async run([id], { context }) {
    if (!(await removeSecondFactor(id, 'reset', context))) return refuseChange('That account has no second factor (any more).');
    return changed();
  },
});

export const setSecondFactorRequirementAction = serverAction({
  name: 'setSecondFactorRequirement',
  role: 'admin',
  args: formArguments((form) => ({ required: form.get('required') ?? '' }), z.object({ required: z.enum(REQUIREMENTS, { error: 'must be off, admins or everyone' }) })),
  refuse: (message): RequirementState => ({ kind: 'error', message }),
  async run([, { required }], { context }): Promise<RequirementState> {
    await setSecondFactorRequirement(required, context);
    revalidatePath('/staff');
    return { kind: 'saved', required };
  },
});

export const setPasswordSignInAction = serverAction({
  name: 'setPasswordSignIn',
  role: 'admin',
  args: z.tuple([z.boolean({ error: 'must be true or false' })]),
  refuse: refuseChange,
  async run([adminsOnly], { context }) {
    await setPasswordSignInAdminsOnly(adminsOnly, context);
    return changed();
  },
});
