// Where plants are kept: the statements the plant rules (service.ts) need, per engine. SQLite
// runs them as prepared statements on a direct connection, the hot path of `POST /plants`;
// PostgreSQL runs them through Prisma.
import { dbEngine } from '../db/client';
import { prismaPlantStore } from './prisma-store';
import { sqlitePlantStore } from './sqlite-store';

/** A stored plant; `seq` is the storage order that "newest first" and cursors use. */
export type PlantRow = { seq: number; id: bigint; name: string; tag: string | null; createdAt: Date };

export type PlantStore = {
  /** Inserts the plant, or returns null without changing anything when its id is taken. */
  insert(plant: { id: bigint; name: string; tag: string | null }): Promise<PlantRow | null>;
  findById(id: bigint): Promise<PlantRow | null>;
  /** Whether a plant was deleted. */
  deleteById(id: bigint): Promise<boolean>;
  /** Newest first, only plants stored before `beforeSeq` when it is given. */
  listNewestFirst(options: { beforeSeq?: number; take: number }): Promise<PlantRow[]>;
};

export function plantStore(): PlantStore {
  return dbEngine() === 'sqlite' ? sqlitePlantStore : prismaPlantStore;
}
