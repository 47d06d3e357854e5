// When each API token was last used, on PostgreSQL (the TokenUseStore of lib/db/stores.ts), through
// Prisma's query API: nothing here is measured as hot enough to need more.
import 'server-only';
import { postgresqlPrisma as db } from './prisma-client';
import type { TokenUseStore } from '../stores';

export const postgresqlTokenUse: TokenUseStore = {
  async recordUse(id, at) {
    // updateMany: a token deleted meanwhile (with its account) is no fault of the request.
    await db().apiToken.updateMany({ where: { id }, data: { lastUsedAt: at } });
  },
};
