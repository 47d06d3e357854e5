// Markdown as GitHub reads it: the text outside code blocks, and the anchors its headings make.
// The links of docs/ (test/unit/docs-links.test.ts) and of comments (test/unit/comment-paths.test.ts)
// are checked against them.

/** The lines of a Markdown text with fenced code blocks blanked out (line numbers kept). */
export function outsideCode(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null) {
      if (marker) {
        fence = marker;
        return '';
      }
      return line;
    }
    if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
    return '';
  });
}

/** A heading's anchor, as GitHub makes it: lowercase, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: their alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links: their text
    .replace(/<[^>]+>/g, '') // HTML tags
    .replace(/(^|[^\p{L}\p{N}])_+([^_]+?)_+(?=[^\p{L}\p{N}]|$)/gu, '$1$2'); // _emphasis_ (not snake_case)
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings' slugs (duplicates numbered) and explicit ids. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of outsideCode(text)) {
    for (const match of line.matchAll(/<a\s[^>]*(?:name|id)="([^"]+)"/g)) anchors.add(match[1]);
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    let candidate = base;
    let count = seen.get(base) ?? 0;
    // As github-slugger: "x", then "x-1", "x-2", ... skipping any that a heading already took.
    while (anchors.has(candidate)) candidate = `${base}-${++count}`;
    seen.set(base, count);
    anchors.add(candidate);
  }
  return anchors;
}
