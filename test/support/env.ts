// Runs before every test file: point lib/db at the project's test database, and set this process's
// clock (lib/shared/clock.ts) back to the wall clock. The files of a project share one process, so a
// file that pointed lib/db elsewhere, or a project before this one, leaves connections that are
// closed here first; and a file that moved the clock forward would leave the next file's links and
// windows in its future (a set-password link issued by the moved clock outlived the 24 hours a
// test counted from the wall clock).
import { inject } from 'vitest';
import { closeDb } from '../../lib/db/engine';
import { processWide } from '../../lib/process-wide';
import type { Clock } from '../../lib/shared/clock';
import { observeFetch } from './observed';
import { TEST_AUTH_SECRET } from './server';
import { setEnv } from './settings';

if (process.env.DATABASE_URL !== inject('databaseUrl')) await closeDb();
// The clock only moves forward through lib/shared/clock.ts; its state is the process-wide one.
const clock = processWide<Clock>('clock', () => ({ offsetMs: 0 }));
clock.offsetMs = 0;
delete clock.stoppedAt;
process.env.TEST_ENGINE = inject('engine');
setEnv({ DATABASE_URL: inject('databaseUrl'), AUTH_SECRET: TEST_AUTH_SECRET });
observeFetch();
