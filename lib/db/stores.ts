// What each engine implements, one interface per concern, and the rows they read and write. The
// rules (lib/plants, lib/auth, lib/webhooks, lib/audit, lib/http's rate limit) reach an engine only
// through these, as `engine()` returns them (lib/db/engine.ts); each engine's code lives in its own
// folder, lib/db/sqlite and lib/db/postgresql. Work that is not on a measured hot path, and needs
// nothing Prisma's query API cannot say, uses Prisma's client (lib/db/client.ts) on both engines
// instead: see docs/architecture.md, One way to reach each engine.
//
// Every plant change (a create, an update, a delete, each chunk of a batch) happens inside one
// transaction of the plant store, on either engine, and the store knows what it changed there
// (PlantChange). What must be recorded with the changes, their audit records and webhook events
// (RecordChanges), is written from that list inside the same transaction (ChangeRecordStore): see
// lib/db/plant-store.ts.
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { Client, Transaction } from './prisma';

/** The engines: DATABASE_URL names one (lib/db/url.ts), and engine() answers with it (lib/db/engine.ts). */
export type DatabaseEngine = 'sqlite' | 'postgresql';

/** A value now (SQLite's statements, synchronous) or later (PostgreSQL's, over the network; a long SQLite transaction's, after a pause). */
export type MaybePromise<T> = T | Promise<T>;

// ----- Plants

/** A stored plant; `seq` is the storage order that "newest first" and cursors use. */
export type PlantRow = { seq: number; id: bigint; name: string; tag: string | null; createdAt: Date };

/** What a plant is made of; the store folds the name for search itself (lib/shared/fold.ts). */
export type PlantValues = { id: bigint; name: string; tag: string | null };

/** A change the store made, as the transaction that made it knows it. */
export type PlantChange =
  | { kind: 'created'; plant: PlantRow }
  | { kind: 'updated'; plant: PlantRow; previous: PlantRow }
  | { kind: 'deleted'; previous: PlantRow };

/** The stored plant an insert found or made: made by this insert, or already there with that id. */
export type InsertOutcome = { inserted: boolean; row: PlantRow };

/** What a list can be ordered by: when a plant was added (`seq`), its id, or its folded name. */
export type PlantSortKey = 'created' | 'id' | 'name';
export type PlantOrder = { key: PlantSortKey; descending: boolean };
/**
 * A plant's place in an order, where a page ends: `seq` breaks ties between equal folded names
 * (ids are unique, and so is `seq`).
 */
export type PlantPosition = { seq: number; id: bigint; folded: string };

/** Which plants a list or a count covers: a name search, already folded (lib/shared/fold.ts), and an exact tag. */
export type PlantFilterValues = { folded?: string; tag?: string };

/**
 * A list: the plants of the filter in `order`, starting past `after` (when given), at most `take`.
 * Only the fields of `after` that the order's key uses are read (`seq` alone for `created`).
 */
export type PlantQuery = PlantFilterValues & { order: PlantOrder; after?: PlantPosition; take: number };

/** The catalogue's figures as stored (lib/plants/stats.ts makes the API's answer of them). */
export type PlantStatsRows = {
  total: number;
  /** Plants with a tag. */
  tagged: number;
  /** The `topTags` largest tags, largest first, equal counts by tag. */
  tags: { tag: string; count: number }[];
  /** Plants added each day (UTC, `YYYY-MM-DD`) from `since` on; days without any are left out. */
  perDay: { day: string; count: number }[];
};

export const NEWEST_FIRST: PlantOrder = { key: 'created', descending: true };
export const OLDEST_FIRST: PlantOrder = { key: 'created', descending: false };

/**
 * Where one chunk of a batch stands among the chunks before it, so that the store may run it while
 * those are still at work and it is still as if they ran one after the other. The chunk takes its
 * plants' places in the storage order (`seq`) once `after` has resolved, and calls `placed`; then
 * inserts them, and calls `inserted`; and commits only after `earlierCommitted` has resolved. If
 * either rejects, its transaction is undone. Its caller makes `after` the earlier chunk's
 * `placed`, and also its `inserted` when the two chunks share an id, so that the first item
 * with an id still decides it.
 */
export type ChunkOrder = { after: Promise<unknown>; placed(): void; inserted(): void; earlierCommitted: Promise<unknown> };

