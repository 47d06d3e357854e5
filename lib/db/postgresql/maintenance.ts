// Backups and restore on PostgreSQL (the MaintenanceStore of lib/db/stores.ts) are the server's own
// tools, pg_dump and pg_restore: they copy a live database consistently, and restore into a server
// the operator chooses. Nothing here copies data: the store says so, and what to run instead, so that
// npm run db refuses with the commands and the server starts no scheduled backups.
import 'server-only';
import type { MaintenanceStore } from '../stores';

const PG_DUMP_HINT =
  'On PostgreSQL, back up with pg_dump: pg_dump --format=custom --file=plants.dump "$DATABASE_URL" (see docs/operations.md, Backups). Nothing was written.';
const PG_RESTORE_HINT =
  'On PostgreSQL, restore with pg_restore: stop the servers, then pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" plants.dump, then npm run db:migrate (see docs/operations.md, Backups). Nothing was changed. ' +
  'pg_restore brings back the tokens, accounts, roles and sessions that were ended after the dump: end them again (see docs/operations.md, Backups on PostgreSQL).';

export const postgresqlMaintenance: MaintenanceStore = {
  // Several instances share one database; a restore is pg_restore's, which this does not guard.
  holdAsServer: () => {},
  // PostgreSQL checks its pages as it reads them (and with data checksums, if the cluster has them).
  integrity: async () => null,
  backups: { supported: false, tools: 'pg_dump and pg_restore', backupHint: PG_DUMP_HINT, restoreHint: PG_RESTORE_HINT },
};
