import type { Metadata } from 'next';
import { TokenManager } from '@/components/token-manager';
import { listApiTokens } from '@/lib/auth/api-tokens';
import { requireStaff } from '@/lib/auth/staff';

export const metadata: Metadata = { title: 'API tokens · Plant Store' };

export default async function TokensPage() {
  const staff = await requireStaff('/tokens');
  const tokens = await listApiTokens({ createdById: staff.id });
  const rows = tokens.map((token) => ({
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    expiresAt: token.expiresAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  }));
  return <TokenManager tokens={rows} />;
}
