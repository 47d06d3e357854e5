// npm run db -- backup [--out FILE] | restore FILE | check: the database as a whole.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OPERATOR_COMMAND } from '../lib/audit/context';
import { auditRow } from '../lib/audit/records';
import { backupDir } from '../lib/backups/config';
import { newBackupPath } from '../lib/backups/files';
import { db } from '../lib/db/client';
import { closeDb, engine } from '../lib/db/engine';
import { knownMigrations, migrationStatus, rowCounts } from '../lib/db/maintenance';
import type { CarriedAccess } from '../lib/db/stores';
import { operatorCommand } from '../lib/shared/operator-commands';
import { printTable, runCommands, UsageError } from './cli';

const dbCommand = (args: string) => operatorCommand('db', args);
const USAGE = `usage:
  ${dbCommand('backup [--out FILE]')}
      a consistent copy, taken while the server runs (default: BACKUP_DIR, else data/backups/)
  ${dbCommand('restore FILE')}
      replace the database with a backup (stop the server first); access ended since stays ended
  ${dbCommand('check')}
      integrity, migrations and row counts`;

function noArguments(command: string, args: string[]): void {
  if (args.length > 0) throw new UsageError(`${command} takes no arguments, got "${args.join(' ')}"`);
}

async function backup(args: string[]) {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
  if (values.out !== undefined && !values.out.trim()) throw new UsageError('--out needs a file name');
  const { backups } = engine().maintenance;
  if (!backups.supported) throw new Error(backups.backupHint);
  const file = values.out?.trim() || newBackupPath(backupDir() ?? backups.defaultBackupDir());
  const { bytes } = await backups.backup(file);
  process.stdout.write(`Backed up the database (${bytes} bytes); the copy passed its integrity check.\n`);
  // The path is the last line, for scripts.
  process.stdout.write(`${file}\n`);
}

// What restore carried over, one line per kind, in the order the manual lists them.
const CARRIED_KINDS: [keyof CarriedAccess, string][] = [
  ['tokensRevoked', 'API tokens revoked'],
  ['accountsDisabled', 'accounts disabled'],
  ['sessionsEnded', 'accounts whose sessions ended'],
  ['rolesLowered', 'admins made staff'],
  ['passwordsReplaced', 'passwords changed, set or reset'],
  ['passwordLinksEnded', 'set-password links used or replaced'],
  ['webhooksDisabled', 'webhook endpoints disabled or deleted'],
  ['webhookSecretsReplaced', 'webhook signing secrets rotated'],
  ['secondFactorsReplaced', 'second factors removed, reset or used'],
];

async function restore(args: string[]) {
  const [file, ...rest] = args;
  if (!file || rest.length > 0) throw new UsageError('restore takes one backup file');
  const { backups } = engine().maintenance;
  if (!backups.supported) throw new Error(backups.restoreHint);
  const record = (carried: CarriedAccess | null) =>
    auditRow({ action: 'backup.restored', target: { type: 'backup', id: path.basename(file) }, after: { file: path.resolve(file), carried } }, OPERATOR_COMMAND);
  const { restoredInto, replaced, applied, carried } = await backups.restore(file, await knownMigrations(), record);
  process.stdout.write(
    `Restored ${file} into ${restoredInto}; it passed its integrity check, and its schema is the one its migrations make.\n`,
  );
  process.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'Its migrations were up to date.\n');
  if (carried) {
    process.stdout.write('Carried over from the database it replaced, so that access ended after the backup stays ended:\n');
    for (const [kind, label] of CARRIED_KINDS) process.stdout.write(`  ${label}: ${carried[kind].length}\n`);
  }
  process.stdout.write('The restore and what it carried are in the audit trail (backup.restored).\n');
  process.stdout.write(replaced ? `The database it replaced is kept as ${replaced}\n` : 'There was no database to replace.\n');
  // Roles lowered and accounts disabled can leave no admin who can sign in.
  if ((await db().user.count()) > 0 && (await db().user.count({ where: { role: 'admin', disabledAt: null } })) === 0) {
    process.stdout.write(`No account is an active admin now: make one with ${operatorCommand('user', 'set-role EMAIL admin')} (or enable one).\n`);
  }
}

async function check(args: string[]) {
  noArguments('check', args);
  let healthy = true;
  const integrity = await engine().maintenance.integrity();
  if (integrity === null) {
    process.stdout.write(`Integrity: not checked on ${engine().name} (the server checks its pages as it reads them)\n`);
  } else if (integrity.length === 1 && integrity[0] === 'ok') {
    process.stdout.write('Integrity: ok\n');
  } else {
    healthy = false;
    process.stdout.write(`Integrity: FAILED\n${integrity.map((line) => `  ${line}`).join('\n')}\n`);
  }
  const migrations = await migrationStatus();
  process.stdout.write(`Migrations: ${migrations.applied.length} applied, ${migrations.pending.length} pending\n`);
  for (const name of migrations.pending) process.stdout.write(`  pending: ${name} (${operatorCommand('db:migrate')}, or ${operatorCommand('start')}, applies it)\n`);
  for (const name of migrations.unknown) process.stdout.write(`  not in this code: ${name} (the database was migrated by a newer version)\n`);
  for (const name of migrations.failed) process.stdout.write(`  failed: ${name}\n`);
  if (migrations.unknown.length > 0 || migrations.failed.length > 0) healthy = false;
  process.stdout.write('\n');
  printTable(['TABLE', 'ROWS'], (await rowCounts()).map(([name, count]) => [name, String(count)]));
  if (!healthy) process.exitCode = 1;
}

runCommands(USAGE, {
  backup: (args) => backup(args).finally(closeDb),
  restore: (args) => restore(args).finally(closeDb),
  check: (args) => check(args).finally(closeDb),
});
