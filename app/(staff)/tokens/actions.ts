'use server';
// Server actions are public endpoints: each one is defined through serverAction(), which checks
// the session, role and arguments first. Next checks their Origin, so another site cannot call
// them with a signed-in person's cookie.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { createApiToken, revokeApiToken } from '@/lib/auth/tokens/api-tokens';
import { SCOPES } from '@/lib/auth/scopes';
import { formArguments, serverAction } from '@/lib/auth/server-action';
import { TokenName } from '@/lib/schemas/token';
import type { ActionOutcome } from '@/components/confirm-action';
import type { CreateTokenState } from '@/components/tokens/token-actions';

const NewToken = z.object({
  name: TokenName,
  expiresInDays: z.enum(['never', '7', '30', '90', '365'], { error: 'must be one of the offered choices' }),
  scopes: z.array(z.enum(SCOPES, { error: 'must be among the offered scopes' })).min(1, { error: 'choose at least one' }),
});

export const createTokenAction = serverAction({
  name: 'createToken',
  role: 'staff',
  args: formArguments(
    (form) => ({ name: form.get('name') ?? '', expiresInDays: form.get('expiresInDays') ?? 'never', scopes: form.getAll('scopes') }),
    NewToken,
  ),
  refuse: (message): CreateTokenState => ({ kind: 'error', message }),
  async run([, { name, expiresInDays, scopes }], { staff, context }): Promise<CreateTokenState> {
    const { token } = await createApiToken(
      { name, scopes, expiresInDays: expiresInDays === 'never' ? undefined : Number(expiresInDays), createdById: staff.id },
      context,
    );
    revalidatePath('/tokens');
    return { kind: 'created', name, token };
  },
});

/** Staff revoke their own tokens; admins anyone's. */
export const revokeTokenAction = serverAction({
  name: 'revokeToken',
  role: 'staff',
  args: z.tuple([z.string()]),
  refuse: (message): ActionOutcome => ({ ok: false, message }),
  async run([id], { staff, context }): Promise<ActionOutcome> {
    const revoked = await revokeApiToken(id, context, staff.role === 'admin' ? {} : { createdById: staff.id });
    revalidatePath('/tokens');
    return revoked ? { ok: true } : { ok: false, message: 'That token was already revoked or does not exist.' };
  },
});
