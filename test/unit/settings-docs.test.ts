// The operations manual's table of settings (docs/operations.md, Configuration) and the README's
// short one say what lib/settings reads: every setting has its row, with the default it takes, and
// every row is a setting. A setting added, renamed or given another default without its row fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../lib/settings/schema';
import { outsideCode } from '../support/markdown';

// Rows of the manual's table that Node and Next read themselves, not this service.
const READ_BY_NODE_AND_NEXT = ['NODE_OPTIONS', 'NEXT_TELEMETRY_DISABLED'];

type Row = { names: string[]; defaults: string[] };

/** The rows of the first table under `heading` in a Markdown file: its variables and their defaults (a row may name several). */
function tableUnder(file: string, heading: string): Row[] {
  const lines = outsideCode(readFileSync(file, 'utf8'));
  const start = lines.indexOf(heading);
  expect(start, `${file} has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const first = lines.findIndex((line, index) => index > start && line.startsWith('| Variable |'));
  const rows: Row[] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    const [variables, defaults] = line.split(' | ').map((cell) => cell.replace(/^\| /, ''));
    const names = variables.split(', ').map((name) => /^`([A-Z][A-Z0-9_]*)`$/.exec(name)?.[1] ?? name);
    rows.push({ names, defaults: names.length === 1 ? [defaults] : defaults.split(', ') });
  }
  return rows;
}

const manual = tableUnder('docs/operations.md', '## Configuration');
const readme = tableUnder('README.md', '## Configuration');
const settingNames = Object.keys(SETTINGS) as (keyof typeof SETTINGS)[];

describe("the operations manual's table of settings", () => {
  it('has a row for every setting, with its default', () => {
    const documented = new Map(manual.map((row) => [row.names[0], row.defaults[0]]));
    // Each setting as `NAME: default`, so a difference names every setting that differs.
    const rowOf = (name: string, defaultText: string | undefined) => `${name}: ${defaultText ?? '(no row)'}`;
    expect(settingNames.map((name) => rowOf(name, documented.get(name)))).toEqual(settingNames.map((name) => rowOf(name, SETTINGS[name].default)));
  });

  it('has one row for each variable, each a setting (or one Node or Next reads itself)', () => {
    const names = manual.flatMap((row) => row.names);
    expect(manual.every((row) => row.names.length === 1)).toBe(true);
    expect(names.length).toBe(new Set(names).size);
    expect(names.filter((name) => !(name in SETTINGS) && !READ_BY_NODE_AND_NEXT.includes(name))).toEqual([]);
  });
});

describe("the README's table of the common settings", () => {
  it.each(readme.map((row) => [row.names.join(', '), row] as const))('%s: settings, with their defaults', (_, row) => {
    expect(row.defaults).toHaveLength(row.names.length);
    for (const [index, name] of row.names.entries()) {
      expect(name in SETTINGS, `${name} is a setting`).toBe(true);
      expect(row.defaults[index], name).toBe(SETTINGS[name as keyof typeof SETTINGS].default);
    }
  });
});
