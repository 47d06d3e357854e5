// Plants stored before search existed have no `nameFolded` (see prisma/schema.prisma). A migration
// cannot fold them: the folding is JavaScript (lib/shared/fold.ts), the one function both engines'
// searches rely on. So every run of the migrations ends here, folding what is still unfolded, a
// thousand names per transaction; on a current database it costs one query that finds none.
import 'server-only';
import Database from 'better-sqlite3';
import pg from 'pg';
import { foldForSearch } from '../shared/fold';
import { databaseEngine, ensureSqliteFile } from './url';

const BATCH = 1000;

/** How the migration that adds `nameFolded` is named (after its timestamp). */
export const NAME_FOLDING_MIGRATION = '_catalogue_search';

type Unfolded = { seq: number; name: string };

function foldOnSqlite(databaseUrl: string): number {
  const connection = new Database(ensureSqliteFile(databaseUrl), { timeout: 5000 });
  try {
    const unfolded = connection.prepare<[number], Unfolded>(`SELECT "seq", "name" FROM "Plant" WHERE "nameFolded" IS NULL LIMIT ?`);
    const fold = connection.prepare<[string, number]>(`UPDATE "Plant" SET "nameFolded" = ? WHERE "seq" = ?`);
    const foldBatch = connection.transaction((rows: Unfolded[]) => rows.forEach((row) => fold.run(foldForSearch(row.name), row.seq)));
    let folded = 0;
    for (let rows = unfolded.all(BATCH); rows.length > 0; rows = unfolded.all(BATCH)) {
      foldBatch(rows);
      folded += rows.length;
    }
    return folded;
  } finally {
    connection.close();
  }
}

async function foldOnPostgresql(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let folded = 0;
    for (;;) {
      const { rows } = await client.query<Unfolded>(`SELECT "seq", "name" FROM "Plant" WHERE "nameFolded" IS NULL LIMIT $1`, [BATCH]);
      if (rows.length === 0) return folded;
      // A name changed meanwhile (by an instance of the version before) is folded again next round.
      await client.query(
        `UPDATE "Plant" p SET "nameFolded" = f."folded" FROM unnest($1::int[], $2::text[], $3::text[]) AS f("seq", "name", "folded")
         WHERE p."seq" = f."seq" AND p."name" = f."name" AND p."nameFolded" IS NULL`,
        [rows.map((row) => row.seq), rows.map((row) => row.name), rows.map((row) => foldForSearch(row.name))],
      );
      folded += rows.length;
    }
  } finally {
    await client.end();
  }
}

/** Folds the names that have no folded form yet; resolves to how many there were. */
export async function foldUnfoldedNames(databaseUrl: string): Promise<number> {
  return databaseEngine(databaseUrl) === 'sqlite' ? foldOnSqlite(databaseUrl) : foldOnPostgresql(databaseUrl);
}
