import type { Metadata } from 'next';
import { TokenManager } from '@/components/tokens/token-manager';
import { listApiTokens } from '@/lib/auth/tokens/api-tokens';
import { ROLE_SCOPES } from '@/lib/auth/scopes';
import { requireStaff } from '@/lib/auth/sessions/current-staff';
import { createTokenAction, revokeTokenAction } from './actions';

export const metadata: Metadata = { title: 'API tokens · Plant Store' };

export default async function TokensPage() {
  const staff = await requireStaff('/tokens');
  // Admins see and may revoke everyone's tokens; staff their own.
  const everyone = staff.role === 'admin';
  const tokens = await listApiTokens(everyone ? {} : { createdById: staff.id });
  const rows = tokens.map((token) => ({
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scopes: token.scopes,
    owner: everyone ? token.ownerEmail : undefined,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    expiresAt: token.expiresAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  }));
  return <TokenManager tokens={rows} scopes={ROLE_SCOPES[staff.role]} everyone={everyone} actions={{ createTokenAction, revokeTokenAction }} />;
}
