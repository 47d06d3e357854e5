// Access ended after a backup was taken stays ended when the backup is restored. Before the restored
// copy takes its place, the restore reads what ended access in the database it replaces and carries
// it into the copy, the later of the two each time:
//   - an API token revoked in either stays revoked, with the later time of revocation;
//   - an account disabled in either stays disabled (and its set-password links end, as a disable
//     ends them);
//   - an admin who is staff in the replaced database is staff: a role lowered is access ended;
//   - where the two differ, the password is the replaced database's (none, after a reset): a
//     password has no time of change, the replaced database's is the one in force, and the backup's
//     may have been changed because it leaked;
//   - the session version is the greater of the two, and above the backup's wherever one of the
//     above was carried, so every session and page token ended after the backup stays ended;
//   - a set-password link used in the replaced database is used; one that is gone from it (replaced
//     by a newer link, or ended by a disable) is deleted;
//   - a webhook endpoint disabled in the replaced database, or deleted from it (its audit trail
//     says so), is disabled: it would otherwise receive the store's changes again;
//   - where an endpoint's signing secrets differ, they are the replaced database's, as passwords
//     are: a secret rotated out (perhaps because it leaked) must not sign again;
//   - where an account's second factor differs (removed, reset, set up again), it is the replaced
//     database's, and recovery codes and codes used there stay used (restore-second-factors.ts).
// Access granted after the backup is not carried (a restore goes back to the backup's grants), nor
// are the store's settings (StoreSetting: they are the backup's, as docs/operations.md says), and
// a row the replaced database does not have is left as the backup has it: the store never deletes
// accounts or tokens, so such a row means the replaced database is another store's (a new one on a
// new machine), which ended nothing of this one's.
import 'server-only';
import type Database from 'better-sqlite3';
import type { AuditRow, CarriedAccess } from '../stores';
import { auditValues, INSERT_AUDIT } from './change-records';
import { fromSqliteTime } from './connection';
import { carrySecondFactors, readSecondFactors, type SecondFactorsAtRest } from './restore-second-factors';

type WebhookSecrets = { secret: string; previousSecret: string | null; previousSecretExpiresAt: string | null };

const WEBHOOK_SECRETS = 'SELECT "id", "secret", "previousSecret", "previousSecretExpiresAt" FROM "WebhookEndpoint"';

type Account = { id: string; role: string; disabledAt: string | null; sessionVersion: number; passwordHash: string | null };

/** What limits access in the database a restore replaces, read before anything is changed. */
export type EndedAccess = {
  accounts: Map<string, Account>;
  /** Revoked tokens: id → when. */
  revokedTokens: Map<string, string>;
  /** Set-password links: id → when used (null: not yet). */
  passwordLinks: Map<string, string | null>;
  /** Endpoints: id → enabled. */
  webhooks: Map<string, boolean>;
  /** Endpoints' signing secrets, as stored (sealed): id → the current, the previous and until when it signs. */
  webhookSecrets: Map<string, WebhookSecrets>;
  /** Endpoints the audit trail records as deleted. */
  deletedWebhooks: Set<string>;
  /** Second factors and their recovery codes, as stored. */
  secondFactors: SecondFactorsAtRest;
};

const ADMIN = 'admin';

const ACCOUNTS = 'SELECT "id", "role", "disabledAt", "sessionVersion", "passwordHash" FROM "User"';

/** Reads what limits access in `replaced` (opened by the caller); throws when it cannot be read. */
export function readEndedAccess(replaced: Database.Database): EndedAccess {
  const pairs = <V>(sql: string) => (replaced.prepare(sql).raw().all() as [string, V][]).map(([id, value]) => [id, value] as const);
  return {
    accounts: new Map((replaced.prepare(ACCOUNTS).all() as Account[]).map((account) => [account.id, account])),
    revokedTokens: new Map(pairs<string>('SELECT "id", "revokedAt" FROM "ApiToken" WHERE "revokedAt" IS NOT NULL')),
    passwordLinks: new Map(pairs<string | null>('SELECT "id", "usedAt" FROM "PasswordLink"')),
    webhooks: new Map(pairs<number>('SELECT "id", "enabled" FROM "WebhookEndpoint"').map(([id, enabled]) => [id, enabled === 1])),
    webhookSecrets: new Map((replaced.prepare(WEBHOOK_SECRETS).all() as ({ id: string } & WebhookSecrets)[]).map(({ id, ...secrets }) => [id, secrets])),
    deletedWebhooks: new Set(
      (replaced.prepare(`SELECT DISTINCT "targetId" FROM "AuditEvent" WHERE "action" = 'webhook.deleted' AND "targetType" = 'webhook'`).pluck().all() as string[]),
    ),
    secondFactors: readSecondFactors(replaced),
  };
}

const isLater = (time: string, than: string) => fromSqliteTime(time).getTime() > fromSqliteTime(than).getTime();

