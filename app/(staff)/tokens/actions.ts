'use server';
// Server actions are public endpoints: each one checks the session and role itself. Next checks
// their Origin, so another site cannot call them with a signed-in person's cookie.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { incomingRequest, staffContext } from '@/lib/audit/context';
import { createApiToken, revokeApiToken, TokenScopeError } from '@/lib/auth/api-tokens';
import { SCOPES } from '@/lib/auth/scopes';
import { actionCaller } from '@/lib/auth/staff';
import { describeIssues } from '@/lib/http/validation';
import { TokenName } from '@/lib/schemas/token';

export type CreateTokenState =
  | { kind: 'idle' }
  | { kind: 'created'; name: string; token: string }
  | { kind: 'error'; message: string };

const NewToken = z.object({
  name: TokenName,
  expiresInDays: z.enum(['never', '7', '30', '90', '365'], { error: 'must be one of the offered choices' }),
  scopes: z.array(z.enum(SCOPES, { error: 'must be among the offered scopes' })).min(1, { error: 'choose at least one' }),
});

export async function createTokenAction(_previous: CreateTokenState, form: FormData): Promise<CreateTokenState> {
  const { ok, staff, refusal } = await actionCaller('createToken');
  if (!ok) return { kind: 'error', message: refusal };
  const parsed = NewToken.safeParse({
    name: form.get('name') ?? '',
    expiresInDays: form.get('expiresInDays') ?? 'never',
    scopes: form.getAll('scopes'),
  });
  if (!parsed.success) return { kind: 'error', message: describeIssues(parsed.error.issues) };
  const { name, expiresInDays, scopes } = parsed.data;
  try {
    const { token } = await createApiToken(
      { name, scopes, expiresInDays: expiresInDays === 'never' ? undefined : Number(expiresInDays), createdById: staff.id },
      staffContext(staff, await incomingRequest()),
    );
    revalidatePath('/tokens');
    return { kind: 'created', name, token };
  } catch (error) {
    // Scopes beyond the account's role (the service checks them against the role as stored).
    if (error instanceof TokenScopeError) return { kind: 'error', message: `scopes: ${error.message}` };
    throw error;
  }
}

/** Staff revoke their own tokens; admins anyone's. */
export async function revokeTokenAction(id: string): Promise<{ ok: boolean; message?: string }> {
  const { ok, staff, refusal } = await actionCaller('revokeToken');
  if (!ok) return { ok: false, message: refusal };
  const revoked = await revokeApiToken(String(id), staffContext(staff, await incomingRequest()), staff.role === 'admin' ? {} : { createdById: staff.id });
  revalidatePath('/tokens');
  return revoked ? { ok: true } : { ok: false, message: 'That token was already revoked or does not exist.' };
}
