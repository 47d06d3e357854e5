// The plant statements through Prisma (used on PostgreSQL).
import { db } from '../db/client';
import type { PlantRow, PlantStore } from './store';

const plantFields = { seq: true, id: true, name: true, tag: true, createdAt: true } as const;

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}

export const prismaPlantStore: PlantStore = {
  async insert(plant) {
    try {
      return await db().plant.create({ data: plant, select: plantFields });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  },
  findById(id) {
    return db().plant.findUnique({ where: { id }, select: plantFields });
  },
  async deleteById(id) {
    const { count } = await db().plant.deleteMany({ where: { id } });
    return count > 0;
  },
  listNewestFirst({ beforeSeq, take }): Promise<PlantRow[]> {
    return db().plant.findMany({
      where: beforeSeq === undefined ? {} : { seq: { lt: beforeSeq } },
      orderBy: { seq: 'desc' },
      take,
      select: plantFields,
    });
  },
};
