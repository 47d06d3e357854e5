// The engine's stores behind sign-in and the API's limits (lib/db/stores.ts): the sign-in throttle
// (LoginThrottleStore), the rate counter (RateCounter), token use (TokenUseStore) and the two account
// changes that guard the last admin (AccountStore). The same tests, in-process and with no server,
// against the engine of the vitest project. A database of this file's own.
import { beforeEach, describe, expect, it } from 'vitest';
import { claimLoginAttempt } from '../../../lib/auth/passwords/login-throttle';
import { db, type Transaction } from '../../../lib/db/client';
import { engine } from '../../../lib/db/engine';
import { processOnOwnDatabase } from '../../support/fixtures';
import { testEngine } from '../../support/database';

const database = processOnOwnDatabase();

const MINUTE = 60_000;
// A moment of its own, far from the clock, so nothing else in the process shares its windows.
const start = Date.UTC(2031, 0, 1, 12, 0, 0);

describe('the sign-in throttle', () => {
  const throttle = () => engine().loginThrottle;
  // Three free attempts, then 1 s after the third, 2 s after the fourth, 4 s after any more.
  const DELAYS_MS = [0, 0, 0, 1000, 2000, 4000];
  const WINDOW_MS = 15 * MINUTE;
  const claim = (key: string, now: number) => throttle().claim(key, now, now - WINDOW_MS, DELAYS_MS);

  // The purge runs at most once a minute per process, after a claim; earlier files in this process
  // may have claimed, so this claim comes a minute after anything they did.
  it('purges expired rows when a sign-in is claimed', async () => {
    const stale = `stale-${Date.now()}@example.com`;
    const old = BigInt(Date.now() - 16 * 60 * 1000);
    await database.execute(`INSERT INTO "LoginThrottle" ("key", "attempts", "windowStart", "lastAttemptAt") VALUES ('${stale}', 3, ${old}, ${old})`);
    await claimLoginAttempt(`someone-${Date.now()}@example.com`, Date.now() + 61_000);
    await expect.poll(async () => (await database.execute(`SELECT "key" FROM "LoginThrottle" WHERE "key" = '${stale}'`)).length, { timeout: 5000 }).toBe(0);
  });

  it('lets the free attempts through, then each only as long after the last as the schedule says, counting only those it lets through', async () => {
    const key = 'schedule@example.com';
    for (let attempt = 0; attempt < 3; attempt++) expect(await claim(key, start + attempt)).toBe(true);
    expect(await throttle().read(key)).toEqual({ attempts: 3, lastAttemptAt: start + 2 });
    // After three, the next must come 1 s after the last.
    expect(await claim(key, start + 500)).toBe(false);
    expect(await throttle().read(key)).toEqual({ attempts: 3, lastAttemptAt: start + 2 });
    expect(await claim(key, start + 1002)).toBe(true);
    // After four, 2 s; after five or more, 4 s.
    expect(await claim(key, start + 3001)).toBe(false);
    expect(await claim(key, start + 3002)).toBe(true);
    expect(await claim(key, start + 7001)).toBe(false);
    expect(await claim(key, start + 7002)).toBe(true);
    expect(await claim(key, start + 11_002)).toBe(true);
    expect(await throttle().read(key)).toEqual({ attempts: 7, lastAttemptAt: start + 11_002 });
    // Once its window has passed, the count starts over.
    expect(await claim(key, start + WINDOW_MS + 1)).toBe(true);
    expect(await throttle().read(key)).toEqual({ attempts: 1, lastAttemptAt: start + WINDOW_MS + 1 });
  });

  it('decides parallel claims on one key one after the other: of 100 at the same moment, only the free ones pass', async () => {
    const key = 'burst@example.com';
    const claims = await Promise.all(Array.from({ length: 100 }, () => claim(key, start)));
    expect(claims.filter(Boolean)).toHaveLength(3);
    expect(await throttle().read(key)).toEqual({ attempts: 3, lastAttemptAt: start });
  });

  // Each claim reads the clock before it waits for the row, so under load one can reach it after a
  // claim whose moment is later: a free attempt is still free then, and a waited one still waits.
  it('counts a free attempt that reaches the row after a later one, and never moves the last attempt back', async () => {
    const key = 'out-of-order@example.com';
    expect(await claim(key, start + 10)).toBe(true);
    expect(await claim(key, start + 5)).toBe(true);
    expect(await claim(key, start)).toBe(true);
    expect(await throttle().read(key)).toEqual({ attempts: 3, lastAttemptAt: start + 10 });
    // After three, 1 s after the last: the last is the latest moment, not the last to arrive.
    expect(await claim(key, start + 1005)).toBe(false);
    expect(await claim(key, start + 1010)).toBe(true);
    expect(await claim(key, start + 1009)).toBe(false);
    expect(await throttle().read(key)).toEqual({ attempts: 4, lastAttemptAt: start + 1010 });
  });

  it('forgets a key when told, and purges only the keys whose window began by the floor', async () => {
    await claim('cleared@example.com', start);
    await throttle().clear('cleared@example.com');
    expect(await throttle().read('cleared@example.com')).toBeNull();
    await claim('older@example.com', start);
    await claim('newer@example.com', start + MINUTE);
    await throttle().purge(start);
    expect(await throttle().read('older@example.com')).toBeNull();
    expect(await throttle().read('newer@example.com')).toEqual({ attempts: 1, lastAttemptAt: start + MINUTE });
    expect(await throttle().read('never@example.com')).toBeNull();
  });
});

