// The sign-in throttle's statements on SQLite (the LoginThrottleStore of lib/db/stores.ts), as the
// shared SQL (lib/db/shared-sql.ts) prepared on SQLite's own connection. Raw SQL because a claim is
// one conditional upsert, which Prisma's query API cannot say; on this connection because a sign-in
// that finds the file locked then waits without blocking the event loop (whenNotBusy), where
// Prisma's adapter would stall the process.
import 'server-only';
import { LOGIN_THROTTLE_CLEAR, LOGIN_THROTTLE_PURGE, LOGIN_THROTTLE_READ, loginClaimSql } from '../shared-sql';
import type { LoginThrottleStore } from '../stores';
import { prepared, whenNotBusy } from './connection';

type Parameters = Record<string, string | bigint>;

function all<Row>(sql: string, parameters: Parameters): Promise<Row[]> {
  return whenNotBusy(() => prepared<[Parameters], Row>(sql).all(parameters));
}

async function run(sql: string, parameters: Parameters): Promise<void> {
  await whenNotBusy(() => prepared<[Parameters]>(sql).run(parameters));
}

export const sqliteLoginThrottle: LoginThrottleStore = {
  async claim(key, now, windowFloor, delaysMs) {
    const claimed = await all(loginClaimSql(delaysMs), { key, now: BigInt(now), windowFloor: BigInt(windowFloor) });
    return claimed.length > 0;
  },
  async read(key) {
    const [row] = await all<{ attempts: bigint; lastAttemptAt: bigint }>(LOGIN_THROTTLE_READ, { key });
    return row ? { attempts: Number(row.attempts), lastAttemptAt: Number(row.lastAttemptAt) } : null;
  },
  clear: (key) => run(LOGIN_THROTTLE_CLEAR, { key }),
  purge: (windowFloor) => run(LOGIN_THROTTLE_PURGE, { windowFloor: BigInt(windowFloor) }),
};
