#!/usr/bin/env node
// @ts-check
// SQLite's part of POST /plants in one process, without HTTP: group commits of creates as the server
// runs them (lib/db/sqlite/connection.ts: each create in a savepoint of the group's transaction; the
// plant's insert with its triggers, the endpoints' question, the audit record), in variants that
// leave one thing out or change one setting, measured in turns on copies of one migrated database.
// Prints each variant's CPU time a create (process.cpuUsage), whose median moves far less with a busy
// machine than req/s does.
//
//   npm run db:migrate   # with DATABASE_URL=file:/tmp/store.db, then:
//   node bench/group-commit.mjs --database /tmp/store.db [--rounds 7] [--groups 300] [--size 19]
//
// Plain JavaScript that node runs as it is, like the floor (bench/floor-server.mjs); tsc checks it.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';

const { values } = parseArgs({
  options: { database: { type: 'string' }, rounds: { type: 'string', default: '7' }, groups: { type: 'string', default: '300' }, size: { type: 'string', default: '19' } },
});
if (!values.database) throw new Error('--database FILE: a migrated store (npm run db:migrate)');
const ROUNDS = Number(values.rounds);
const GROUPS = Number(values.groups);
const SIZE = Number(values.size);

const INSERT = `INSERT INTO "Plant" ("id", "name", "tag", "nameFolded", "createdAt") VALUES (?, ?, ?, ?, ?) ON CONFLICT ("id") DO NOTHING RETURNING "seq", "id", "name", "tag", "createdAt"`;
const ASK = 'SELECT EXISTS (SELECT 1 FROM "WebhookEndpoint" WHERE "enabled") AS "yes"';
const AUDIT = `INSERT INTO "AuditEvent" ("at", "action", "actorType", "actorId", "actorName", "targetType", "targetId", "requestId", "clientAddress", "before", "after") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** @typedef {{ tempStoreMemory?: boolean, savepoints?: boolean, countsTrigger?: boolean, synchronous?: 'FULL' | 'NORMAL' }} Variant */
/** @type {Record<string, Variant>} */
const VARIANTS = {
  'as the server runs it': { tempStoreMemory: true },
  'temp_store default (a file past a small journal)': {},
  'no savepoints': { tempStoreMemory: true, savepoints: false },
  "no counts' insert trigger": { tempStoreMemory: true, countsTrigger: false },
  'synchronous = NORMAL': { tempStoreMemory: true, synchronous: 'NORMAL' },
};

const folder = mkdtempSync(path.join(os.tmpdir(), 'group-commit-'));
let nextId = 2n ** 53n;

/** A copy of the store with the variant's settings, and a function that runs GROUPS group commits. */
function prepare(/** @type {string} */ name, /** @type {Variant} */ variant) {
  const file = path.join(folder, `${Object.keys(VARIANTS).indexOf(name)}.db`);
  copyFileSync(values.database ?? '', file);
  const database = new Database(file);
  database.defaultSafeIntegers(true);
  database.pragma('journal_mode = WAL');
  database.pragma(`synchronous = ${variant.synchronous ?? 'FULL'}`);
  if (variant.tempStoreMemory) database.pragma('temp_store = MEMORY');
  if (variant.countsTrigger === false) database.exec('DROP TRIGGER "Plant_counts_insert"');
  const insert = database.prepare(INSERT);
  const ask = database.prepare(ASK);
  const audit = database.prepare(AUDIT);
  const savepoint = database.transaction((/** @type {() => unknown} */ work) => work());
  const group = database.transaction((/** @type {(() => unknown)[]} */ works) =>
    works.map((work) => {
      try {
        return variant.savepoints === false ? work() : savepoint(work);
      } catch (error) {
        return error;
      }
    }),
  );
  const create = () => {
    const now = new Date().toISOString().replace('Z', '+00:00');
    const row = /** @type {{ id: bigint }} */ (insert.get(++nextId, 'Bench fern', 'bench', 'bench fern', now));
    ask.get();
    const plant = JSON.stringify({ id: String(row.id), name: 'Bench fern', tag: 'bench' });
    audit.run(now, 'plant.created', 'api_token', 'tok_bench', 'bench', 'plant', String(row.id), 'request-id', '127.0.0.1', null, plant);
    return row;
  };
  return () => {
    for (let index = 0; index < GROUPS; index++) group.immediate(Array.from({ length: SIZE }, () => create));
  };
}

/** @type {{ name: string, run: () => void, micros: number[] }[]} */
const runs = Object.entries(VARIANTS).map(([name, variant]) => ({ name, run: prepare(name, variant), micros: [] }));
try {
  for (let round = 0; round < ROUNDS; round++) {
    // In turns, the order reversed every other round, so the machine's drift weighs on all alike.
    for (const entry of round % 2 ? [...runs].reverse() : runs) {
      const before = process.cpuUsage();
      entry.run();
      const used = process.cpuUsage(before);
      entry.micros.push((used.user + used.system) / (GROUPS * SIZE));
    }
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
for (const { name, micros } of runs) {
  const sorted = [...micros].sort((a, b) => a - b);
  console.log(`${name}: median ${sorted[sorted.length >> 1].toFixed(1)} µs of CPU a create (rounds: ${micros.map((micro) => micro.toFixed(1)).join(', ')})`);
}