export type PlantStore = {
  /**
   * How many chunks of a batch may be under way at once: 1 where a transaction runs on the event
   * loop (SQLite), more where a chunk's statements wait on the database and the next chunk's can
   * run meanwhile (PostgreSQL). insertMany takes a ChunkOrder only when this is more than 1.
   */
  readonly chunksAtOnce: number;
  /**
   * A batch's items per transaction (a chunk): each chunk costs one commit, and on SQLite holds the
   * file's write lock for its whole transaction (other requests run between slices of its work).
   */
  readonly chunkSize: number;
  /**
   * Inserts the plants in order, in one transaction. An id already taken, by a stored plant or an
   * earlier item, inserts nothing and reports the plant that holds it. With `order`, as a chunk
   * that follows another (see ChunkOrder).
   */
  insertMany(plants: PlantValues[], record: RecordChanges, order?: ChunkOrder): Promise<InsertOutcome[]>;
  /**
   * In one transaction: reads the plant with `id`, asks `change` for its new name and tag (it
   * throws to refuse, and nothing changes), and stores them. Resolves to the plant as stored.
   */
  update(id: bigint, change: (current: PlantRow | null) => { name: string; tag: string | null }, record: RecordChanges): Promise<PlantRow>;
  /** In one transaction: reads the plant with `id`, lets `check` refuse by throwing, deletes it. */
  delete(id: bigint, check: (current: PlantRow | null) => void, record: RecordChanges): Promise<PlantRow>;
  findById(id: bigint): Promise<PlantRow | null>;
  list(query: PlantQuery): Promise<PlantRow[]>;
  /** How many plants the filter matches; with `order` and `after`, only those past `after` in that order. */
  count(query: PlantFilterValues & { order?: PlantOrder; after?: PlantPosition }): Promise<number>;
  /**
   * A mark of the plants as they stand: it changes whenever a change to them becomes visible (made
   * by this process, another instance or the CLI), so a count read after the same mark is still
   * the count (lib/plants/counts.ts keeps counts by it). It may also change when nothing did.
   */
  countStamp(): Promise<string>;
  /** The figures of the dashboard and `GET /stats`: `since` is a day, `YYYY-MM-DD` (UTC). */
  stats(options: { since: string; topTags: number }): Promise<PlantStatsRows>;
  /** Changes to the plants that the counts behind stats() have not yet taken in (0 where the counts are kept in the statement). */
  unfoldedCountChanges(): Promise<number>;
  /** The highest id in use, or null in an empty store. */
  maxId(): Promise<bigint | null>;
  /** The lowest id from 1 up that no plant has (the next free id once int64's top is taken). */
  lowestFreePositiveId(): Promise<bigint>;
};

// ----- Change records: audit records and webhook events

/** An audit record as stored (lib/audit/records.ts makes them). */
export type AuditRow = {
  at: Date;
  action: string;
  actorType: string;
  actorId: string | null;
  actorName: string | null;
  targetType: string;
  targetId: string;
  requestId: string | null;
  clientAddress: string | null;
  before: string | null;
  after: string | null;
};

/** A webhook event in the outbox (lib/webhooks/outbox.ts makes them). */
export type OutboxRow = {
  /** The `webhook-id` every attempt carries: receivers use it to drop duplicates. */
  id: string;
  type: string;
  plantId: bigint | null;
  endpointId: string | null;
  /** The exact body every attempt sends (and signs). */
  payload: string;
  createdAt: Date;
  /** The W3C trace context of the change that made it (tracing on), which its attempts' spans join. */
  traceparent: string | null;
};

/** What a change leaves behind besides itself, written in its own transaction. */
export type ChangeRecords = { audit: AuditRow[]; events: OutboxRow[] };

/**
 * The audit records and webhook events of a transaction's changes, made inside that transaction.
 * `events: false` when the store knows no endpoint is enabled to hear of them (so none are made).
 */
export type RecordChanges = (changes: PlantChange[], options: { events: boolean }) => ChangeRecords;

/**
 * How an engine writes a plant change's records inside the change's own transaction, `Transaction`
 * being the engine's handle on it (SQLite's, the connection it runs on and its pauses;
 * PostgreSQL's, its pooled connection). The plant store calls it (lib/db/plant-store.ts).
 * Changes off the hot path write their records through Prisma in their own transactions
 * (insertAuditRows in lib/audit/records.ts, insertOutboxRows in lib/webhooks/outbox.ts).
 */
export type ChangeRecordStore<Transaction> = {
  /**
   * Whether to make webhook events for a change of `changes` plants at all: some endpoint is
   * enabled, as the transaction sees it. An engine whose statement that writes them checks too may
   * answer true without asking (where asking costs more than sending a few events for nothing).
   */
  eventsWanted(tx: Transaction, changes: number): MaybePromise<boolean>;
  /**
   * Writes the records; a plant's event only while some endpoint is enabled to hear of it. Answers
   * how many events it kept (all or none).
   */
  write(tx: Transaction, records: ChangeRecords): MaybePromise<number>;
};

