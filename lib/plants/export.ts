// GET /plants/export: the catalogue (or a search's result) as CSV, streamed. Plants are read a
// page at a time, only when the client has taken the page before, so a catalogue of any size costs
// the server one page of memory. They go out oldest first: importing the file into an empty store
// adds them in the same order, so the copy lists newest first just as the original does.
import 'server-only';
import { CSV_COLUMNS } from '../csv/plant-columns';
import { CSV_LINE_END, csvRecords } from '../csv/plants-csv';
import { log } from '../log';
import { storeFilter, type PlantFilter } from './service';
import { engine } from '../db/engine';
import { OLDEST_FIRST, type PlantRow } from '../db/stores';

const PAGE_SIZE = 1000;

/**
 * One CSV record per plant (RFC 4180 through papaparse: a field is quoted when it holds a comma,
 * a quote or a line break). The id goes out digit for digit, negative or not. A name or tag a
 * spreadsheet would take for a formula, one starting with = + - @, a tab or a carriage return,
 * goes out quoted with a ' in front (lib/csv/plants-csv.ts); the import takes that ' off again, so
 * the file imports back to exactly the same plants.
 */
function records(rows: PlantRow[]): string {
  return csvRecords(rows.map((row) => [row.id, row.name, row.tag ?? '']));
}

/**
 * The CSV of the plants `filter` matches. The first page is read before the answer starts, so a
 * database that cannot be read is answered as any request is (503 with Retry-After when it does not
 * answer); a failure once the CSV has started can only end the body early.
 */
export async function plantsCsv(filter: PlantFilter, requestId: string): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const where = storeFilter(filter);
  let after: PlantRow | undefined;
  const nextPage = () => engine().plants.list({ ...where, order: OLDEST_FIRST, after: after && { seq: after.seq, id: after.id, folded: '' }, take: PAGE_SIZE });
  let firstPage: PlantRow[] | undefined = await nextPage();
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(CSV_COLUMNS.join(',') + CSV_LINE_END));
          return;
        }
        try {
          const rows = firstPage ?? (await nextPage());
          firstPage = undefined;
          if (rows.length > 0) {
            controller.enqueue(encoder.encode(records(rows)));
            after = rows[rows.length - 1];
          }
          if (rows.length < PAGE_SIZE) controller.close();
        } catch (error) {
          // The status line is long gone; the client sees the body end early.
          log.error('export failed', { requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
          controller.error(error);
        }
      },
    },
    // One page waits at most: the next is read only when the client has taken the last.
    { highWaterMark: 1 },
  );
}
