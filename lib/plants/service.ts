// The plant store's rules: create (idempotent by id), read, list newest first, delete.
import { db } from '../db/client';
import { ApiError } from '../http/errors';
import type { NewPlant, Plant } from '../schemas/plant';
import { decodeCursor, encodeCursor } from './cursor';

type PlantRow = { seq: number; id: bigint; name: string; tag: string | null; createdAt: Date };

const plantFields = { seq: true, id: true, name: true, tag: true, createdAt: true } as const;

export function toPlant(row: Pick<PlantRow, 'id' | 'name' | 'tag'>): Plant {
  return row.tag === null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, tag: row.tag };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}

const notFound = (id: bigint) => new ApiError('not_found', `No plant has id ${id}`);

/**
 * Stores a new plant. Creating the same plant again (same id, name and tag) answers with the
 * stored one, so a client can retry safely; the same id with other content is a conflict.
 * The primary key decides races: exactly one insert wins, every other request reads the winner.
 */
export async function createPlant(input: NewPlant): Promise<{ plant: Plant; created: boolean }> {
  const tag = input.tag ?? null;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const row = await db().plant.create({ data: { id: input.id, name: input.name, tag }, select: plantFields });
      return { plant: toPlant(row), created: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await db().plant.findUnique({ where: { id: input.id }, select: plantFields });
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
  const row = await db().plant.findUnique({ where: { id }, select: plantFields });
  if (!row) throw notFound(id);
  return toPlant(row);
}

export async function deletePlant(id: bigint): Promise<void> {
  const { count } = await db().plant.deleteMany({ where: { id } });
  if (count === 0) throw notFound(id);
}

export type PlantPage = { plants: Plant[]; nextCursor: string | null };

/** Plants newest first; `nextCursor` continues where the page ends (null on the last page). */
export async function listPlants(options: { limit: number; cursor?: string }): Promise<PlantPage> {
  const before = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  const rows = await db().plant.findMany({
    where: before === undefined ? {} : { seq: { lt: before } },
    orderBy: { seq: 'desc' },
    take: options.limit + 1,
    select: plantFields,
  });
  const page = rows.slice(0, options.limit);
  const nextCursor = rows.length > options.limit ? encodeCursor(page[page.length - 1].seq) : null;
  return { plants: page.map(toPlant), nextCursor };
}

/** The newest plants with the time each was added, for the staff page. */
export function recentPlants(limit: number): Promise<PlantRow[]> {
  return db().plant.findMany({ orderBy: { seq: 'desc' }, take: limit, select: plantFields });
}
