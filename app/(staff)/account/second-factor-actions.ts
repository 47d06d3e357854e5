'use server';
// A person's own second factor: enrolling one (from /account, or from /enrol when the store asks
// for it before anything else), and removing it with a code. Each action is defined through
// serverAction(), which checks the session and the arguments first; enrolling may be done by an
// account that must enrol before anything else (beforeSecondFactor).
import { z } from 'zod';
import { revalidatePath } from 'next/cache';
import { formArguments, serverAction } from '@/lib/auth/server-action';
import { confirmEnrolment, removeSecondFactor, startEnrolment, spendSecondFactorCode } from '@/lib/auth/second-factor/factors';
import { qrCodeDataUrl } from '@/lib/auth/second-factor/qr-code';
import { claimCodeAttempt, clearCodeAttempts } from '@/lib/auth/second-factor/code-throttle';
import type { ConfirmState, EnrolmentStart, RemoveState } from '@/components/second-factor/second-factor-actions';

const Code = z.object({ code: z.string().trim().min(1, { error: 'Code: must not be empty' }).max(64, { error: 'Code: too long' }) });
const readCode = (form: FormData) => ({ code: form.get('code') ?? '' });

export const startEnrolmentAction = serverAction({
  name: 'startEnrolment',
  role: 'staff',
  beforeSecondFactor: true,
  args: z.tuple([]),
  refuse: (message): EnrolmentStart => ({ ok: false, message }),
  async run(_args, { staff }): Promise<EnrolmentStart> {
    const { secret, uri } = await startEnrolment(staff.id, staff.email);
    return { ok: true, secret, uri, qrCode: await qrCodeDataUrl(uri) };
  },
});

export const confirmEnrolmentAction = serverAction({
  name: 'confirmEnrolment',
  role: 'staff',
  beforeSecondFactor: true,
  args: formArguments(readCode, Code),
  refuse: (message): ConfirmState => ({ kind: 'error', message }),
  async run([, { code }], { staff, context }): Promise<ConfirmState> {
    const recoveryCodes = await confirmEnrolment(staff.id, code, context);
    return { kind: 'confirmed', recoveryCodes };
  },
});

export const removeSecondFactorAction = serverAction({
  name: 'removeSecondFactor',
  role: 'staff',
  args: formArguments(readCode, Code),
  refuse: (message): RemoveState => ({ kind: 'error', message }),
  async run([, { code }], { staff, context }): Promise<RemoveState> {
    // A code first, so a session left open on someone else's screen cannot take the factor off.
    const claim = await claimCodeAttempt(staff.id);
    if (!claim.allowed) return { kind: 'error', message: `Too many wrong codes. Wait ${claim.retryAfterSeconds} s and try again.` };
    const check = await spendSecondFactorCode(staff.id, code, context);
    if (check.ok) await clearCodeAttempts(staff.id);
    else {
      return { kind: 'error', message: check.reason === 'replayed' ? 'That code was used already. Wait for the next one.' : 'That code is not right.' };
    }
    await removeSecondFactor(staff.id, 'removed', context);
    revalidatePath('/account');
    return { kind: 'removed' };
  },
});
