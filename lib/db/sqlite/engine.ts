// Everything SQLite implements (the Engine of lib/db/stores.ts), reached only through engine()
// (lib/db/engine.ts).
import 'server-only';
import { accountStore } from '../account-store';
import { loginThrottleStore } from '../login-throttle-store';
import type { Engine } from '../stores';
import { closeSqliteConnection } from './connection';
import { sqliteExecutor } from './executor';
import { closeSqlitePrisma, sqlitePrisma } from './prisma-client';
import { sqliteDeliveries } from './deliveries';
import { sqliteMaintenance } from './maintenance';
import { sqlitePlants } from './plants';
import { sqliteRateCounter } from './rate-counter';
import { sqliteTokenUse } from './token-use';

export const sqliteEngine: Engine = {
  name: 'sqlite',
  plants: sqlitePlants,
  deliveries: sqliteDeliveries,
  loginThrottle: loginThrottleStore(sqliteExecutor),
  rateCounter: sqliteRateCounter,
  tokenUse: sqliteTokenUse,
  accounts: accountStore(sqliteExecutor),
  maintenance: sqliteMaintenance,
  prisma: sqlitePrisma,
  async close() {
    closeSqliteConnection();
    await closeSqlitePrisma();
  },
};
