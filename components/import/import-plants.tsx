'use client';
// Import plants from a CSV file: read and check every row in the browser with the API's own
// schema, then send the good rows through POST /plants/batch in chunks, with the page's token, and
// say per row what became of it. The rows that failed can be downloaded, fixed and loaded again.
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { postBatch, type BatchResult } from '@/lib/api-client/plants';
import { CSV_COLUMNS } from '@/lib/csv/plant-columns';
import type { CsvRecord, ParsedCsv } from '@/lib/csv/plants-csv';
import { BATCH_MAX_ITEMS } from '@/lib/schemas/limits';
import { UNREACHABLE_MESSAGE, useBearer, type SessionToken } from '../use-session-token';
import { Alert } from '../notices';
import { DataTable } from '../data-table';
import { useHydrated } from '../use-hydrated';
import { saveFile } from '../save-file';
import { ImportResults, ROW_AND_FILE_COLUMNS, type Outcome } from './import-results';

// A catalogue of a hundred thousand plants is a few megabytes of CSV.
const MAX_FILE_BYTES = 20 * 1024 * 1024;
const MAX_ROWS = 100_000;
const PROBLEMS_SHOWN = 200;

type LoadedFile = { name: string; records: CsvRecord[] };

// The reader and writer of CSV files (papaparse, and the schemas with zod), loaded when the person
// starts choosing a file rather than with the page.
const loadCsv = () => import('@/lib/csv/plants-csv');
const preloadCsv = () => void loadCsv().catch(() => {});

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What the API said of one item, as the results table words it. */
function outcomeOf(result: BatchResult): Outcome {
  if ('plant' in result) return result.created ? { kind: 'created' } : { kind: 'existing' };
  return { kind: result.status === 409 ? 'conflict' : 'invalid', message: result.error.message };
}

const problemsOf = (record: CsvRecord) =>
  Object.entries(record.problems)
    .map(([column, message]) => (column === 'row' ? message : `${column}: ${message}`))
    .join('; ');

