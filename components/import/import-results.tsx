'use client';
// What became of each row of an import, page by page, and the way to the rows that failed.
import { useEffect, useRef, useState } from 'react';
import { CSV_COLUMNS } from '@/lib/csv/plant-columns';
import type { CsvRecord } from '@/lib/csv/plants-csv';
import { DataTable, type Column } from '../data-table';

export type Outcome =
  | { kind: 'created' }
  | { kind: 'existing' }
  | { kind: 'conflict' | 'invalid' | 'not-sent'; message: string };

const LABEL: Record<Outcome['kind'], string> = {
  created: 'Created',
  existing: 'Already there',
  conflict: 'Conflict',
  invalid: 'Invalid',
  'not-sent': 'Not sent',
};
const ROWS_PER_PAGE = 100;
const failed = (outcome: Outcome) => outcome.kind !== 'created' && outcome.kind !== 'existing';

/** The columns of a table of a file's rows: the row number, then the file's columns. */
export const ROW_AND_FILE_COLUMNS: Column[] = ['Row', ...CSV_COLUMNS];

export function ImportResults({
  records,
  outcomes,
  onDownloadFailed,
  onStartOver,
}: {
  records: CsvRecord[];
  outcomes: Outcome[];
  onDownloadFailed: () => void;
  onStartOver: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const failures = outcomes.filter(failed).length;
  const [show, setShow] = useState<'all' | 'failed'>(failures ? 'failed' : 'all');
  const [page, setPage] = useState(0);
  useEffect(() => heading.current?.focus(), []);

  const counts = Object.fromEntries(Object.keys(LABEL).map((kind) => [kind, outcomes.filter((outcome) => outcome.kind === kind).length]));
  const listed = records.map((record, index) => ({ record, outcome: outcomes[index] })).filter(({ outcome }) => show === 'all' || failed(outcome));
  const pages = Math.max(1, Math.ceil(listed.length / ROWS_PER_PAGE));
  const first = page * ROWS_PER_PAGE;

  return (
    <section className="card" aria-labelledby="results-heading">
      <h2 id="results-heading" ref={heading} tabIndex={-1}>
        {counts['not-sent'] ? 'Import stopped' : 'Import finished'}
      </h2>
      <ul className="summary" aria-label="Results">
        {Object.entries(LABEL).map(([kind, label]) =>
          counts[kind] ? (
            <li key={kind}>
              {label}: {counts[kind].toLocaleString('en-US')}
            </li>
          ) : null,
        )}
      </ul>
      <div className="toolbar">
        {failures > 0 && (
          <button type="button" onClick={onDownloadFailed}>
            Download failed rows (CSV)
          </button>
        )}
        <button type="button" className="secondary" onClick={onStartOver}>
          Import another file
        </button>
      </div>
      <div className="field">
        <label htmlFor="results-show">Show</label>
        <select
          id="results-show"
          value={show}
          onChange={(event) => {
            setShow(event.target.value as 'all' | 'failed');
            setPage(0);
          }}
        >
          <option value="failed">Rows that failed ({failures.toLocaleString('en-US')})</option>
          <option value="all">All rows ({outcomes.length.toLocaleString('en-US')})</option>
        </select>
      </div>
      {listed.length === 0 ? (
        <p className="empty">Every row was imported or was already there.</p>
      ) : (
        <DataTable
          caption={`Rows ${first + 1} to ${Math.min(first + ROWS_PER_PAGE, listed.length)} of ${listed.length}`}
          columns={[...ROW_AND_FILE_COLUMNS, 'Result']}
        >
          {listed.slice(first, first + ROWS_PER_PAGE).map(({ record, outcome }) => (
            <tr key={record.row}>
              <td>{record.row}</td>
              {CSV_COLUMNS.map((column) => (
                <td key={column} className={column === 'id' ? 'mono' : undefined}>
                  {record.values[column]}
                </td>
              ))}
              <td className={failed(outcome) ? 'problem' : undefined}>
                {LABEL[outcome.kind]}
                {'message' in outcome && <span className="cell-problem">{outcome.message}</span>}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {pages > 1 && (
        <nav aria-label="Result pages" className="pager">
          <button type="button" className="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous rows
          </button>
          <span>
            Rows {(first + 1).toLocaleString('en-US')}–{Math.min(first + ROWS_PER_PAGE, listed.length).toLocaleString('en-US')} of{' '}
            {listed.length.toLocaleString('en-US')}
          </span>
          <button type="button" className="secondary" disabled={page === pages - 1} onClick={() => setPage(page + 1)}>
            Next rows
          </button>
        </nav>
      )}
    </section>
  );
}
