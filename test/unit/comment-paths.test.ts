// Comments (and the pages of the manual, README.md and docs/) that name a file of this repository
// must name one that exists: a comment that points a reader at a moved or deleted file is worse than
// none. Every comment line of the source, tests,
// benchmarks and configuration is read; a path under one of the top folders (lib/shared/json.ts,
// docs/security.md, server/main.mjs...) or a root file (README.md, proxy.ts...) must be there.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCANNED = ['app', 'bench', 'components', 'e2e', 'lib', 'prisma', 'scripts', 'server', 'test', 'types', '.ci'];
const ROOT_FILES = ['proxy.ts', 'next.config.js', 'instrumentation.ts', 'playwright.config.ts', 'vitest.config.ts', 'eslint.config.js', 'prisma.config.ts', 'Dockerfile', '.ci/run'];
const SOURCE = /\.(ts|tsx|mjs|js|css|prisma|sh)$|^Dockerfile$|^run$/;
// Generated, or not this repository's.
const SKIPPED = new Set(['node_modules', 'generated', '.next']);

const TOP = '(?:app|bench|components|docs|e2e|lib|prisma|public|scripts|server|test|types)';
const NAMED_PATH = new RegExp(
  `(?<![\\w./@-])((?:${TOP}/[\\w.@()\\[\\]-]+(?:/[\\w.@()\\[\\]-]+)*)|README\\.md|proxy\\.ts|next\\.config\\.js|instrumentation\\.ts|playwright\\.config\\.ts|vitest\\.config\\.ts|vercel\\.json|package\\.json|Dockerfile)`,
  'g',
);

// Folders git ignores (results, builds, data) are named in comments but absent from a fresh clone.
const IGNORED = readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''))
  .filter((line) => line && !line.startsWith('#') && !/[*?[\]]/.test(line));
const isIgnored = (named: string) => IGNORED.some((ignored) => named === ignored || named.startsWith(`${ignored}/`));

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? filesUnder(full) : SOURCE.test(name) ? [full] : [];
  });
}

/** The comment text of each line of `source`: after //, or a line of a block comment, or after # in a shell script. */
function commentLines(source: string, file: string): { line: number; text: string }[] {
  const shell = file.endsWith('.sh') || file.endsWith('Dockerfile') || file.endsWith(`${path.sep}run`);
  return source.split('\n').flatMap((text, index) => {
    const comment = shell ? /(?:^|\s)#\s?(.*)$/.exec(text) : /(?:^|\s)(?:\/\/|\/?\*+)\s?(.*)$/.exec(text);
    return comment ? [{ line: index + 1, text: comment[1] }] : [];
  });
}

/** Paths named in `text` that look like files of this repository (a folder alone is fine too); a pattern's fixed part is not one. */
function namedPaths(text: string): string[] {
  return [...text.matchAll(NAMED_PATH)]
    .filter((match) => !/^\/?[<>*{}$]/.test(text.slice(match.index + match[1].length)))
    .map((match) => match[1].replace(/[.)\],:;]+$/, ''))
    .filter((named) => !/[<>*{}$]|\.\.\./.test(named) && !named.endsWith('/'));
}

describe('the manual, where it names a file', () => {
  it('names files and folders that exist', () => {
    const pages = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
    const missing = pages.flatMap((page) =>
      readFileSync(path.join(ROOT, page), 'utf8')
        .split('\n')
        // Markdown links are docs-links.test.ts's: only their text is read here.
        .flatMap((text, index) => namedPaths(text.replace(/\]\([^)\s]*\)/g, '] ')).map((named) => ({ line: index + 1, named })))
        // Files only: the code map names some folders relative to the one it describes (the API routes under app/api).
        .filter(({ named }) => /\.\w+$/.test(named) && !isIgnored(named) && !existsSync(path.join(ROOT, named)))
        .map(({ line, named }) => `${page}:${line}: ${named}`),
    );
    expect(missing, `the manual names files that do not exist:\n${missing.join('\n')}`).toEqual([]);
  });
});

describe('comments that name a file', () => {
  it('name files and folders that exist', () => {
    const files = [...SCANNED.flatMap((folder) => (existsSync(path.join(ROOT, folder)) ? filesUnder(path.join(ROOT, folder)) : [])), ...ROOT_FILES.map((name) => path.join(ROOT, name))];
    const missing: string[] = [];
    for (const file of files) {
      if (!existsSync(file)) continue;
      for (const { line, text } of commentLines(readFileSync(file, 'utf8'), file)) {
        for (const named of namedPaths(text)) {
          if (!isIgnored(named) && !existsSync(path.join(ROOT, named)) && !existsSync(path.join(path.dirname(file), named))) {
            missing.push(`${path.relative(ROOT, file)}:${line}: ${named}`);
          }
        }
      }
    }
    expect(missing, `comments name files that do not exist:\n${missing.join('\n')}`).toEqual([]);
  });

  it('are checked: a path that does not exist is found', () => {
    expect(namedPaths('// see lib/http/nowhere.ts and docs/security.md#sign-in.')).toEqual(['lib/http/nowhere.ts', 'docs/security.md']);
    // A pattern is not a file, nor is its fixed part.
    expect(namedPaths('// a folder such as lib/db/<engine>/schema, or test/**/*.ts, or test/api/sign-in-*.test.ts')).toEqual([]);
  });
});
