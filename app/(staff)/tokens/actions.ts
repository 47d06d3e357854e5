'use server';
// Server actions are public endpoints: each one checks the session itself. Next checks their
// Origin, so another site cannot call them with a signed-in person's cookie.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { createApiToken, revokeApiToken } from '@/lib/auth/api-tokens';
import { currentStaff } from '@/lib/auth/staff';
import { describeIssues } from '@/lib/http/validation';

export type CreateTokenState =
  | { kind: 'idle' }
  | { kind: 'created'; name: string; token: string }
  | { kind: 'error'; message: string };

const NewToken = z.object({
  name: z.string().trim().min(1, { error: 'must not be empty' }).max(100, { error: 'must be at most 100 characters' }),
  expiresInDays: z.enum(['never', '7', '30', '90', '365'], { error: 'must be one of the offered choices' }),
});

export async function createTokenAction(_previous: CreateTokenState, form: FormData): Promise<CreateTokenState> {
  const staff = await currentStaff();
  if (!staff) return { kind: 'error', message: 'Your sign-in has ended. Sign in again to create a token.' };
  const parsed = NewToken.safeParse({ name: form.get('name') ?? '', expiresInDays: form.get('expiresInDays') ?? 'never' });
  if (!parsed.success) return { kind: 'error', message: describeIssues(parsed.error.issues) };
  const { name, expiresInDays } = parsed.data;
  const { token } = await createApiToken({
    name,
    expiresInDays: expiresInDays === 'never' ? undefined : Number(expiresInDays),
    createdById: staff.id,
  });
  revalidatePath('/tokens');
  return { kind: 'created', name, token };
}

export async function revokeTokenAction(id: string): Promise<{ ok: boolean; message?: string }> {
  const staff = await currentStaff();
  if (!staff) return { ok: false, message: 'Your sign-in has ended. Sign in again to revoke a token.' };
  const revoked = await revokeApiToken(String(id), { createdById: staff.id });
  revalidatePath('/tokens');
  return revoked ? { ok: true } : { ok: false, message: 'That token was already revoked or does not exist.' };
}
