// The plant store's rules: create (idempotent by id), read, list and search, correct, delete.
// Every change writes its audit record and its webhook event in its own transaction (the plant
// store's changePlants, lib/db/plant-store.ts), and wakes the webhook dispatcher once it has committed.
import 'server-only';
import type { ChangeContext } from '../audit/context';
import { auditRow } from '../audit/records';
import { engine } from '../db/engine';
import { matchesStrongly, type EntityTagCondition } from '../shared/entity-tags';
import { ApiError } from '../errors';
import { INT64_MAX } from '../schemas/limits';
import type { NewPlant, Plant, PlantPatch } from '../schemas/plant';
import { decodeCursorPosition, encodeCursor, type PlantSort } from '../shared/cursor';
import { countMatching } from './counts';
import { plantEtag } from './etag';
import { foldForSearch } from '../shared/fold';
import { plantEvent } from '../webhooks/outbox';
import { deliverSoon } from '../webhooks/wake';
import { currentTraceparent } from '../tracing/spans';
import { NEWEST_FIRST, type ChangeRecords, type InsertOutcome, type PlantChange, type PlantOrder, type PlantPosition, type PlantQuery, type PlantRow, type RecordChanges } from '../db/stores';

export function toPlant(row: Pick<PlantRow, 'id' | 'name' | 'tag'>): Plant {
  return row.tag === null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, tag: row.tag };
}

const notFound = (id: bigint) => new ApiError('not_found', `No plant has id ${id}`);

/** A plant change's audit record and (when wanted) webhook event: the plant as it is now, and as it was. */
function recordsOfChange(change: PlantChange, context: ChangeContext, at: Date, events: boolean, traceparent: string | null): ChangeRecords {
  const action = `plant.${change.kind}` as const;
  const now = change.kind === 'deleted' ? undefined : toPlant(change.plant);
  const before = change.kind === 'created' ? undefined : toPlant(change.previous);
  const plant = (now ?? before)!;
  const audit = auditRow({ action, target: { type: 'plant', id: String(plant.id) }, before, after: now }, context, at);
  return { audit: [audit], events: events ? [plantEvent(action, plant, at, traceparent)] : [] };
}

/**
 * Runs a change through the store with what it must record, and once the store's transaction has
 * committed, lets the dispatcher know there are events to deliver.
 */
export async function recordedChange<T>(context: ChangeContext, change: (record: RecordChanges) => Promise<T>): Promise<T> {
  const written: ChangeRecords[] = [];
  // The request's trace context, taken here: the store may make the records in another request's
  // turn (SQLite's group commit), where the active span is not this request's.
  const traceparent = currentTraceparent();
  const result = await change((changes, options) => {
    const at = new Date();
    const records: ChangeRecords = { audit: [], events: [] };
    for (const one of changes) {
      const { audit, events } = recordsOfChange(one, context, at, options.events, traceparent);
      records.audit.push(...audit);
      records.events.push(...events);
    }
    written.push(records);
    return records;
  });
  // Committed: events, if it wrote any, go out now.
  if (written.some((records) => records.events.length > 0)) deliverSoon();
  return result;
}

export type CreateOutcome = { plant: Plant; created: boolean };

/**
 * What POST /plants answers for a NewPlant the store has inserted or found: the same plant again
 * (same id, name and tag) is a safe retry; the same id with other content is a conflict.
 */
export function settleCreate(input: NewPlant, outcome: InsertOutcome): CreateOutcome {
  const { row } = outcome;
  if (outcome.inserted || (row.name === input.name && row.tag === (input.tag ?? null))) {
    return { plant: toPlant(row), created: outcome.inserted };
  }
  throw new ApiError('conflict', `id: a plant with id ${input.id} already exists with a different name or tag; choose another id`);
}

/**
 * Stores a new plant. Creating the same plant again answers with the stored one, so a client can
 * retry safely. The unique index on id decides races: exactly one insert wins, every other
 * request finds the winner.
 */
