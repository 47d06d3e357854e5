// Settings an admin changes on the pages rather than in the environment (which lib/settings reads):
// kept in the database, one StoreSetting row each (a missing row is the setting's default), so every
// instance applies the same. The one way to read and write them. A read goes through one short
// cache, as an account's state does, so a change made on another instance counts within a second; a
// change is written with its audit record (`setting.changed`, target `setting:<key>`, `before` and
// `after` as `{ value }`) in the same transaction. Each setting's meaning lives with its feature,
// which declares it here (lib/auth/oidc/password-sign-in.ts, lib/auth/second-factor/policy.ts).
import 'server-only';
import type { ChangeContext } from '../audit/context';
import { auditRow, insertAuditRows } from '../audit/records';
import { db } from '../db/client';
import { log } from '../log';
import { now as clockNow } from '../shared/clock';
import { shortCache } from '../short-cache';
import { ACCOUNT_STATE_TTL_MS } from './accounts/state';

/** A setting whose value is one of a few words (kebab-case key: also its audit target's id). */
export type StoreSetting<V extends string> = {
  key: string;
  values: readonly V[];
  /** The value while no admin has set it. */
  default: V;
  /** The value applied when the row holds one this version does not know (written by a newer one). */
  unknown: V;
};

// Few settings exist, and each is one entry: the bound only keeps a mistake from growing it.
const cache = shortCache<string | null>('store-settings', { ttlMs: ACCOUNT_STATE_TTL_MS, maxEntries: 32 });

function valueOf<V extends string>(setting: StoreSetting<V>, stored: string | null): V {
  if (stored === null) return setting.default;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return setting.unknown;
  }
  return (setting.values as readonly unknown[]).includes(value) ? (value as V) : setting.unknown;
}

/** The setting's value now (at most a second old). */
export async function readStoreSetting<V extends string>(setting: StoreSetting<V>, now = clockNow()): Promise<V> {
  const stored = await cache.get(
    setting.key,
    async () => (await db().storeSetting.findUnique({ where: { key: setting.key }, select: { value: true } }))?.value ?? null,
    now,
  );
  return valueOf(setting, stored);
}

/** Sets the setting, audited with its value before and after; false when it already was so. */
export async function writeStoreSetting<V extends string>(setting: StoreSetting<V>, value: V, by: ChangeContext): Promise<boolean> {
  const { key } = setting;
  const json = JSON.stringify(value);
  const changed = await db().$transaction(async (tx) => {
    // The write first: on SQLite it takes the write lock at once (as createUser explains), and on
    // PostgreSQL the row's lock, so requests for the same change at once make one. It makes the row
    // where there was none, holding the default, so what follows reads the value in force (it also
    // moves updatedAt, which nothing reads as the time of a change: the audit trail has that).
    await tx.storeSetting.upsert({ where: { key }, create: { key, value: JSON.stringify(setting.default) }, update: { key } });
    const stored = await tx.storeSetting.findUniqueOrThrow({ where: { key }, select: { value: true } });
    const before = valueOf(setting, stored.value);
    if (stored.value === json) return false;
    await tx.storeSetting.update({ where: { key }, data: { value: json } });
    await insertAuditRows(tx, [auditRow({ action: 'setting.changed', target: { type: 'setting', id: key }, before: { value: before }, after: { value } }, by)]);
    return true;
  });
  cache.forget(key);
  if (changed) log.info('setting changed', { setting: key, value, by: 'id' in by.actor && by.actor.id ? by.actor.id : by.actor.name });
  return changed;
}
