// Where plants are kept: the statements the plant rules (service.ts, batch.ts, export.ts) need,
// per engine. SQLite runs them as prepared statements on a direct connection, the hot path of
// `POST /plants`; PostgreSQL runs them as SQL through Prisma's client.
//
// Every change (a create, an update, a delete, each item of a batch) happens inside one
// transaction of the store, on either engine, and the store knows what it changed there
// (PlantChange). What must be recorded with the changes, their audit records and webhook events
// (RecordChanges), is written from that list inside the same transaction: see `changePlants` in
// each store.
import 'server-only';
import type { ChangeRecords } from '../change-records';
import { dbEngine } from '../db/client';
import { prismaPlantStore } from './prisma-store';
import { sqlitePlantStore } from './sqlite-store';

/** A stored plant; `seq` is the storage order that "newest first" and cursors use. */
export type PlantRow = { seq: number; id: bigint; name: string; tag: string | null; createdAt: Date };

/** What a plant is made of; the store folds the name for search itself (fold.ts). */
export type PlantValues = { id: bigint; name: string; tag: string | null };

/** A change the store made, as the transaction that made it knows it. */
export type PlantChange =
  | { kind: 'created'; plant: PlantRow }
  | { kind: 'updated'; plant: PlantRow; previous: PlantRow }
  | { kind: 'deleted'; previous: PlantRow };

/**
 * The audit records and webhook events of a transaction's changes, made inside that transaction.
 * `events: false` when the store knows no endpoint is enabled to hear of them (so none are made).
 */
export type RecordChanges = (changes: PlantChange[], options: { events: boolean }) => ChangeRecords;

/** The stored plant an insert found or made: made by this insert, or already there with that id. */
export type InsertOutcome = { inserted: boolean; row: PlantRow };

/**
 * Which plants a list walks: `folded` is a name search, already folded (fold.ts), and `tag` an
 * exact tag. Newest first walks down from `beforeSeq`; oldest first walks up from `afterSeq`.
 */
export type PlantQuery = {
  folded?: string;
  tag?: string;
  take: number;
} & ({ order: 'newest-first'; beforeSeq?: number } | { order: 'oldest-first'; afterSeq?: number });

export type PlantStore = {
  /**
   * Inserts the plants in order, in one transaction. An id already taken, by a stored plant or an
   * earlier item, inserts nothing and reports the plant that holds it.
   */
  insertMany(plants: PlantValues[], record: RecordChanges): Promise<InsertOutcome[]>;
  /**
   * In one transaction: reads the plant with `id`, asks `change` for its new name and tag (it
   * throws to refuse, and nothing changes), and stores them. Resolves to the plant as stored.
   */
  update(id: bigint, change: (current: PlantRow | null) => { name: string; tag: string | null }, record: RecordChanges): Promise<PlantRow>;
  /** In one transaction: reads the plant with `id`, lets `check` refuse by throwing, deletes it. */
  delete(id: bigint, check: (current: PlantRow | null) => void, record: RecordChanges): Promise<PlantRow>;
  findById(id: bigint): Promise<PlantRow | null>;
  list(query: PlantQuery): Promise<PlantRow[]>;
  /** The highest id in use, or null in an empty store. */
  maxId(): Promise<bigint | null>;
  /** The lowest id from 1 up that no plant has (the next free id once int64's top is taken). */
  lowestFreePositiveId(): Promise<bigint>;
};

export function plantStore(): PlantStore {
  return dbEngine() === 'sqlite' ? sqlitePlantStore : prismaPlantStore;
}
