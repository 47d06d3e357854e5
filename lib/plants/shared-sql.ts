// SQL that both engines run as it is written.
import 'server-only';

/**
 * A LIKE pattern for text anywhere in "nameFolded", with LIKE's wildcards and its escape character
 * escaped, to go with `ESCAPE '\'`. SQLite's LIKE ignores the case of ASCII letters, PostgreSQL's
 * does not; folded text has no uppercase letters, so both find the same plants.
 */
export function containsPattern(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The lowest id from 1 up that no plant has. Walks the ids in order to the first whose successor
 * is free; `next` - `id` cannot overflow, and `id` + 1 is only computed where a larger id, or
 * the top of int64 (excluded), bounds it.
 */
export const LOWEST_FREE_POSITIVE_ID = `SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM "Plant" WHERE "id" = 1) THEN 1 ELSE (
  SELECT "id" + 1 FROM (SELECT "id", lead("id") OVER (ORDER BY "id") AS "next" FROM "Plant" WHERE "id" >= 1) AS "walk"
  WHERE "next" - "id" > 1 OR ("next" IS NULL AND "id" < 9223372036854775807) ORDER BY "id" LIMIT 1) END AS "id"`;
