// The settings an admin changes on the pages (lib/auth/store-settings.ts), in-process on each
// engine's database, through the features that declare them: the second-factor rule and password
// sign-in for admins only. A missing row is the default; a change is its row and its audit record
// together, once however many ask for it at the same time; a change made elsewhere (another
// instance, straight in the database) is seen within the short cache's half second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { passwordSignInAdminsOnly, setPasswordSignInAdminsOnly } from '../../lib/auth/oidc/password-sign-in';
import { secondFactorRequirement, setSecondFactorRequirement } from '../../lib/auth/second-factor/policy';
import { db } from '../../lib/db/client';
import { processOnOwnDatabase } from '../support/fixtures';
import { setEnv } from '../support/settings';

const database = processOnOwnDatabase();

const recordsOf = (key: string) =>
  db().auditEvent.findMany({ where: { action: 'setting.changed', targetType: 'setting', targetId: key }, orderBy: { seq: 'asc' } });
const storedValue = async (key: string) => (await db().storeSetting.findUnique({ where: { key } }))?.value;
/** Past the short cache's life, so what follows reads the database. */
const pastTheCache = () => new Promise((resolve) => setTimeout(resolve, 600));
/** Writes a row as another instance (or a newer version) would, behind this process's cache. */
const writeElsewhere = (key: string, value: string) =>
  database.execute(`UPDATE "StoreSetting" SET "value" = '${value}' WHERE "key" = '${key}'`);

let restoreEnv = () => {};
beforeAll(() => {
  restoreEnv = setEnv({ PUBLIC_URL: 'https://plants.example.com', OIDC_ISSUER: 'https://idp.example.com', OIDC_CLIENT_ID: 'plant-store', OIDC_CLIENT_SECRET: 'a client secret of the test' });
});
afterAll(() => restoreEnv());

describe('store settings', () => {
  it('are their defaults until an admin sets them, with no row', async () => {
    expect(await secondFactorRequirement()).toBe('off');
    expect(await passwordSignInAdminsOnly()).toBe(false);
    expect(await db().storeSetting.count()).toBe(0);
  });

  it('write the row and one audit record together, and only for a change', async () => {
    expect(await setSecondFactorRequirement('admins', OPERATOR_COMMAND)).toBe(true);
    // This process sees its own change at once.
    expect(await secondFactorRequirement()).toBe('admins');
    expect(await storedValue('second-factor-required')).toBe('"admins"');
    expect(await setSecondFactorRequirement('admins', OPERATOR_COMMAND)).toBe(false);
    expect(await setSecondFactorRequirement('everyone', OPERATOR_COMMAND)).toBe(true);
    const records = await recordsOf('second-factor-required');
    expect(records.map((record) => [JSON.parse(record.before!), JSON.parse(record.after!), record.actorName])).toEqual([
      [{ value: 'off' }, { value: 'admins' }, 'cli'],
      [{ value: 'admins' }, { value: 'everyone' }, 'cli'],
    ]);

    // Setting the default where there was no row is no change either.
    expect(await setPasswordSignInAdminsOnly(false, OPERATOR_COMMAND)).toBe(false);
    expect(await recordsOf('password-sign-in')).toEqual([]);
    expect(await setPasswordSignInAdminsOnly(true, OPERATOR_COMMAND)).toBe(true);
    expect(await passwordSignInAdminsOnly()).toBe(true);
    const [record] = await recordsOf('password-sign-in');
    expect([JSON.parse(record.before!), JSON.parse(record.after!)]).toEqual([{ value: 'everyone' }, { value: 'admins' }]);
  });

  it('change once when asked for the same change at the same time', async () => {
    const before = (await recordsOf('second-factor-required')).length;
    const changed = await Promise.all(Array.from({ length: 4 }, () => setSecondFactorRequirement('off', OPERATOR_COMMAND)));
    expect(changed.filter(Boolean)).toHaveLength(1);
    expect(await recordsOf('second-factor-required')).toHaveLength(before + 1);
    expect(await secondFactorRequirement()).toBe('off');
  });

  it('are read through a short cache: a change made elsewhere counts within half a second', async () => {
    expect(await secondFactorRequirement()).toBe('off');
    await writeElsewhere('second-factor-required', '"admins"');
    await pastTheCache();
    expect(await secondFactorRequirement()).toBe('admins');
  });

  it('read a value this version does not know as each setting says', async () => {
    // The second-factor rule asks the most of everyone; password sign-in stays open to everyone.
    await writeElsewhere('second-factor-required', '"sometimes"');
    await writeElsewhere('password-sign-in', 'not json');
    await pastTheCache();
    expect(await secondFactorRequirement()).toBe('everyone');
    expect(await passwordSignInAdminsOnly()).toBe(false);
    // Setting it to what the unknown value reads as still writes it, and records the change.
    expect(await setSecondFactorRequirement('everyone', OPERATOR_COMMAND)).toBe(true);
    expect(await storedValue('second-factor-required')).toBe('"everyone"');
  });
});
