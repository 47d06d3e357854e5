// Everything SQLite implements (the Engine of lib/db/stores.ts), reached only through engine()
// (lib/db/engine.ts).
import 'server-only';
import type { Engine } from '../stores';
import { sqliteAccounts } from './accounts';
import { closeSqliteConnection } from './connection';
import { sqliteDeliveries } from './deliveries';
import { sqliteLoginThrottle } from './login-throttle';
import { sqliteMaintenance } from './maintenance';
import { sqlitePlants } from './plants';
import { sqliteRateCounter } from './rate-counter';
import { sqliteTokenUse } from './token-use';

export const sqliteEngine: Engine = {
  name: 'sqlite',
  plants: sqlitePlants,
  deliveries: sqliteDeliveries,
  loginThrottle: sqliteLoginThrottle,
  rateCounter: sqliteRateCounter,
  tokenUse: sqliteTokenUse,
  accounts: sqliteAccounts,
  maintenance: sqliteMaintenance,
  close: closeSqliteConnection,
};