// ----- Webhook deliveries

/** A delivery taken for one attempt, with what the attempt needs. `attempts` counts this one. */
export type ClaimedDelivery = {
  id: string;
  attempts: number;
  retries: number;
  endpointId: string;
  url: string;
  /** The endpoint's signing secret, as stored (sealed: lib/webhooks/secret-cipher.ts opens it). */
  secret: string;
  /** The secret before a rotation, as stored, while it still signs (at the claim's `now`); else null. */
  previousSecret: string | null;
  messageId: string;
  payload: string;
  /** The event's trace context (OutboxRow), or null. */
  traceparent: string | null;
};

/** What an attempt leaves: succeeded, failed for good, or pending a retry at `nextAttemptAt`. */
export type AttemptOutcome = {
  status: 'succeeded' | 'failed' | 'pending';
  retries: number;
  nextAttemptAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
};

export type EndpointChoice = { id: string; events: string; enabled: boolean; createdAt: Date };
export type EventToFanOut = { type: string; endpointId: string | null; createdAt: Date };
/** Which endpoints get an event (the rule: lib/webhooks/recipients.ts). */
export type Recipients = (event: EventToFanOut, endpoints: EndpointChoice[]) => string[];

/** The deliveries still to be made (pending, or being attempted) to enabled endpoints, and when the oldest was made. */
export type DeliveryBacklog = { pending: number; oldestCreatedAt: Date | null };

export type DeliveryStore = {
  /**
   * Turns up to `limit` events made no later than `madeBy`, oldest first, into one delivery per
   * endpoint `recipients` names; returns how many events it took. One fan-out at a time across
   * instances, so each plant's deliveries are made in the order of its events.
   */
  fanOut(options: { limit: number; madeBy: Date; now: Date; recipients: Recipients }): Promise<number>;
  /** Takes up to `limit` due deliveries until `leaseUntil`; none whose plant has an earlier delivery still open. */
  claim(options: { limit: number; now: Date; leaseUntil: Date }): Promise<ClaimedDelivery[]>;
  /** Records an attempt's outcome, unless the delivery was taken again meanwhile (its lease ran out). */
  complete(delivery: ClaimedDelivery, outcome: AttemptOutcome, now: Date): Promise<void>;
  /** Deliveries whose claimer's lease ran out (it died) become due again. */
  requeueExpired(now: Date): Promise<number>;
  /** When the soonest pending delivery is due; null when none is. */
  nextDueAt(): Promise<Date | null>;
  /** The backlog, for the metrics (the same for both engines: lib/db/delivery-backlog.ts). */
  backlog(): Promise<DeliveryBacklog>;
};

// ----- Sign-in attempts, request counts, token use

/** Sign-in attempts per key (an email), counted in the database so every instance sees the same count. */
export type LoginThrottleStore = {
  /**
   * Claims one attempt for `key` at `now` (ms), in one statement: counted, and true, when the key's
   * window has passed (it began at or before `windowFloor`) or the attempt comes late enough after
   * the last (`delaysMs[n]` after n attempts, the last entry for any more); else false, and nothing
   * changes. Parallel claims on one key are decided one after the other.
   */
  claim(key: string, now: number, windowFloor: number, delaysMs: readonly number[]): Promise<boolean>;
  /** The attempts counted for `key` and when the last was made (ms); null when there are none. */
  read(key: string): Promise<{ attempts: number; lastAttemptAt: number } | null>;
  /** Forgets `key`'s attempts. */
  clear(key: string): Promise<void>;
  /** Forgets every key whose window began at or before `windowFloor`. */
  purge(windowFloor: number): Promise<void>;
};

/** Requests per caller in fixed windows (lib/http/rate-limit.ts decides what is too many). */
export type RateCounter = {
  /**
   * Counts one request for `key` in the window that starts at `windowStart` (ms), and returns the
   * count so far in it; a newer window starts over at 1. A number at once when the count is kept in
   * this process (SQLite), a promise when it is in the database (PostgreSQL, where instances whose
   * clocks differ share it: there an older window never rolls a newer one back).
   */
  count(key: string, windowStart: number): MaybePromise<number>;
};