/** Carries `ended` into `restored` (the copy, in the caller's transaction): what it changed, by kind. */
export function carryEndedAccess(restored: Database.Database, ended: EndedAccess): CarriedAccess {
  const carried: CarriedAccess = {
    tokensRevoked: [],
    accountsDisabled: [],
    sessionsEnded: [],
    rolesLowered: [],
    passwordsReplaced: [],
    passwordLinksEnded: [],
    webhooksDisabled: [],
    webhookSecretsReplaced: [],
    secondFactorsReplaced: [],
  };

  const revoke = restored.prepare('UPDATE "ApiToken" SET "revokedAt" = ? WHERE "id" = ?');
  for (const token of restored.prepare('SELECT "id", "revokedAt" FROM "ApiToken"').all() as { id: string; revokedAt: string | null }[]) {
    const revokedAt = ended.revokedTokens.get(token.id);
    if (revokedAt === undefined) continue;
    if (token.revokedAt === null) carried.tokensRevoked.push(token.id);
    if (token.revokedAt === null || isLater(revokedAt, token.revokedAt)) revoke.run(revokedAt, token.id);
  }

  const update = restored.prepare('UPDATE "User" SET "role" = ?, "disabledAt" = ?, "passwordHash" = ?, "sessionVersion" = ? WHERE "id" = ?');
  const endLinks = restored.prepare('DELETE FROM "PasswordLink" WHERE "userId" = ? RETURNING "id"').pluck();
  for (const account of restored.prepare(ACCOUNTS).all() as Account[]) {
    const replaced = ended.accounts.get(account.id);
    if (!replaced) continue;
    const next = { ...account };
    // Whether access was limited here: sessions end then, even where the versions say otherwise.
    let limited = false;
    if (replaced.disabledAt !== null && (account.disabledAt === null || isLater(replaced.disabledAt, account.disabledAt))) {
      if (account.disabledAt === null) {
        limited = true;
        carried.accountsDisabled.push(account.id);
        carried.passwordLinksEnded.push(...(endLinks.all(account.id) as string[]));
      }
      next.disabledAt = replaced.disabledAt;
    }
    if (account.role === ADMIN && replaced.role !== ADMIN) {
      limited = true;
      carried.rolesLowered.push(account.id);
      next.role = replaced.role;
    }
    if (replaced.passwordHash !== account.passwordHash) {
      limited = true;
      carried.passwordsReplaced.push(account.id);
      next.passwordHash = replaced.passwordHash;
    }
    next.sessionVersion = Math.max(replaced.sessionVersion, account.sessionVersion + (limited ? 1 : 0));
    if (next.sessionVersion > account.sessionVersion) carried.sessionsEnded.push(account.id);
    if (next.disabledAt !== account.disabledAt || next.sessionVersion !== account.sessionVersion) {
      update.run(next.role, next.disabledAt, next.passwordHash, next.sessionVersion, account.id);
    }
  }

  const useLink = restored.prepare('UPDATE "PasswordLink" SET "usedAt" = ? WHERE "id" = ?');
  const deleteLink = restored.prepare('DELETE FROM "PasswordLink" WHERE "id" = ?');
  for (const link of restored.prepare('SELECT "id", "usedAt" FROM "PasswordLink"').all() as { id: string; usedAt: string | null }[]) {
    if (link.usedAt !== null) continue;
    const usedAt = ended.passwordLinks.get(link.id);
    if (usedAt === null) continue;
    if (usedAt === undefined) deleteLink.run(link.id);
    else useLink.run(usedAt, link.id);
    carried.passwordLinksEnded.push(link.id);
  }

  const disable = restored.prepare('UPDATE "WebhookEndpoint" SET "enabled" = 0 WHERE "id" = ?');
  for (const id of restored.prepare('SELECT "id" FROM "WebhookEndpoint" WHERE "enabled" = 1').pluck().all() as string[]) {
    if (ended.webhooks.get(id) === false || ended.deletedWebhooks.has(id)) {
      disable.run(id);
      carried.webhooksDisabled.push(id);
    }
  }

  const replaceSecrets = restored.prepare('UPDATE "WebhookEndpoint" SET "secret" = ?, "previousSecret" = ?, "previousSecretExpiresAt" = ? WHERE "id" = ?');
  for (const { id, ...secrets } of restored.prepare(WEBHOOK_SECRETS).all() as ({ id: string } & WebhookSecrets)[]) {
    const replaced = ended.webhookSecrets.get(id);
    if (!replaced || (replaced.secret === secrets.secret && replaced.previousSecret === secrets.previousSecret)) continue;
    replaceSecrets.run(replaced.secret, replaced.previousSecret, replaced.previousSecretExpiresAt, id);
    carried.webhookSecretsReplaced.push(id);
  }

  const both = new Set((restored.prepare('SELECT "id" FROM "User"').pluck().all() as string[]).filter((id) => ended.accounts.has(id)));
  carried.secondFactorsReplaced.push(...carrySecondFactors(restored, ended.secondFactors, both));
  return carried;
}

/** Writes the restore's audit record into the restored copy. */
export function recordRestore(restored: Database.Database, row: AuditRow): void {
  restored.prepare(INSERT_AUDIT).run(...auditValues(row));
}
