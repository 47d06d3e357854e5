// A restore carries the second factors of the database it replaces into the restored copy, as it
// carries passwords (restore-access.ts): for an account both have, where its factor differs (removed,
// reset, set up again after the backup), the replaced database's is kept, with its recovery codes;
// where it is the same factor, a recovery code used in either stays used, and the last step accepted
// is the later of the two, so no code or recovery code used after the backup works again.
import 'server-only';
import type Database from 'better-sqlite3';

type Factor = { userId: string; secret: string; confirmedAt: unknown; lastUsedStep: number | null; createdAt: unknown };
type Code = { userId: string; hash: string; usedAt: unknown };

/** The second factors of a database, by account: null when its schema has none (a version before them). */
export type SecondFactorsAtRest = { factors: Map<string, Factor>; codes: Map<string, Code[]> } | null;

const FACTORS = 'SELECT "userId", "secret", "confirmedAt", "lastUsedStep", "createdAt" FROM "SecondFactor"';
const CODES = 'SELECT "userId", "hash", "usedAt" FROM "RecoveryCode"';

export function readSecondFactors(database: Database.Database): SecondFactorsAtRest {
  const hasTable = database.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'SecondFactor'`).pluck().get();
  if (!hasTable) return null;
  const codes = new Map<string, Code[]>();
  for (const code of database.prepare(CODES).all() as Code[]) codes.set(code.userId, [...(codes.get(code.userId) ?? []), code]);
  return { factors: new Map((database.prepare(FACTORS).all() as Factor[]).map((factor) => [factor.userId, factor])), codes };
}

/** Carries `replaced`'s second factors into `restored` for the accounts in `accounts` (those both have); the accounts changed. */
export function carrySecondFactors(restored: Database.Database, replaced: SecondFactorsAtRest, accounts: ReadonlySet<string>): string[] {
  const ours = readSecondFactors(restored);
  if (!replaced || !ours) return [];
  const changed: string[] = [];
  const removeFactor = restored.prepare('DELETE FROM "SecondFactor" WHERE "userId" = ?');
  const removeCodes = restored.prepare('DELETE FROM "RecoveryCode" WHERE "userId" = ?');
  const insertFactor = restored.prepare('INSERT INTO "SecondFactor" ("userId", "secret", "confirmedAt", "lastUsedStep", "createdAt") VALUES (?, ?, ?, ?, ?)');
  const insertCode = restored.prepare('INSERT INTO "RecoveryCode" ("userId", "hash", "usedAt") VALUES (?, ?, ?)');
  const setStep = restored.prepare('UPDATE "SecondFactor" SET "lastUsedStep" = ? WHERE "userId" = ?');
  const useCode = restored.prepare('UPDATE "RecoveryCode" SET "usedAt" = ? WHERE "userId" = ? AND "hash" = ? AND "usedAt" IS NULL');
  for (const userId of accounts) {
    const theirs = replaced.factors.get(userId);
    const mine = ours.factors.get(userId);
    if (!theirs && !mine) continue;
    if (!theirs || !mine || theirs.secret !== mine.secret || (theirs.confirmedAt === null) !== (mine.confirmedAt === null)) {
      removeCodes.run(userId);
      removeFactor.run(userId);
      if (theirs) {
        insertFactor.run(theirs.userId, theirs.secret, theirs.confirmedAt, theirs.lastUsedStep, theirs.createdAt);
        for (const code of replaced.codes.get(userId) ?? []) insertCode.run(code.userId, code.hash, code.usedAt);
      }
      changed.push(userId);
      continue;
    }
    let carried = false;
    if (theirs.lastUsedStep !== null && (mine.lastUsedStep === null || theirs.lastUsedStep > mine.lastUsedStep)) {
      setStep.run(theirs.lastUsedStep, userId);
      carried = true;
    }
    for (const code of replaced.codes.get(userId) ?? []) {
      if (code.usedAt !== null && useCode.run(code.usedAt, userId, code.hash).changes > 0) carried = true;
    }
    if (carried) changed.push(userId);
  }
  return changed;
}