/** When each API token was last used. */
export type TokenUseStore = {
  /**
   * Notes that token `id` was used at `at`; a token deleted meanwhile is no fault. Resolves when the
   * request may go on (on SQLite at once: the note is written in the background, see there).
   */
  recordUse(id: string, at: Date): Promise<void>;
};

// ----- The engine's executor: how it runs a statement written once for both

/** A statement's parameters, by name: `@name` in its text. */
export type SqlParameters = Record<string, string | number | bigint | Date | null>;

/** Runs statements: the rows a statement answers, or how many rows it changed. */
export type SqlRunner = {
  query<Row>(sql: string, parameters?: SqlParameters): Promise<Row[]>;
  run(sql: string, parameters?: SqlParameters): Promise<number>;
};

/**
 * How an engine runs a statement written once for both (lib/db/shared-sql.ts), with named
 * parameters: the stores whose two versions would differ only in that are written once on it
 * (lib/db/account-store.ts, lib/db/login-throttle-store.ts), as each engine's own statements run
 * (lib/db/sqlite/executor.ts, lib/db/postgresql/executor.ts). A Date is passed as the engine's
 * columns hold time.
 */
export type Executor = SqlRunner & {
  /**
   * One transaction of Prisma's client, in which `work` runs statements (`tx`) and Prisma's own
   * writes (`prisma`), committed together. With `oneAtATime`, such transactions with the same key
   * run one after the other, across instances (where the engine runs writers side by side; SQLite
   * runs one writer at a time anyway).
   */
  transaction<T>(work: (tx: SqlRunner, prisma: Transaction) => Promise<T>, options?: { oneAtATime?: number }): Promise<T>;
};

// ----- Staff accounts

/**
 * The two account changes that could leave no active admin, each one guarded statement that two
 * admins racing cannot both pass. `recorded` (the change's audit record, through Prisma) runs in the
 * same transaction when the account changed;
 * each resolves to the number of accounts changed (0 or 1).
 */
export type AccountStore = {
  /** Disables the account at `at` (its session version moves on) unless it is already disabled or the last active admin. */
  disableUnlessLastAdmin(id: string, at: Date, recorded: (tx: Transaction) => Promise<void>): Promise<number>;
  /** Gives the account `role` (its session version moves on) unless it has it, or is the last active admin losing it. */
  setRoleUnlessLastAdmin(id: string, role: string, recorded: (tx: Transaction) => Promise<void>): Promise<number>;
};

// ----- Backups, restore and checks of the database itself

/**
 * What a restore carried over from the database it replaced into the backup, so that access ended
 * after the backup stays ended: the ids of each kind of row it changed.
 */
export type CarriedAccess = {
  /** API tokens revoked in the replaced database, not in the backup. */
  tokensRevoked: string[];
  /** Accounts disabled in the replaced database, not in the backup. */
  accountsDisabled: string[];
  /** Accounts whose session version the restore raised (their sessions and page tokens end). */
  sessionsEnded: string[];
  /** Admins in the backup who are staff in the replaced database. */
  rolesLowered: string[];
  /** Accounts whose password (or lack of one) differs: the replaced database's is kept. */
  passwordsReplaced: string[];
  /** Set-password links used in the replaced database, or gone from it (replaced, or ended by a disable). */
  passwordLinksEnded: string[];
  /** Webhook endpoints disabled, or deleted, in the replaced database. */
  webhooksDisabled: string[];
  /** Webhook endpoints whose signing secrets differ (rotated): the replaced database's are kept. */
  webhookSecretsReplaced: string[];
  /** Accounts whose second factor differs (removed, reset, set up again), or whose codes were used: the replaced database's is kept. */
  secondFactorsReplaced: string[];
};

/** Backups and restores taken by this app (npm run db, and the server's scheduled backups). */
export type BackupStore = {
  readonly supported: true;
  /** A consistent copy of the database, written to `file` while the server serves, and checked. */
  backup(file: string): Promise<{ bytes: number }>;
  /**
   * Replaces the database with the copy at `file`, refusing while a server uses it, a copy that fails
   * its integrity check, one with migrations that `knownMigrations` (the code's) does not have, and
   * one whose schema is not what its migrations make. Pending migrations are applied to the copy,
   * access ended in the database it replaces is carried over into it (`carried`, null when there was
   * none to replace), and `record` (given what was carried) is written into it as the restore's
   * audit record; the file it replaces is kept beside it (`replaced`).
   */
  restore(
    file: string,
    knownMigrations: readonly string[],
    record: (carried: CarriedAccess | null) => AuditRow,
  ): Promise<{ restoredInto: string; replaced: string | null; applied: string[]; carried: CarriedAccess | null }>;
  /** Where backups go when neither BACKUP_DIR nor --out says: a folder beside the database. */
  defaultBackupDir(): string;
};

