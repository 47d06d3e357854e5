'use server';
// Managing staff accounts: admins only. Every action checks the caller's role itself, since any
// signed-in person (or anyone at all) can call a server action directly; a refusal is logged.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { incomingRequest, staffContext } from '@/lib/audit/context';
import { AccountError, type ChangedBy, disableAccount, enableAccount, resetPassword, setAccountRole } from '@/lib/auth/accounts';
import { passwordLinkPath } from '@/lib/auth/password-links';
import { ROLES } from '@/lib/auth/scopes';
import { actionCaller } from '@/lib/auth/staff';
import { createUser, DuplicateEmailError, StaffEmail } from '@/lib/auth/users';
import { describeIssues } from '@/lib/http/validation';

export type AddStaffState =
  | { kind: 'idle' }
  | { kind: 'created'; email: string; linkPath: string }
  | { kind: 'error'; message: string };

export type StaffActionOutcome = { ok: boolean; message?: string; linkPath?: string };

const NewMember = z.object({ email: StaffEmail, role: z.enum(ROLES, { error: 'must be admin or staff' }) });

export async function addStaffMemberAction(_previous: AddStaffState, form: FormData): Promise<AddStaffState> {
  const { ok, staff, refusal } = await actionCaller('addStaffMember', 'admin');
  if (!ok) return { kind: 'error', message: refusal };
  const parsed = NewMember.safeParse({ email: String(form.get('email') ?? '').trim(), role: form.get('role') ?? 'staff' });
  if (!parsed.success) return { kind: 'error', message: describeIssues(parsed.error.issues) };
  try {
    const { account, passwordLink } = await createUser({ ...parsed.data, by: staffContext(staff, await incomingRequest()) });
    revalidatePath('/staff');
    return { kind: 'created', email: account.email, linkPath: passwordLinkPath(passwordLink!) };
  } catch (error) {
    if (error instanceof DuplicateEmailError) return { kind: 'error', message: `email: ${error.message}` };
    throw error;
  }
}

/** Runs one admin change on an account; an AccountError becomes the message shown. */
async function change(action: string, work: (by: ChangedBy) => Promise<string | void>): Promise<StaffActionOutcome> {
  const { ok, staff, refusal } = await actionCaller(action, 'admin');
  if (!ok) return { ok: false, message: refusal };
  try {
    const secret = await work(staffContext(staff, await incomingRequest()));
    revalidatePath('/staff');
    return secret ? { ok: true, linkPath: passwordLinkPath(secret) } : { ok: true };
  } catch (error) {
    if (error instanceof AccountError) return { ok: false, message: error.message };
    throw error;
  }
}

export async function disableAccountAction(id: string): Promise<StaffActionOutcome> {
  return change('disableAccount', (by) => disableAccount(String(id), by));
}

export async function enableAccountAction(id: string): Promise<StaffActionOutcome> {
  return change('enableAccount', (by) => enableAccount(String(id), by));
}

export async function setRoleAction(id: string, role: string): Promise<StaffActionOutcome> {
  return change('setRole', async (by) => {
    const parsed = z.enum(ROLES).safeParse(role);
    if (!parsed.success) throw new AccountError('role: must be admin or staff');
    await setAccountRole(String(id), parsed.data, by);
  });
}

export async function resetPasswordAction(id: string): Promise<StaffActionOutcome> {
  return change('resetPassword', (by) => resetPassword(String(id), by));
}
