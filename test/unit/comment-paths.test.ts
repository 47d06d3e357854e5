// Comments (and the pages of the manual, README.md and docs/) that name a file of this repository
// must name one that exists: a comment that points a reader at a moved or deleted file is worse than
// none. Every comment line of the source, tests,
// benchmarks and configuration is read; a path under one of the top folders (lib/shared/json.ts,
// docs/security.md, server/main.ts...) or a root file (README.md, proxy.ts...) must be there, and
// a section of the manual it names (docs/performance.md#memory) must be one of that page's headings.
// And a code comment holds no measured figure: those live in docs/performance.md, where a comment
// links them (docs/testing.md#running-the-tests says how a figure is told from a setting).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf } from '../support/markdown';

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

/**
 * The comment text of each line of `source`: a line that is a comment (//, /*, or a block comment's
 * `*`), or what follows // or /* after code; after # in a shell script. A `*` after code is
 * arithmetic, not a comment.
 */
function commentLines(source: string, file: string): { line: number; text: string }[] {
  const shell = file.endsWith('.sh') || file.endsWith('Dockerfile') || file.endsWith(`${path.sep}run`);
  return source.split('\n').flatMap((text, index) => {
    const comment = shell ? /(?:^|\s)#\s?(.*)$/.exec(text) : /^\s*(?:\/\/|\/\*+|\*+(?!\/))\s?(.*)$|[\s{](?:\/\/|\/\*+)\s?(.*)$/.exec(text);
    return comment ? [{ line: index + 1, text: comment[1] ?? comment[2] }] : [];
  });
}

/** Every comment line of the files under `folders` and of `rootFiles`, that exist. */
function commentsOf(folders: string[], rootFiles: string[]): { file: string; line: number; text: string }[] {
  const files = [...folders.flatMap((folder) => (existsSync(path.join(ROOT, folder)) ? filesUnder(path.join(ROOT, folder)) : [])), ...rootFiles.map((name) => path.join(ROOT, name))];
  return files.filter((file) => existsSync(file)).flatMap((file) => commentLines(readFileSync(file, 'utf8'), file).map((comment) => ({ file, ...comment })));
}

/** The sections of the manual `text` names: docs/<page>.md#<anchor>. */
function namedSections(text: string): { page: string; anchor: string }[] {
  return [...text.matchAll(/(?<![\w./@-])(docs\/[\w.-]+\.md)#([\p{L}\p{N}_-]+)/gu)].map((match) => ({ page: match[1], anchor: match[2] }));
}

// A measured figure: a number with a unit of measurement. A duration under a second (ns, µs, ms), a
// size in decimal units (KB, MB, GB), a rate (req/s, plants/s, MB/s: anything a second) or a share
// (%). Settings and limits are written in seconds or longer, in binary units (KiB, MiB, GiB), or by
// their constant's name, so "a 5 s timeout" and "a 64 KiB body limit" are not figures.
const FIGURE = /(?<![\w.])\d[\d,.]*(?:\s?[–-]\s?\d[\d,.]*)?\s?(?:[A-Za-z]+\/s|ns|µs|ms|[kKMG]B|%)(?![\w/])/g;
// The code: what runs, is built or measures (the tests' own comments may describe what they measure).
const CODE = ['app', 'bench', 'components', 'lib', 'scripts', 'server'];
const CODE_ROOT_FILES = ['proxy.ts', 'instrumentation.ts', 'next.config.js'];

/** The measured figures `text` holds. */
const figuresIn = (text: string) => text.match(FIGURE) ?? [];

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
    const missing: string[] = [];
    for (const { file, line, text } of commentsOf(SCANNED, ROOT_FILES)) {
      for (const named of namedPaths(text)) {
        if (!isIgnored(named) && !existsSync(path.join(ROOT, named)) && !existsSync(path.join(path.dirname(file), named))) {
          missing.push(`${path.relative(ROOT, file)}:${line}: ${named}`);
        }
      }
    }
    expect(missing, `comments name files that do not exist:\n${missing.join('\n')}`).toEqual([]);
  });

  it('name sections of the manual that exist', () => {
    const anchors = new Map<string, Set<string>>();
    const anchorsOfPage = (page: string) => anchors.get(page) ?? anchors.set(page, anchorsOf(readFileSync(path.join(ROOT, page), 'utf8'))).get(page)!;
    const missing = commentsOf(SCANNED, ROOT_FILES).flatMap(({ file, line, text }) =>
      namedSections(text)
        .filter(({ page, anchor }) => existsSync(path.join(ROOT, page)) && !anchorsOfPage(page).has(anchor))
        .map(({ page, anchor }) => `${path.relative(ROOT, file)}:${line}: ${page}#${anchor}`),
    );
    expect(missing, `comments name sections the manual does not have:\n${missing.join('\n')}`).toEqual([]);
  });

  it('are checked: a path that does not exist is found, and a section', () => {
    expect(namedPaths('// see lib/http/nowhere.ts and docs/security.md#sign-in.')).toEqual(['lib/http/nowhere.ts', 'docs/security.md']);
    // A pattern is not a file, nor is its fixed part.
    expect(namedPaths('// a folder such as lib/db/<engine>/schema, or test/**/*.ts, or test/api/sign-in-*.test.ts')).toEqual([]);
    expect(namedSections('see docs/performance.md#the-catalogue-on-100000-plants), and docs/testing.md.')).toEqual([
      { page: 'docs/performance.md', anchor: 'the-catalogue-on-100000-plants' },
    ]);
    expect(commentLines('const size = 2 * 1024 * 1024; // two MiB\n * a line of a block comment\n */\n{/* in JSX */}', 'a.ts').map(({ text }) => text)).toEqual([
      'two MiB',
      'a line of a block comment',
      'in JSX */}',
    ]);
  });
});

describe('code comments', () => {
  it('hold no measured figure: they link its section of docs/performance.md', () => {
    const found = commentsOf(CODE, CODE_ROOT_FILES).flatMap(({ file, line, text }) =>
      figuresIn(text).map((figure) => `${path.relative(ROOT, file)}:${line}: ${figure}`),
    );
    expect(found, `code comments hold measured figures; move each to docs/performance.md and link its section:\n${found.join('\n')}`).toEqual([]);
  });

  it('are checked: a figure is found, a setting is not', () => {
    for (const figure of ['10–13 ms', '12,500–13,800 plants/s', '2,334 req/s', '240 MB/s', '61.6 µs', '1.5 MB', '8 KB', '5-10 %', '0.04 ms']) {
      expect(figuresIn(`// took ${figure} here`), figure).toEqual([figure]);
    }
    for (const setting of ['a 5 s timeout', 'a 1 KiB threshold', 'an 8 KiB body limit', 'up to 2 MiB', 'every 30 s', '24 GiB of memory', 'HTTP/2', 'at most 100 events', 'POLL_INTERVAL_MS']) {
      expect(figuresIn(`// ${setting}`), setting).toEqual([]);
    }
  });
});
