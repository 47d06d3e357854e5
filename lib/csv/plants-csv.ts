// Plants as CSV: the columns `id,name,tag` under a header row, read and written with papaparse
// (RFC 4180 quoting). The import page reads files with this, and the test of the export-import
// round trip too; GET /plants/export writes the same columns, with the same options. Loaded by
// the browser: no Node here.
import Papa from 'papaparse';
import * as z from 'zod/mini';
import { NewPlantForm, type NewPlant } from '../schemas/plant';
import { CSV_COLUMNS, type CsvColumn } from './plant-columns';

/** One record of the file: its number (the header is 1, as in a spreadsheet), what it holds, and the plant or the problems. */
export type CsvRecord = {
  row: number;
  values: Record<CsvColumn, string>;
  plant?: NewPlant;
  /** Per column, or `row` for the record as a whole (a broken quote, say). */
  problems: Partial<Record<CsvColumn | 'row', string>>;
};

export type ParsedCsv = { ok: true; records: CsvRecord[] } | { ok: false; message: string };

const BYTE_ORDER_MARK = '\uFEFF';

// A text cell a spreadsheet would take for a formula (OWASP "CSV injection": = + - @, a tab or a
// carriage return first) is written with a ' in front, so it is shown as text and never run. A cell
// that already starts with one or more ' before such a character gets one more too, and the import
// takes exactly one off any cell that starts with ' before such a character: so every cell reads
// back as it was written, a plant named '=x included. An id is an integer, never a formula: it is
// written digit for digit, -5 as -5, so a program reading the file gets the id itself. papaparse
// draws the line: it neutralises strings and writes a bigint as it prints.
const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEUTRALISED_FORMULA = /^'+[=+\-@\t\r]/;
// An integer as it prints: what an id cell of the failed-rows file holds when it holds one (-0 and
// 05 do not print so, and stay text, so they read back as they were).
const INTEGER = /^(?:0|-?[1-9]\d*)$/;

/** What ends every line of a CSV the app writes. */
export const CSV_LINE_END = '\r\n';
/** papaparse's options for every CSV the app writes: CRLF line ends, formula cells neutralised. */
const CSV_WRITE_OPTIONS = { newline: CSV_LINE_END, escapeFormulae: FORMULA_START } as const satisfies Papa.UnparseConfig;

/** A cell to write: a bigint is an id, written digit for digit; a string is text, neutralised when it starts like a formula. */
export type CsvCell = string | bigint;

/** A cell as read from a file: without the ' that writing put in front of a formula. */
const cellValue = (cell: string) => (NEUTRALISED_FORMULA.test(cell) ? cell.slice(1) : cell);

/**
 * Reads a CSV of plants and checks every record with the API's own schema (NewPlantForm: the id
 * as digits, kept exact; an empty tag for no tag). Columns may come in any order, named in any
 * case; others (such as the `error` column of a file of failed rows) are ignored. A cell that
 * starts with ' before = + - @, a tab or a carriage return loses that one ' (see FORMULA_START).
 */
export function parsePlantsCsv(text: string): ParsedCsv {
  const source = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  const { data, errors } = Papa.parse<string[]>(source, { skipEmptyLines: 'greedy' });
  if (data.length === 0) return { ok: false, message: 'The file is empty: it needs a header row id,name,tag and a row per plant.' };
  const header = data[0].map((cell) => cell.trim().toLowerCase());
  const position = Object.fromEntries(CSV_COLUMNS.map((column) => [column, header.indexOf(column)])) as Record<CsvColumn, number>;
  if (position.id < 0 || position.name < 0) {
    return {
      ok: false,
      message: `The first row must be the header id,name,tag (the tag column may be left out); this file's is ${JSON.stringify(data[0].join(',').slice(0, 100))}.`,
    };
  }
  const brokenRows = new Map(errors.filter((error) => error.row !== undefined).map((error) => [error.row!, error.message]));
  const records = data.slice(1).map((cells, index): CsvRecord => {
    const values = Object.fromEntries(CSV_COLUMNS.map((column) => [column, cellValue(cells[position[column]] ?? '')])) as Record<CsvColumn, string>;
    const record: CsvRecord = { row: index + 2, values, problems: {} };
    const broken = brokenRows.get(index + 1);
    if (broken) record.problems.row = `This row is not valid CSV: ${broken}`;
    const checked = z.safeParse(NewPlantForm, values);
    if (checked.success) {
      if (!broken) record.plant = checked.data;
    } else {
      for (const issue of checked.error.issues) {
        const column = issue.path[0] as CsvColumn;
        record.problems[column] = record.problems[column] ? `${record.problems[column]}; ${issue.message}` : issue.message;
      }
    }
    return record;
  });
  return { ok: true, records };
}

/** CSV records, each ending in CRLF, without a header row: what GET /plants/export streams a page at a time. */
export function csvRecords(rows: readonly (readonly CsvCell[])[]): string {
  if (rows.length === 0) return '';
  return Papa.unparse(rows.map((row) => [...row]), { ...CSV_WRITE_OPTIONS, header: false }) + CSV_LINE_END;
}

/**
 * CSV text with a header row, for rows of the given columns (`error` and the like included), as
 * read from a file: a cell of the `id` column that is an integer is written digit for digit, and
 * every other cell is text, neutralised where it starts like a formula.
 */
export function toCsv(columns: readonly string[], rows: readonly string[][]): string {
  const id = columns.indexOf('id');
  const cells = rows.map((row) => row.map((cell, index): CsvCell => (index === id && INTEGER.test(cell) ? BigInt(cell) : cell)));
  return Papa.unparse([[...columns]], CSV_WRITE_OPTIONS) + CSV_LINE_END + csvRecords(cells);
}
