// A catalogue row: what it holds, how it is made from an API answer, and how it reads in a sentence.
import type { VersionedPlant } from '@/lib/api-client/plants';

export type CatalogueRow = { id: string; name: string; tag?: string; addedAt: string; etag: string };

/** The row for a plant the API answered with, keeping when it was added (the API does not say). */
export function rowOf({ plant, etag }: VersionedPlant, addedAt: string): CatalogueRow {
  return { id: plant.id.toString(), name: plant.name, tag: plant.tag, addedAt, etag };
}

/** “Monstera”, tag “aroid” (or: no tag). */
export function describeRow(row: Pick<CatalogueRow, 'name' | 'tag'>): string {
  return `“${row.name}”, ${row.tag ? `tag “${row.tag}”` : 'no tag'}`;
}
