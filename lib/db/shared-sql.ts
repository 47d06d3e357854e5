// SQL that both engines run as it is written, or build from the same pieces: written once here, and
// used only by the engines' folders (lib/db/sqlite, lib/db/postgresql). Each engine's own statements
// are in its folder.
import 'server-only';
import type { PlantOrder, PlantPosition, SqlParameters } from './stores';

// ----- Named parameters

/**
 * A statement with named parameters (`@name`) as a driver takes it, with its values in order:
 * `numbered`, each name becomes `$1`, `$2`, ... in order of first use (PostgreSQL); `each`, every
 * use becomes `?` with a value of its own (SQLite through Prisma).
 */
export function positional(sql: string, parameters: SqlParameters = {}, style: 'numbered' | 'each'): { text: string; values: SqlParameters[string][] } {
  const names: string[] = [];
  const text = sql.replace(/@(\w+)/g, (_match, name: string) => {
    if (!Object.hasOwn(parameters, name)) throw new Error(`no value for @${name}`);
    if (style === 'each') return names.push(name), '?';
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return { text, values: names.map((name) => parameters[name]) };
}

// ----- Plants

/** A plant row's columns, as every plant statement returns them (PlantRow, with the engine's types). */
export const PLANT_COLUMNS = '"seq", "id", "name", "tag", "createdAt"';
/** The same, of the plant aliased `p`. */
export const PLANT_COLUMNS_OF_P = 'p."seq", p."id", p."name", p."tag", p."createdAt"';

export const MAX_PLANT_ID = 'SELECT max("id") AS "id" FROM "Plant"';

/**
 * A LIKE pattern for text anywhere in "nameFolded", with LIKE's wildcards and its escape character
 * escaped, to go with `ESCAPE '\'`. SQLite's LIKE ignores the case of ASCII letters, PostgreSQL's
 * does not; folded text has no uppercase letters, so both find the same plants.
 */
export function containsPattern(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A statement's parameter: the engine adds `value` to its list and answers its placeholder. */
export type Parameter = (value: string | number | bigint) => string;

/** The columns an order reads: `seq` may be another name for it (SQLite's search table's rowid). */
type OrderColumns = { seq: string };

function sortColumns(order: PlantOrder, columns: OrderColumns): string[] {
  if (order.key === 'id') return ['p."id"'];
  if (order.key === 'name') return ['p."nameFolded"', columns.seq];
  return [columns.seq];
}

/**
 * ORDER BY of a list in `order`. Names sort by their folded form (case-insensitive), in the
 * database's order of text: code points on SQLite, the database's collation on PostgreSQL (code
 * points under C.UTF-8; docs/decisions.md says why). Equal names keep the order they were added in.
 */
export function orderBy(order: PlantOrder, columns: OrderColumns): string {
  const direction = order.descending ? 'DESC' : 'ASC';
  return sortColumns(order, columns)
    .map((column) => `${column} ${direction}`)
    .join(', ');
}

/**
 * The condition "past `after` in `order`": a row comparison on the order's columns, which both
 * engines answer from the index of those columns. Keys are unique (`seq` breaks ties), so a page
 * never repeats or skips a plant, whatever was added or removed meanwhile.
 */
export function pastPosition(order: PlantOrder, after: PlantPosition, columns: OrderColumns, parameter: Parameter): string {
  const comparison = order.descending ? '<' : '>';
  if (order.key === 'id') return `p."id" ${comparison} ${parameter(after.id)}`;
  if (order.key === 'name') return `(p."nameFolded", ${columns.seq}) ${comparison} (${parameter(after.folded)}, ${parameter(after.seq)})`;
  return `${columns.seq} ${comparison} ${parameter(after.seq)}`;
}

/**
 * The lowest id from 1 up that no plant has. Walks the ids in order to the first whose successor
 * is free; `next` - `id` cannot overflow, and `id` + 1 is only computed where a larger id, or
 * the top of int64 (excluded), bounds it.
 */
export const LOWEST_FREE_POSITIVE_ID = `SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM "Plant" WHERE "id" = 1) THEN 1 ELSE (
  SELECT "id" + 1 FROM (SELECT "id", lead("id") OVER (ORDER BY "id") AS "next" FROM "Plant" WHERE "id" >= 1) AS "walk"
  WHERE "next" - "id" > 1 OR ("next" IS NULL AND "id" < 9223372036854775807) ORDER BY "id" LIMIT 1) END AS "id"`;

// ----- Change records

/** An audit record's columns, in the order the engines' inserts list them. */
export const AUDIT_COLUMNS = '"at", "action", "actorType", "actorId", "actorName", "targetType", "targetId", "requestId", "clientAddress", "before", "after"';
/** An outbox event's columns, in the order the engines' inserts list them (then "fannedOut"). */
export const OUTBOX_COLUMNS = '"id", "type", "plantId", "endpointId", "payload", "createdAt", "traceparent"';

/**
 * A plant's event is kept only while some endpoint is enabled to hear of it: with none, a store
 * writes no outbox at all. Checked inside the change's transaction, so it is what the database
 * holds at that moment, not a cached list; an endpoint saved later hears of later changes only,
 * which is the rule anyway (lib/webhooks/recipients.ts).
 */
export const ANY_ENABLED_ENDPOINT = 'EXISTS (SELECT 1 FROM "WebhookEndpoint" WHERE "enabled")';
/** Asks ANY_ENABLED_ENDPOINT alone: one row, `yes`. */
export const ASK_ANY_ENABLED_ENDPOINT = `SELECT ${ANY_ENABLED_ENDPOINT} AS "yes"`;

// ----- The sign-in throttle (lib/auth/passwords/login-throttle.ts decides the schedule)

/**
 * The wait after "LoginThrottle"."attempts" attempts, in SQL, from `delaysMs` (the wait after n
 * attempts; the last entry for any more), so the database decides with the row as it holds it.
 */
function delaySql(delaysMs: readonly number[]): string {
  const free = delaysMs.findIndex((delay) => delay > 0);
  const steps = free > 0 ? [`WHEN "LoginThrottle"."attempts" < ${free} THEN 0`] : [];
  for (let attempts = Math.max(free, 0); attempts < delaysMs.length - 1; attempts++) {
    steps.push(`WHEN "LoginThrottle"."attempts" = ${attempts} THEN ${delaysMs[attempts]}`);
  }
  const last = delaysMs[delaysMs.length - 1];
  return steps.length === 0 ? String(last) : `CASE ${steps.join(' ')} ELSE ${last} END`;
}

const claimStatements = new Map<string, string>();

/**
 * The claim, with named parameters @key, @now and @windowFloor. A row whose window has passed starts
 * over; otherwise a free attempt always counts, and a later one only if it comes late enough after
 * the last. One that does not changes nothing and returns no row. On PostgreSQL concurrent claims
 * on one key queue on its row lock; SQLite runs one writer at a time. Either way a claim may reach
 * the row after one whose @now is later (each reads the clock before it waits): a free attempt
 * still counts then, and the last attempt's time never goes back.
 */
export function loginClaimSql(delaysMs: readonly number[]): string {
  const key = delaysMs.join(',');
  let sql = claimStatements.get(key);
  if (!sql) {
    const free = delaysMs.findIndex((delay) => delay > 0);
    const freeAttempt = free > 0 ? ` OR "LoginThrottle"."attempts" < ${free}` : '';
    sql = `
  INSERT INTO "LoginThrottle" ("key", "attempts", "windowStart", "lastAttemptAt") VALUES (@key, 1, @now, @now)
  ON CONFLICT ("key") DO UPDATE SET
    "attempts" = CASE WHEN "LoginThrottle"."windowStart" <= @windowFloor THEN 1 ELSE "LoginThrottle"."attempts" + 1 END,
    "windowStart" = CASE WHEN "LoginThrottle"."windowStart" <= @windowFloor THEN @now ELSE "LoginThrottle"."windowStart" END,
    "lastAttemptAt" = CASE WHEN "LoginThrottle"."lastAttemptAt" > @now THEN "LoginThrottle"."lastAttemptAt" ELSE @now END
  WHERE "LoginThrottle"."windowStart" <= @windowFloor${freeAttempt} OR "LoginThrottle"."lastAttemptAt" + ${delaySql(delaysMs)} <= @now
  RETURNING "attempts"`;
    claimStatements.set(key, sql);
  }
  return sql;
}
export const LOGIN_THROTTLE_READ = 'SELECT "attempts", "lastAttemptAt" FROM "LoginThrottle" WHERE "key" = @key';
export const LOGIN_THROTTLE_CLEAR = 'DELETE FROM "LoginThrottle" WHERE "key" = @key';
export const LOGIN_THROTTLE_PURGE = 'DELETE FROM "LoginThrottle" WHERE "windowStart" <= @windowFloor';

// ----- Passes over the whole store, run by the migrations and the start (engineTools(), lib/db/engine.ts)

/** Plant names stored before search existed, with no folded form (prisma/schema.prisma): at most @limit of them. */
export const UNFOLDED_NAMES = 'SELECT "seq", "name" FROM "Plant" WHERE "nameFolded" IS NULL LIMIT @limit';
/** How many names one transaction folds. */
export const FOLD_BATCH = 1000;

/** Every webhook endpoint's stored signing secrets (StoredSecrets). */
export const STORED_SECRETS = 'SELECT "id", "secret", "previousSecret" FROM "WebhookEndpoint" ORDER BY "id"';

// ----- Staff accounts: the last active admin

// "Someone else is still an active admin", for the two changes that can remove the last one.
const ANOTHER_ACTIVE_ADMIN = `EXISTS (SELECT 1 FROM "User" AS "other" WHERE "other"."role" = 'admin' AND "other"."disabledAt" IS NULL AND "other"."id" <> @id)`;

/** Disables account @id at @at unless it is disabled already or the last active admin. */
export const DISABLE_UNLESS_LAST_ADMIN = `
  UPDATE "User" SET "disabledAt" = @at, "sessionVersion" = "sessionVersion" + 1
  WHERE "id" = @id AND "disabledAt" IS NULL AND ("role" <> 'admin' OR ${ANOTHER_ACTIVE_ADMIN})`;

/** Gives account @id the role @role unless it has it, or is the last active admin losing it. */
export const SET_ROLE_UNLESS_LAST_ADMIN = `
  UPDATE "User" SET "role" = @role, "sessionVersion" = "sessionVersion" + 1
  WHERE "id" = @id AND "role" <> @role AND ("role" <> 'admin' OR "disabledAt" IS NOT NULL OR ${ANOTHER_ACTIVE_ADMIN})`;
