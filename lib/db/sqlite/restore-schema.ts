// The schema a backup must have to be restored: exactly the one its migrations make, object for
// object. A schema is code the server runs: a trigger planted in a file (AFTER INSERT ON "Plant" ...
// UPDATE "User" SET "role" = 'admin') would run inside the server with every plant created, and a
// view or an index can call functions too. So every table, index, view and trigger in the file's
// `sqlite_master` (with the tables SQLite and FTS5 make for them, and the hand-written ones the
// migrations add: the search table, the counts and their triggers) must be one of the migrations',
// with the same SQL, and each of theirs must be there. The expected schema is built the one way the
// store's schema is ever built: by applying the migrations the file records to a fresh temporary
// database.
import 'server-only';
import Database from 'better-sqlite3';
import { applyMigrationsWith } from '../schema-engine';
import { sqliteFilePath } from '../url';
import { sqliteTools } from './tools';

type SchemaObject = { type: string; name: string; tableName: string; sql: string | null };

// Differences named in a refusal; a file with more is refused all the same.
const NAMED_AT_MOST = 10;

function schemaObjects(database: Database.Database): Map<string, SchemaObject> {
  const rows = database.prepare('SELECT "type", "name", "tbl_name" AS "tableName", "sql" FROM sqlite_master').all() as SchemaObject[];
  // Triggers have a namespace of their own; tables, indexes and views share one.
  return new Map(rows.map((row) => [`${row.type} ${row.name}`, { ...row, sql: row.sql && row.sql.replace(/\s+/g, ' ').trim() }]));
}

/** The schema `migrations` make on an empty database. */
async function schemaOfMigrations(migrations: readonly string[]): Promise<Map<string, SchemaObject>> {
  const scratch = await sqliteTools.createTemporaryDatabase('restore-schema');
  try {
    await applyMigrationsWith(sqliteTools, { databaseUrl: scratch.url, only: migrations });
    const database = new Database(sqliteFilePath(scratch.url), { fileMustExist: true });
    try {
      return schemaObjects(database);
    } finally {
      database.close();
    }
  } finally {
    await scratch.drop();
  }
}

function described(object: SchemaObject): string {
  const on = object.tableName !== object.name ? ` on "${object.tableName}"` : '';
  return `${object.type} "${object.name}"${on}`;
}

/** What differs between the two schemas, in words: "an extra trigger "x" on "Plant"", "no index "y"", "a different table "User"". */
function differences(found: Map<string, SchemaObject>, expected: Map<string, SchemaObject>): string[] {
  const named: string[] = [];
  for (const [key, object] of found) {
    const wanted = expected.get(key);
    if (!wanted) named.push(`an extra ${described(object)}`);
    else if (wanted.sql !== object.sql || wanted.tableName !== object.tableName) named.push(`a different ${described(object)}`);
  }
  for (const [key, object] of expected) if (!found.has(key)) named.push(`no ${described(object)}`);
  return named;
}

/**
 * Refuses the database `file` is open as unless its schema is the one its `migrations` make, naming
 * each difference.
 */
export async function assertSchemaOfMigrations(database: Database.Database, migrations: readonly string[], file: string): Promise<void> {
  const found = schemaObjects(database);
  const named = differences(found, await schemaOfMigrations(migrations));
  if (named.length === 0) return;
  const more = named.length > NAMED_AT_MOST ? `; and ${named.length - NAMED_AT_MOST} more` : '';
  throw new Error(`${file} has a schema the migrations do not make: ${named.slice(0, NAMED_AT_MOST).join('; ')}${more}. Nothing was changed.`);
}
