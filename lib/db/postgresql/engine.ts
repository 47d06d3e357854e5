// Everything PostgreSQL implements (the Engine of lib/db/stores.ts), reached only through engine()
// (lib/db/engine.ts). It holds its Prisma client and the pool under it, on which its own
// statements run too (lib/db/postgresql/prisma-client.ts), and the plants table's analysis waiting
// for a pause in the writes, which closing forgets.
import 'server-only';
import { accountStore } from '../account-store';
import { loginThrottleStore } from '../login-throttle-store';
import type { Engine } from '../stores';
import { postgresqlExecutor } from './executor';
import { closePostgresqlPrisma, postgresqlPrisma } from './prisma-client';
import { postgresqlDeliveries } from './deliveries';
import { postgresqlMaintenance } from './maintenance';
import { forgetPlantsWritten } from './plant-statistics';
import { postgresqlPlants } from './plants';
import { postgresqlRateCounter } from './rate-counter';
import { postgresqlTokenUse } from './token-use';

export const postgresqlEngine: Engine = {
  name: 'postgresql',
  plants: postgresqlPlants,
  deliveries: postgresqlDeliveries,
  loginThrottle: loginThrottleStore(postgresqlExecutor),
  rateCounter: postgresqlRateCounter,
  tokenUse: postgresqlTokenUse,
  accounts: accountStore(postgresqlExecutor),
  maintenance: postgresqlMaintenance,
  prisma: postgresqlPrisma,
  async close() {
    forgetPlantsWritten();
    await closePostgresqlPrisma();
  },
};
