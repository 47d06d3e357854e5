// Plants as CSV: the columns `id,name,tag` under a header row, read and written with papaparse
// (RFC 4180 quoting). The import page reads files with this, and the test of the export-import
// round trip too; GET /plants/export writes the same columns. Loaded by the browser: no Node here.
import Papa from 'papaparse';
import * as z from 'zod/mini';
import { NewPlantForm, type NewPlant } from '../schemas/plant';

export const CSV_COLUMNS = ['id', 'name', 'tag'] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

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

/**
 * Reads a CSV of plants and checks every record with the API's own schema (NewPlantForm: the id
 * as digits, kept exact; an empty tag for no tag). Columns may come in any order, named in any
 * case; others (such as the `error` column of a file of failed rows) are ignored.
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
    const values = Object.fromEntries(CSV_COLUMNS.map((column) => [column, cells[position[column]] ?? ''])) as Record<CsvColumn, string>;
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

/** CSV text with a header row, for rows of the given columns (`error` and the like included). */
export function toCsv(columns: readonly string[], rows: readonly string[][]): string {
  return Papa.unparse({ fields: [...columns], data: rows.map((row) => [...row]) }, { newline: '\r\n' }) + '\r\n';
}
