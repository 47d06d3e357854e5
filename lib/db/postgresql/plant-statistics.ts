// PostgreSQL plans each search from the statistics that ANALYZE gathers on the plants table, and
// autovacuum gathers them only a minute or more after a load (its launcher visits each database
// once a minute). Until then the planner guesses: right after 100,000 plants were imported, a page
// of `q=pink princess` read all 3,299 plants that match and sorted them, where a newest-first scan
// finds the page within its first 30 rows (docs/decisions.md, "The planner's statistics after a
// load"; the figures in docs/performance.md#the-catalogue-on-100000-plants). So this
// instance analyzes the table itself once the plants it wrote since it last did come to a fifth of
// the table (or to 1,000 in a table never analyzed), as soon as its writes pause for a fifth of a
// second (the batches of a load come closer together than that), or after 30 s of writes that do
// not pause, and merges the search indexes' pending lists then. It runs apart from any request; a
// failure is logged and leaves the table to autovacuum. A long search does not wait for it:
// long-search.ts plans those from a sample of its own.
import 'server-only';
import { log } from '../../log';
import { countPlantAnalysis } from '../../metrics/registry';
import { processWide } from '../../process-wide';
import { inSpan } from '../../tracing/spans';
import { direct } from './direct';

const QUIET_MS = 200;
const MAX_WAIT_MS = 30_000;
const MIN_ROWS = 1000;
const SHARE_OF_TABLE = 0.2;

// reltuples is the table's row estimate as of its last ANALYZE or VACUUM, -1 before the first.
const ROW_ESTIMATE = `SELECT reltuples::float8 AS "rows" FROM pg_class WHERE oid = '"Plant"'::regclass`;
// SKIP_LOCKED: when autovacuum or another instance is analyzing it already, there is nothing to add.
const ANALYZE = 'ANALYZE (SKIP_LOCKED) "Plant"';
// The search indexes' pending lists merged into their trees, as autovacuum would later: until then
// every search through them reads the whole list (*_search_index_pending_list).
const MERGE_PENDING = `SELECT gin_clean_pending_list('"Plant_nameFolded_trgm_idx"'::regclass), gin_clean_pending_list('"Plant_nameFolded_pairs_idx"'::regclass)`;

const state = processWide('plant-statistics', () => ({
  /** Plants this instance wrote since it last analyzed the table. */
  written: 0,
  /** How many written plants call for a look: a fifth of the table as last seen, at least MIN_ROWS. */
  enough: MIN_ROWS,
  firstAt: 0,
  lastAt: 0,
  timer: undefined as NodeJS.Timeout | undefined,
  running: false,
}));

/** `rows` plants were written (inserted, renamed or retagged) by this instance. */
export function notePlantsWritten(rows: number): void {
  if (rows <= 0) return;
  const at = Date.now();
  state.written += rows;
  if (state.firstAt === 0) state.firstAt = at;
  state.lastAt = at;
  if (state.written >= state.enough && !state.timer && !state.running) arm(QUIET_MS);
}

/**
 * Forgets the plants written so far and any analysis waiting for them: the engine's connections are
 * closing (lib/db/engine.ts, closeDb), and what the writes call for is the database they went to,
 * which the next connections may not reach. An analysis already running ends on its own.
 */
export function forgetPlantsWritten(): void {
  clearTimeout(state.timer);
  Object.assign(state, { timer: undefined, written: 0, enough: MIN_ROWS, firstAt: 0, lastAt: 0 });
}

function arm(ms: number) {
  state.timer = setTimeout(() => void look(), ms);
  state.timer.unref();
}

async function look() {
  state.timer = undefined;
  const at = Date.now();
  const quietFor = at - state.lastAt;
  const writingFor = at - state.firstAt;
  if (quietFor < QUIET_MS && writingFor < MAX_WAIT_MS) return arm(Math.min(QUIET_MS - quietFor, MAX_WAIT_MS - writingFor));
  state.running = true;
  const written = state.written;
  let looked = false;
  try {
    await inSpan('plants.analyze', { root: true, attributes: { 'plant_store.plants.written': written } }, async (span) => {
      const [{ rows }] = await direct.$queryRawUnsafe<{ rows: number }[]>(ROW_ESTIMATE);
      const enough = Math.max(MIN_ROWS, SHARE_OF_TABLE * rows);
      span?.setAttribute('plant_store.plants.analyzed', written >= enough);
      if (written < enough) {
        state.enough = enough;
        return;
      }
      await direct.$executeRawUnsafe(ANALYZE);
      await direct.$queryRawUnsafe(MERGE_PENDING).catch((error: unknown) =>
        log.warn('search index pending lists not merged', { error: error instanceof Error ? error.message : String(error) }),
      );
      countPlantAnalysis();
      // Only what was looked at is settled: writes made meanwhile stay counted (none, when the
      // writes were forgotten meanwhile).
      state.written = Math.max(0, state.written - written);
      state.enough = MIN_ROWS;
    });
    looked = true;
  } catch (error) {
    log.warn('plant statistics not gathered', { error: error instanceof Error ? error.message : String(error) });
  } finally {
    state.running = false;
    state.firstAt = state.written > 0 ? state.lastAt : 0;
    // After a failure, the next write tries again, not a timer of its own.
    if (looked && state.written >= state.enough) arm(QUIET_MS);
  }
}
