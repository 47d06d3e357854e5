// The sign-in throttle's statements (the LoginThrottleStore of lib/db/stores.ts), written once on an
// engine's executor: the shared SQL (lib/db/shared-sql.ts). Raw SQL because a claim is one
// conditional upsert, which Prisma's query API cannot say. On SQLite a sign-in that finds the file
// locked waits without blocking the event loop; on PostgreSQL concurrent claims on one key queue on
// its row lock, so every instance counts against the same row.
import 'server-only';
import { LOGIN_THROTTLE_CLEAR, LOGIN_THROTTLE_PURGE, LOGIN_THROTTLE_READ, loginClaimSql } from './shared-sql';
import type { Executor, LoginThrottleStore } from './stores';

export function loginThrottleStore(executor: Executor): LoginThrottleStore {
  return {
    async claim(key, now, windowFloor, delaysMs) {
      const claimed = await executor.query(loginClaimSql(delaysMs), { key, now: BigInt(now), windowFloor: BigInt(windowFloor) });
      return claimed.length > 0;
    },
    async read(key) {
      const [row] = await executor.query<{ attempts: number | bigint; lastAttemptAt: bigint }>(LOGIN_THROTTLE_READ, { key });
      return row ? { attempts: Number(row.attempts), lastAttemptAt: Number(row.lastAttemptAt) } : null;
    },
    async clear(key) {
      await executor.run(LOGIN_THROTTLE_CLEAR, { key });
    },
    async purge(windowFloor) {
      await executor.run(LOGIN_THROTTLE_PURGE, { windowFloor: BigInt(windowFloor) });
    },
  };
}
