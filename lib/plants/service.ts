// The plant store's rules: create (idempotent by id), read, list newest first, delete.
import { ApiError } from '../http/errors';
import type { NewPlant, Plant } from '../schemas/plant';
import { decodeCursor, encodeCursor } from './cursor';
import { plantStore, type PlantRow } from './store';

export function toPlant(row: Pick<PlantRow, 'id' | 'name' | 'tag'>): Plant {
  return row.tag === null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, tag: row.tag };
}

const notFound = (id: bigint) => new ApiError('not_found', `No plant has id ${id}`);

/**
 * Stores a new plant. Creating the same plant again (same id, name and tag) answers with the
 * stored one, so a client can retry safely; the same id with other content is a conflict.
 * The unique index on id decides races: exactly one insert wins, every other request reads the winner.
 */
export async function createPlant(input: NewPlant): Promise<{ plant: Plant; created: boolean }> {
  const tag = input.tag ?? null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await plantStore().insert({ id: input.id, name: input.name, tag });
    if (inserted) return { plant: toPlant(inserted), created: true };
    const existing = await plantStore().findById(input.id);
    // Deleted between our insert and this read: the id is free again, so try once more.
    if (!existing) continue;
    if (existing.name === input.name && existing.tag === tag) return { plant: toPlant(existing), created: false };
    throw new ApiError(
      'conflict',
      `id: a plant with id ${input.id} already exists with a different name or tag; choose another id`,
    );
  }
  throw new Error(`createPlant: id ${input.id} kept changing between insert and read`);
}

export async function getPlant(id: bigint): Promise<Plant> {
  const row = await plantStore().findById(id);
  if (!row) throw notFound(id);
  return toPlant(row);
}

export async function deletePlant(id: bigint): Promise<void> {
  if (!(await plantStore().deleteById(id))) throw notFound(id);
}

export type PlantPage = { plants: Plant[]; nextCursor: string | null };

/** Plants newest first; `nextCursor` continues where the page ends (null on the last page). */
export async function listPlants(options: { limit: number; cursor?: string }): Promise<PlantPage> {
  const before = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  const rows = await plantStore().listNewestFirst({ beforeSeq: before, take: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  const nextCursor = rows.length > options.limit ? encodeCursor(page[page.length - 1].seq) : null;
  return { plants: page.map(toPlant), nextCursor };
}

/** The newest plants with the time each was added, for the staff page. */
export function recentPlants(limit: number): Promise<PlantRow[]> {
  return plantStore().listNewestFirst({ take: limit });
}