export async function createPlant(input: NewPlant, context: ChangeContext): Promise<CreateOutcome> {
  const plant = { id: input.id, name: input.name, tag: input.tag ?? null };
  const [outcome] = await recordedChange(context, (record) => engine().plants.insertMany([plant], record));
  return settleCreate(input, outcome);
}

export async function getPlant(id: bigint): Promise<Plant> {
  const row = await engine().plants.findById(id);
  if (!row) throw notFound(id);
  return toPlant(row);
}

/** Refuses a change when the caller's If-Match names another version of the plant. */
function checkPrecondition(current: PlantRow, ifMatch: EntityTagCondition | null): void {
  if (!ifMatch || matchesStrongly(ifMatch, plantEtag(toPlant(current)))) return;
  throw new ApiError(
    'precondition_failed',
    `If-Match: plant ${current.id} has changed since that ETag was read; read it again (GET /plants/${current.id}) and retry`,
  );
}

/**
 * Applies a JSON Merge Patch: `name` and `tag` replace theirs, `tag: null` removes the tag, a
 * field left out stays. The patch has passed the schema, so the result holds to the rules of a
 * new plant. The check of If-Match and the write happen in one transaction.
 */
export async function patchPlant(id: bigint, patch: PlantPatch, ifMatch: EntityTagCondition | null, context: ChangeContext): Promise<Plant> {
  if (patch.id !== undefined && patch.id !== id) {
    throw new ApiError('validation_failed', `id: cannot change; this plant's id is ${id} (leave id out, or send ${id})`);
  }
  const row = await recordedChange(context, (record) =>
    engine().plants.update(
      id,
      (current) => {
        if (!current) throw notFound(id);
        checkPrecondition(current, ifMatch);
        return { name: patch.name ?? current.name, tag: patch.tag === undefined ? current.tag : patch.tag };
      },
      record,
    ),
  );
  return toPlant(row);
}

export async function deletePlant(id: bigint, ifMatch: EntityTagCondition | null, context: ChangeContext): Promise<void> {
  await recordedChange(context, (record) =>
    engine().plants.delete(
      id,
      (current) => {
        if (!current) throw notFound(id);
        checkPrecondition(current, ifMatch);
      },
      record,
    ),
  );
}

/** Search filters as the API takes them: `q` a piece of the name in any case, `tag` exact. */
export type PlantFilter = { q?: string; tag?: string };

export function storeFilter(filter: PlantFilter): Pick<PlantQuery, 'folded' | 'tag'> {
  const folded = filter.q === undefined ? '' : foldForSearch(filter.q);
  return { folded: folded || undefined, tag: filter.tag };
}

export type PlantPage = { plants: Plant[]; nextCursor: string | null };

/** A sort of the API (`-name`: by name, descending) as the store's order. */
export function plantOrder(sort: PlantSort): PlantOrder {
  return { key: sort.replace('-', '') as PlantOrder['key'], descending: sort.startsWith('-') };
}

const reversed = (order: PlantOrder): PlantOrder => ({ key: order.key, descending: !order.descending });

/** The cursor that continues a list in `sort` past `row`. */
function cursorAfter(row: PlantRow, sort: PlantSort): string {
  return encodeCursor(row.seq, sort, { id: row.id, folded: foldForSearch(row.name) });
}

const positionOf = (row: PlantRow) => ({ seq: row.seq, id: row.id, folded: foldForSearch(row.name) });

/** Plants in `sort` (newest first by default); `nextCursor` continues where the page ends (null on the last page). */
export async function listPlants(options: ListOptions): Promise<PlantPage> {
  const sort = options.sort ?? '-created';
  return pageOf(options, sort, positionOfCursor(options.cursor, sort));
}

type ListOptions = PlantFilter & { limit: number; cursor?: string; sort?: PlantSort };

const positionOfCursor = (cursor: string | undefined, sort: PlantSort) => (cursor === undefined ? undefined : decodeCursorPosition(cursor, sort));

