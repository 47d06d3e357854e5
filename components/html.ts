// HTML as text, built from template literals in which every value put in is escaped, unless it is
// itself HTML built here. For markup that must not be hydrated (the API reference): React walks
// every element it rendered when the page hydrates, while markup given as text is one element.
export type Html = { readonly html: string };
type Part = Html | string | number | false | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const textOf = (part: Part): string =>
  part === false || part === null || part === undefined
    ? ''
    : Array.isArray(part)
      ? part.map(textOf).join('')
      : typeof part === 'object'
        ? (part as Html).html
        : String(part).replace(/[&<>"']/g, (character) => ESCAPES[character]);

/** `html\`<code>${value}</code>\``: the markup as written, each value escaped (HTML given stays as it is; false, null and undefined are nothing). */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  return { html: strings.reduce((text, string, index) => text + string + (index < parts.length ? textOf(parts[index]) : ''), '') };
}