describe('the rate counter', () => {
  const count = async (key: string, windowStart: number) => await engine().rateCounter.count(key, windowStart);

  it("counts each caller's requests in a window, and starts over at 1 in a newer one", async () => {
    const key = `token:tok_rate${Date.now()}`;
    expect([await count(key, start), await count(key, start), await count(key, start)]).toEqual([1, 2, 3]);
    expect(await count(`${key}-other`, start)).toBe(1);
    expect([await count(key, start + MINUTE), await count(key, start + MINUTE)]).toEqual([1, 2]);
  });

  it('counts requests at the same moment exactly', async () => {
    const key = `token:tok_parallel${Date.now()}`;
    const counts = await Promise.all(Array.from({ length: 50 }, () => count(key, start)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
  });

  // PostgreSQL's counter counts the requests of one turn in one statement (lib/db/postgresql/rate-counter.ts).
  it("counts several callers' requests at the same moment, each caller's in the order they came (and on PostgreSQL an older window never rolls a newer one back)", async () => {
    const keys = [`token:tok_a${Date.now()}`, `token:tok_b${Date.now()}`, `token:tok_c${Date.now()}`];
    const counts = await Promise.all(Array.from({ length: 30 }, (_, index) => count(keys[index % 3], start)));
    for (const [caller] of keys.entries()) {
      expect(counts.filter((_, index) => index % 3 === caller)).toEqual(Array.from({ length: 10 }, (_, index) => index + 1));
    }
    expect(await count(keys[0], start + MINUTE)).toBe(1);
    // Where instances share the count, a request whose clock is behind counts on in the newer window.
    if (testEngine() === 'postgresql') expect(await count(keys[0], start)).toBe(2);
  });
});

describe('token use', () => {
  it('notes when a token was last used, to the millisecond, as Prisma reads it', async () => {
    const id = `tok_use${Date.now()}`;
    await db().apiToken.create({ data: { id, name: 'use', prefix: 'pst_use', hash: `hash-${id}` } });
    const at = new Date(start + 1234);
    await engine().tokenUse.recordUse(id, at);
    // On SQLite the note is written in the background, at once when the file is free.
    await expect.poll(async () => (await db().apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).toEqual(at);
  });

  it('takes a token deleted meanwhile as no fault, and makes nothing', async () => {
    await expect(engine().tokenUse.recordUse('tok_gone', new Date(start))).resolves.toBeUndefined();
    // Notes are written in order (on SQLite, at once while the file is free): once a note made
    // after it is in, the one for the deleted token has run too.
    const id = `tok_after${Date.now()}`;
    await db().apiToken.create({ data: { id, name: 'after', prefix: 'pst_aft', hash: `hash-${id}` } });
    await engine().tokenUse.recordUse(id, new Date(start));
    await expect.poll(async () => (await db().apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).toEqual(new Date(start));
    expect(await db().apiToken.findUnique({ where: { id: 'tok_gone' } })).toBeNull();
  });
});

describe('the last active admin', () => {
  const accounts = () => engine().accounts;
  const user = (role: 'admin' | 'staff', disabled = false) => {
    const id = `usr_${role}${Math.random().toString(36).slice(2, 10)}`;
    return db().user.create({ data: { id, email: `${id}@example.com`, role, disabledAt: disabled ? new Date(start) : null } });
  };
  const row = (id: string) => db().user.findUniqueOrThrow({ where: { id } });
  const noted = () => {
    const calls: Transaction[] = [];
    return { calls, recorded: async (tx: Transaction) => void calls.push(tx) };
  };

  beforeEach(async () => {
    await db().user.deleteMany();
  });

  it('cannot be disabled; anyone else can, once, at the given moment, with the change recorded in its transaction', async () => {
    const [admin, member] = [await user('admin'), await user('staff')];
    const refused = noted();
    expect(await accounts().disableUnlessLastAdmin(admin.id, new Date(start), refused.recorded)).toBe(0);
    expect(refused.calls).toEqual([]);
    expect(await row(admin.id)).toMatchObject({ disabledAt: null, sessionVersion: 0 });

    const done = noted();
    expect(await accounts().disableUnlessLastAdmin(member.id, new Date(start + 5), done.recorded)).toBe(1);
    expect(done.calls).toHaveLength(1);
    expect(await row(member.id)).toMatchObject({ disabledAt: new Date(start + 5), sessionVersion: 1 });
    expect(await accounts().disableUnlessLastAdmin(member.id, new Date(start + 6), noted().recorded)).toBe(0);

    // With a second active admin, the first can go; a disabled admin is not an active one.
    const other = await user('admin');
    expect(await accounts().disableUnlessLastAdmin(admin.id, new Date(start), noted().recorded)).toBe(1);
    expect(await accounts().disableUnlessLastAdmin(other.id, new Date(start), noted().recorded)).toBe(0);
  });

  it('cannot lose the role; anyone else can, with their sessions ended, and a role they have already is no change', async () => {
    const [admin, member] = [await user('admin'), await user('staff')];
    expect(await accounts().setRoleUnlessLastAdmin(admin.id, 'staff', noted().recorded)).toBe(0);
    expect(await accounts().setRoleUnlessLastAdmin(member.id, 'staff', noted().recorded)).toBe(0);
    await user('admin', true);
    expect(await accounts().setRoleUnlessLastAdmin(admin.id, 'staff', noted().recorded)).toBe(0);
    const other = await user('admin');
    expect(await accounts().setRoleUnlessLastAdmin(admin.id, 'staff', noted().recorded)).toBe(1);
    expect(await row(admin.id)).toMatchObject({ role: 'staff', sessionVersion: 1 });
    expect(await accounts().setRoleUnlessLastAdmin(other.id, 'staff', noted().recorded)).toBe(0);
  });

  it('keeps nothing of a change whose record fails', async () => {
    const [, member] = [await user('admin'), await user('staff')];
    const failing = async () => {
      throw new Error('no record');
    };
    await expect(accounts().disableUnlessLastAdmin(member.id, new Date(start), failing)).rejects.toThrow('no record');
    expect(await row(member.id)).toMatchObject({ disabledAt: null, sessionVersion: 0 });
  });

  it('survives two admins removing each other at the same moment: exactly one wins, every time', async () => {
    const [a, b] = [await user('admin'), await user('admin')];
    for (let round = 0; round < 9; round++) {
      // Disable against disable, then demote against disable, then demote against demote.
      const moves = [
        [() => accounts().disableUnlessLastAdmin(a.id, new Date(start), noted().recorded), () => accounts().disableUnlessLastAdmin(b.id, new Date(start), noted().recorded)],
        [() => accounts().setRoleUnlessLastAdmin(a.id, 'staff', noted().recorded), () => accounts().disableUnlessLastAdmin(b.id, new Date(start), noted().recorded)],
        [() => accounts().setRoleUnlessLastAdmin(a.id, 'staff', noted().recorded), () => accounts().setRoleUnlessLastAdmin(b.id, 'staff', noted().recorded)],
      ][round % 3];
      const changed = await Promise.all(moves.map((move) => move()));
      expect(changed.sort(), `round ${round}`).toEqual([0, 1]);
      expect(await db().user.count({ where: { role: 'admin', disabledAt: null } })).toBe(1);
      await db().user.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { role: 'admin', disabledAt: null } });
    }
  });
});