async function pageOf(options: ListOptions, sort: PlantSort, after: PlantPosition | undefined): Promise<PlantPage> {
  const rows = await engine().plants.list({ ...storeFilter(options), order: plantOrder(sort), after, take: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  const nextCursor = rows.length > options.limit ? cursorAfter(page[page.length - 1], sort) : null;
  return { plants: page.map(toPlant), nextCursor };
}

/** As listPlants, with how many plants the filter matches on all pages (`X-Total-Count`). */
export async function listAndCountPlants(options: ListOptions): Promise<PlantPage & { total: number }> {
  const sort = options.sort ?? '-created';
  // A cursor that is not one is refused before anything is read, as listPlants does.
  const after = positionOfCursor(options.cursor, sort);
  const total = await countMatching(storeFilter(options));
  // Nothing matches (often a count kept from before): the page is empty, and is not read.
  if (total === 0) return { plants: [], nextCursor: null, total };
  return { ...(await pageOf(options, sort, after)), total };
}

export type BrowsePage = {
  rows: PlantRow[];
  olderCursor: string | null;
  newerCursor: string | null;
  /** How many plants the filter matches, and how many of them come before this page. */
  total: number;
  before: number;
};

/**
 * A page of the staff catalogue in `sort`: either on from `cursor` (as the API's cursor) or back
 * from `newer` (the page before, for a "Previous" link). When fewer than a page of plants come
 * before, that page is the first one, shown in full. With the count of what the filter matches,
 * and of the plants before the page, for "21–40 of 3,412".
 */
export async function browsePlants(options: PlantFilter & { limit: number; cursor?: string; newer?: string; sort?: PlantSort }): Promise<BrowsePage> {
  const sort = options.sort ?? '-created';
  const order = plantOrder(sort);
  const where = storeFilter(options);
  const counted = async (page: Omit<BrowsePage, 'total' | 'before'>): Promise<BrowsePage> => {
    const [total, before] = await Promise.all([
      countMatching(where),
      page.rows.length ? countMatching({ ...where, order: reversed(order), after: positionOf(page.rows[0]) }) : Promise.resolve(0),
    ]);
    return { ...page, total, before };
  };
  if (options.newer !== undefined) {
    const from = decodeCursorPosition(options.newer, sort);
    const up = await engine().plants.list({ ...where, order: reversed(order), after: from, take: options.limit + 1 });
    if (up.length > options.limit) {
      const rows = up.slice(0, options.limit).reverse();
      return counted({ rows, olderCursor: cursorAfter(rows[rows.length - 1], sort), newerCursor: cursorAfter(rows[0], sort) });
    }
  }
  const after = options.newer === undefined && options.cursor !== undefined ? decodeCursorPosition(options.cursor, sort) : undefined;
  const down = await engine().plants.list({ ...where, order, after, take: options.limit + 1 });
  const rows = down.slice(0, options.limit);
  return counted({
    rows,
    olderCursor: down.length > options.limit ? cursorAfter(rows[rows.length - 1], sort) : null,
    // Past the end (everything after the cursor removed meanwhile), the way back starts at the cursor itself.
    newerCursor: after === undefined ? null : rows.length ? cursorAfter(rows[0], sort) : options.cursor!,
  });
}

/** The newest plants with the time each was added, for the staff page. */
export function recentPlants(limit: number): Promise<PlantRow[]> {
  return engine().plants.list({ order: NEWEST_FIRST, take: limit });
}

/**
 * The id the add form offers: one more than the highest id in use, and at least 1. Once a plant
 * holds int64's top id, nothing is above it, so the lowest free id from 1 up is offered instead.
 */
export async function nextFreeId(): Promise<bigint> {
  const highest = await engine().plants.maxId();
  if (highest === null || highest < 1n) return 1n;
  if (highest < INT64_MAX) return highest + 1n;
  return engine().plants.lowestFreePositiveId();
}

