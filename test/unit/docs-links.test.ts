// The README is short and points into docs/, and the docs point at each other and at headings
// inside each other. A heading reworded or a file moved would leave a link that leads nowhere, which
// nobody notices until a reader follows it. So every relative link and every #anchor in README.md
// and docs/ must resolve: the file must exist, and the anchor must be a heading of the target, as
// GitHub makes anchors from headings.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, outsideCode, slug } from '../support/markdown';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** README.md and every Markdown file under docs/, as paths relative to the project. */
function documents(): string[] {
  const found = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) found.push(relative);
    }
  };
  walk('docs');
  return found;
}

type Link = { file: string; line: number; target: string };

/** Every link target in a Markdown file, outside code: [text](target), ![alt](target), [ref]: target, src= and href=. */
function linksOf(file: string, text: string): Link[] {
  const links: Link[] = [];
  outsideCode(text).forEach((raw, index) => {
    const line = raw.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, ''); // inline code spans
    const targets = [
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
      ...[...line.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((match) => match[1]),
      ...[...line.matchAll(/<(?:img|a|source)\s[^>]*?(?:src|href)="([^"]*)"/g)].map((match) => match[1]),
    ];
    for (const target of targets) links.push({ file, line: index + 1, target });
  });
  return links;
}

const external = (target: string) => /^(https?:|mailto:)/i.test(target);

/** Why a link leads nowhere, or null when it resolves. */
function brokenReason({ file, target }: Link): string | null {
  if (target === '') return 'empty target';
  const hashAt = target.indexOf('#');
  const filePart = hashAt === -1 ? target : target.slice(0, hashAt);
  const anchor = hashAt === -1 ? null : decodeURIComponent(target.slice(hashAt + 1));
  const resolved = filePart === '' ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(filePart));
  if (!resolved.startsWith(ROOT + path.sep) && resolved !== ROOT) return 'points outside the project';
  if (!existsSync(resolved)) return `no such file: ${path.relative(ROOT, resolved)}`;
  if (anchor === null) return null;
  if (!resolved.endsWith('.md') || statSync(resolved).isDirectory()) return null;
  if (anchor === '') return 'empty anchor';
  if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) return `no heading #${anchor} in ${path.relative(ROOT, resolved)}`;
  return null;
}

describe('slug', () => {
  it('makes anchors as GitHub does', () => {
    expect(slug('Quick start')).toBe('quick-start');
    expect(slug('Roles, accounts and sessions')).toBe('roles-accounts-and-sessions');
    expect(slug('The catalogue on 100,000 plants')).toBe('the-catalogue-on-100000-plants');
    expect(slug("Correct a plant, without losing anyone's update")).toBe('correct-a-plant-without-losing-anyones-update');
    expect(slug('`npm run bench:catalogue`')).toBe('npm-run-benchcatalogue');
    expect(slug('DATABASE_URL and **bold** text')).toBe('database_url-and-bold-text');
    expect(slug('Größe: Gartenstraße')).toBe('größe-gartenstraße');
    expect(slug('2026-11-25: the latest run')).toBe('2026-11-25-the-latest-run');
  });

  it('numbers duplicate headings', () => {
    const anchors = anchorsOf('# Notes\n\n## Notes\n\n```sh\n# Notes\n```\n\n### Notes\n');
    expect([...anchors]).toEqual(['notes', 'notes-1', 'notes-2']);
  });
});

describe('links in README.md and docs/', () => {
  const files = documents();
  const links = files.flatMap((file) => linksOf(file, readFileSync(path.join(ROOT, file), 'utf8')));

  it('finds the manual and its links', () => {
    expect(files).toContain('docs/api.md');
    expect(links.filter((link) => !external(link.target)).length).toBeGreaterThan(50);
  });

  it('has no relative link or anchor that leads nowhere', () => {
    const broken = links
      .filter((link) => !external(link.target))
      .map((link) => ({ link, reason: brokenReason(link) }))
      .filter(({ reason }) => reason !== null)
      .map(({ link, reason }) => `${link.file}:${link.line}: (${link.target}) ${reason}`);
    expect(broken, `broken links:\n${broken.join('\n')}`).toEqual([]);
  });
});