/** Where the database's own tools take its backups and restores, not this app: what to use, told to the operator. */
export type BackupsElsewhere = {
  readonly supported: false;
  /** The tools, named for a page (`pg_dump and pg_restore`). */
  readonly tools: string;
  /** What `npm run db -- backup` says instead of taking one. */
  readonly backupHint: string;
  /** What `npm run db -- restore` says instead of restoring. */
  readonly restoreHint: string;
};

/** What an operator does to the whole database (npm run db, the server's scheduled backups, the /backups page). */
export type MaintenanceStore = {
  /**
   * Marks this process as a server using the database, for as long as it lives, so that a restore
   * refuses to replace the database under it (on SQLite, a shared lock on a file beside it).
   */
  holdAsServer(): void;
  /** The engine's own check of its pages: ['ok'], or what it found wrong; null when the engine has none to run. */
  integrity(): Promise<string[] | null>;
  /** Whether this app backs the database up and restores it (and how), or the database's own tools do. */
  readonly backups: BackupStore | BackupsElsewhere;
};

// ----- What an engine does to a database named by its URL, besides serving it

/** An endpoint's stored signing secrets, as the start's pass reads them (lib/webhooks/secrets-at-rest.ts). */
export type StoredSecrets = { id: string; secret: string; previousSecret: string | null };
/** What to store instead, or null to leave the row as it is. */
export type SecretRewrite = (row: StoredSecrets) => { secret: string; previousSecret: string | null } | null;

/** A throwaway database (tests, and computing migrations), and how to drop it. */
export type TemporaryDatabase = { engine: DatabaseEngine; url: string; drop(): Promise<void> };

/**
 * What an engine does to the database a URL names, before or without serving it: npm start's and
 * npm run db:migrate's steps, the migrations (lib/db/migrate.ts, lib/db/schema-engine.ts), throwaway databases. Each opens
 * and closes its own connection: the start loads no Prisma client ahead of the server's own.
 * `engineTools(url)` (lib/db/engine.ts) answers with the URL's engine's.
 */
export type EngineTools = {
  readonly name: DatabaseEngine;
  /** Its schema and its migrations folder, in Prisma's layout. */
  readonly prismaFiles: { schema: string; migrations: string };
  /**
   * Tables its migrations make by hand, because Prisma's schema language cannot say them or only
   * this engine has them: comparing the schema with the migrations leaves them alone.
   */
  readonly handWrittenTables: readonly string[];
  /** The URL as a server running in another folder reads it the same (an SQLite file's path made absolute). */
  absoluteUrl(url: string): string;
  /**
   * Where an AUTH_SECRET generated on first run is kept, beside the database; null where instances
   * share the database, and so must share the secret: AUTH_SECRET must then be set.
   */
  authSecretFile(url: string): string | null;
  /** The schema engine's driver adapter to the database. */
  migrationAdapter(url: string): SqlMigrationAwareDriverAdapterFactory;
  /** What the database needs before its migrations run (SQLite's write-ahead log, a property of the file). */
  beforeMigrations(url: string): void;
  /** A migration's failure, told in words the operator can act on where the engine's own say nothing. */
  explainMigrationFailure(error: unknown): unknown;
  /** Folds for search the plant names that have no folded form yet (lib/shared/fold.ts); resolves to how many. */
  foldUnfoldedNames(url: string): Promise<number>;
  /** Rewrites each endpoint's stored secrets as `rewrite` says, each row only if unchanged since read; resolves to how many. */
  rewriteWebhookSecrets(url: string, rewrite: SecretRewrite): Promise<number>;
  createTemporaryDatabase(purpose: string): Promise<TemporaryDatabase>;
};

// ----- The engine

/** Everything one engine implements; `engine()` (lib/db/engine.ts) returns the process's. */
export type Engine = {
  readonly name: DatabaseEngine;
  readonly plants: PlantStore;
  readonly deliveries: DeliveryStore;
  readonly loginThrottle: LoginThrottleStore;
  readonly rateCounter: RateCounter;
  readonly tokenUse: TokenUseStore;
  readonly accounts: AccountStore;
  readonly maintenance: MaintenanceStore;
  /** The engine's Prisma client, opened on first use: db() in lib/db/client.ts. */
  prisma(): Client;
  /** Closes what the engine holds open, its Prisma client included (closeDb in lib/db/engine.ts); the next use opens it again. */
  close(): Promise<void>;
};