export function ImportPlants({ sessionToken }: { sessionToken: SessionToken }) {
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [fileProblem, setFileProblem] = useState('');
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const token = useBearer(sessionToken, '/import', useCallback((message: string) => setFileProblem(message), []));

  const valid = file?.records.filter((record) => record.plant) ?? [];
  const invalid = file?.records.filter((record) => !record.plant) ?? [];

  function startOver() {
    setFile(null);
    setFileProblem('');
    setProgress(null);
    setOutcomes(null);
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    startOver();
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    if (chosen.size > MAX_FILE_BYTES) return setFileProblem(`The file is ${Math.ceil(chosen.size / 2 ** 20)} MB; at most 20 MB can be imported at once. Split it.`);
    let text: string;
    try {
      // UTF-8, with or without a byte-order mark (the decoder drops it).
      text = new TextDecoder('utf-8', { fatal: true }).decode(await chosen.arrayBuffer());
    } catch {
      return setFileProblem('The file is not UTF-8 text. Save it as “CSV UTF-8” and choose it again.');
    }
    let parsed: ParsedCsv;
    try {
      parsed = (await loadCsv()).parsePlantsCsv(text);
    } catch {
      return setFileProblem(UNREACHABLE_MESSAGE);
    }
    if (!parsed.ok) return setFileProblem(parsed.message);
    if (parsed.records.length === 0) return setFileProblem('The file has a header but no plants.');
    if (parsed.records.length > MAX_ROWS) return setFileProblem(`The file has ${count(parsed.records.length, 'row')}; at most ${count(MAX_ROWS, 'row')} can be imported at once. Split it.`);
    setFile({ name: chosen.name, records: parsed.records });
  }

  // Once a file is read, the check of it is where the person goes next.
  useEffect(() => {
    if (file) previewHeading.current?.focus();
  }, [file]);

  async function start() {
    if (!file) return;
    const found: Outcome[] = file.records.map((record) => (record.plant ? { kind: 'not-sent', message: 'Not sent yet' } : { kind: 'invalid', message: problemsOf(record) }));
    const sendable = file.records.flatMap((record, index) => (record.plant ? [index] : []));
    setProgress({ sent: 0, total: sendable.length });
    for (let start = 0; start < sendable.length; start += BATCH_MAX_ITEMS) {
      const chunk = sendable.slice(start, start + BATCH_MAX_ITEMS);
      const bearer = await token();
      const answer = bearer ? await postBatch(bearer, chunk.map((index) => file.records[index].plant!)) : null;
      if (answer?.kind !== 'ok') {
        const reason = answer?.kind === 'refused' ? answer.message : 'Could not reach the server';
        for (const index of sendable.slice(start)) found[index] = { kind: 'not-sent', message: `Not sent: ${reason}` };
        break;
      }
      answer.results.forEach((result, position) => (found[chunk[position]] = outcomeOf(result)));
      setProgress({ sent: start + chunk.length, total: sendable.length });
    }
    setOutcomes(found);
  }

  async function downloadFailed() {
    if (!file || !outcomes) return;
    const failed = file.records.flatMap((record, index) => {
      const outcome = outcomes[index];
      return outcome.kind === 'created' || outcome.kind === 'existing' ? [] : [[...CSV_COLUMNS.map((column) => record.values[column]), outcome.message]];
    });
    const { toCsv } = await loadCsv();
    const csv = new Blob([toCsv([...CSV_COLUMNS, 'error'], failed)], { type: 'text/csv;charset=utf-8' });
    saveFile(csv, `${file.name.replace(/\.csv$/i, '')}-failed-rows.csv`);
  }

  const importing = progress !== null && outcomes === null;
  // A file chosen before React has hydrated the page would reach no change handler.
  const hydrated = useHydrated();
  return (
    <>
      <section className="card" aria-labelledby="import-heading">
        <h1 id="import-heading">Import plants</h1>
        <p className="muted">
          A CSV file with a header row <code>id,name,tag</code> and a plant per row, in UTF-8 (with or without a byte-order mark), as{' '}
          <strong>Download CSV</strong> on the catalogue writes it. Every row is checked here first; nothing is sent until you say so.
          Plants already in the store with the same name and tag are left as they are.
        </p>
        <div className="field file-field">
          <label htmlFor="csv-file">CSV file</label>
          <input
            ref={fileInput}
            id="csv-file"
            type="file"
            accept=".csv,text/csv"
            onChange={choose}
            onFocus={preloadCsv}
            onPointerDown={preloadCsv}
            disabled={importing || !hydrated}
            aria-describedby={fileProblem ? 'csv-file-problem' : undefined}
          />
        </div>
        <Alert id="csv-file-problem">{fileProblem}</Alert>
      </section>

      {file && (
        <section className="card" aria-labelledby="preview-heading">
          <h2 id="preview-heading" ref={previewHeading} tabIndex={-1}>
            {file.name}
          </h2>
          <ul className="summary">
            <li>{count(file.records.length, 'row')} of plants</li>
            <li>{count(valid.length, 'row')} ready to import</li>
            <li>{invalid.length ? `${count(invalid.length, 'row')} with problems, which will not be sent` : 'no problems found'}</li>
          </ul>
          {invalid.length > 0 && (
            <>
              <h3 id="problems-heading">Rows with problems</h3>
              <p className="muted">Row numbers count the header as row 1, as a spreadsheet does.</p>
              <DataTable labelledBy="problems-heading" columns={ROW_AND_FILE_COLUMNS}>
                {invalid.slice(0, PROBLEMS_SHOWN).map((record) => (
                  <tr key={record.row}>
                    <td>
                      {record.row}
                      {record.problems.row && <span className="cell-problem">{record.problems.row}</span>}
                    </td>
                    {CSV_COLUMNS.map((column) => (
                      <td key={column} className={record.problems[column] ? 'problem' : undefined}>
                        {record.values[column] || <span className="muted">empty</span>}
                        {record.problems[column] && (
                          <span className="cell-problem">
                            <span className="visually-hidden">Problem: </span>
                            {record.problems[column]}
                          </span>
                        )}
                      </td>
                    ))}
                  </tr>
                ))}
              </DataTable>
              {invalid.length > PROBLEMS_SHOWN && (
                <p className="muted">
                  The first {PROBLEMS_SHOWN} are shown; all of them are listed after the import, and in its file of failed rows.
                </p>
              )}
            </>
          )}
          {outcomes === null && (
            <div className="toolbar">
              <button type="button" onClick={start} disabled={importing || valid.length === 0}>
                Import {count(valid.length, 'plant')}
              </button>
            </div>
          )}
          {progress && (
            <div className="field">
              <label htmlFor="import-progress">Import progress</label>
              <progress id="import-progress" max={Math.max(progress.total, 1)} value={progress.sent} />
              <p className="muted" aria-live="polite">
                {count(progress.sent, 'plant')} of {progress.total.toLocaleString('en-US')} sent
                {outcomes ? '.' : '…'}
              </p>
            </div>
          )}
        </section>
      )}

      {file && outcomes && (
        <ImportResults
          records={file.records}
          outcomes={outcomes}
          onDownloadFailed={downloadFailed}
          onStartOver={() => {
            startOver();
            if (fileInput.current) fileInput.current.value = '';
            fileInput.current?.focus();
          }}
        />
      )}
    </>
  );
}
