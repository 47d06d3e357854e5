// The sign-in throttle's statements on PostgreSQL (the LoginThrottleStore of lib/db/stores.ts): the
// shared SQL (lib/db/shared-sql.ts) through Prisma's client. Raw SQL because a claim is one
// conditional upsert, which Prisma's query API cannot say; concurrent claims on one key queue on its
// row lock, so every instance counts against the same row.
import 'server-only';
import { db } from '../client';
import { LOGIN_THROTTLE_CLEAR, LOGIN_THROTTLE_PURGE, LOGIN_THROTTLE_READ, loginClaimSql } from '../shared-sql';
import type { LoginThrottleStore } from '../stores';

type Parameters = Record<string, string | bigint>;

/** Runs a statement with named parameters: PostgreSQL numbers its own, @name becomes $1, $2, ... in order of first use. */
function run<Row>(sql: string, parameters: Parameters): Promise<Row[]> {
  const names: string[] = [];
  const numbered = sql.replace(/@(\w+)/g, (_match, name: string) => {
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return db().$queryRawUnsafe<Row[]>(numbered, ...names.map((name) => parameters[name]));
}

export const postgresqlLoginThrottle: LoginThrottleStore = {
  async claim(key, now, windowFloor, delaysMs) {
    const claimed = await run(loginClaimSql(delaysMs), { key, now: BigInt(now), windowFloor: BigInt(windowFloor) });
    return claimed.length > 0;
  },
  async read(key) {
    const [row] = await run<{ attempts: number | bigint; lastAttemptAt: bigint }>(LOGIN_THROTTLE_READ, { key });
    return row ? { attempts: Number(row.attempts), lastAttemptAt: Number(row.lastAttemptAt) } : null;
  },
  async clear(key) {
    await run(LOGIN_THROTTLE_CLEAR, { key });
  },
  async purge(windowFloor) {
    await run(LOGIN_THROTTLE_PURGE, { windowFloor: BigInt(windowFloor) });
  },
};
