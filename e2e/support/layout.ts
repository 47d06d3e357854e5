// What a person sees at once when a page's layout slips, found in the page as laid out: content
// running out of its box, text past the edge of the box drawn around it, a chart's text past its
// drawing, a number broken over lines. Each slip is named with where it is and by how much, so a
// failure says what to look at (the journey also keeps a screenshot).
import type { Page } from '@playwright/test';

/**
 * The slips on the page as it is laid out now, one line each:
 *
 * - **overflow**: an element whose content is wider than its box (`scrollWidth` more than a pixel
 *   past `clientWidth`) while the element lets it show (`overflow-x` visible or clip). An element
 *   that scrolls or hides its overflow (`auto`, `scroll`, `hidden`: the tables' focusable frame of
 *   components/data-table.tsx, an ellipsis) chose to, and is not a slip. Only the innermost element
 *   of a nest that overflows is named: its ancestors overflow because it does.
 * - **text past its box**: text whose lines reach past the box drawn around it (its nearest
 *   ancestor with a border or a background: a card, a figure, a badge, a button), or past the
 *   window when nothing is drawn around it. Text inside a frame that scrolls or clips is left to
 *   that frame.
 * - **chart text**: an SVG's text outside the SVG's box, where the SVG cuts it off.
 * - **broken number**: a number (an id is 19 digits) split over two lines.
 *
 * Elements with no box (`display: none`, a closed `<details>`'s content) are not looked at.
 */
export async function layoutSlips(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const slips: string[] = [];
    const TOLERANCE = 1;

    const nameOf = (element: Element) => {
      let name = element.tagName.toLowerCase();
      if (element.id) name += `#${element.id}`;
      const classes = element.getAttribute('class')?.trim();
      if (classes) name += `.${classes.split(/\s+/).join('.')}`;
      return name;
    };
    const pathOf = (element: Element) => {
      const parts: string[] = [];
      for (let at: Element | null = element; at && at !== document.documentElement && parts.length < 4; at = at.parentElement) parts.unshift(nameOf(at));
      return parts.join(' > ') || nameOf(element);
    };
    const quote = (text: string | null) => JSON.stringify((text ?? '').replace(/\s+/g, ' ').trim().slice(0, 60));
    const px = (value: number) => `${Math.round(value)} px`;
    const letsOverflowShow = (style: CSSStyleDeclaration) => style.overflowX === 'visible' || style.overflowX === 'clip';

    // Overflow: content wider than the box that shows it.
    const overflowing: HTMLElement[] = [];
    for (const element of [document.documentElement, ...document.body.querySelectorAll('*')]) {
      if (!(element instanceof HTMLElement)) continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.display === 'contents' || style.display === 'inline') continue;
      if (!letsOverflowShow(style)) continue;
      // A text field scrolls its own text.
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) continue;
      if (element.getClientRects().length === 0) continue;
      if (element.scrollWidth > element.clientWidth + TOLERANCE) overflowing.push(element);
    }
    // A frame that scrolls sideways though the window has room for all it holds.
    for (const element of document.body.querySelectorAll('*')) {
      if (!(element instanceof HTMLElement) || element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) continue;
      const style = getComputedStyle(element);
      if (style.overflowX !== 'auto' && style.overflowX !== 'scroll') continue;
      if (element.scrollWidth > element.clientWidth + TOLERANCE && element.scrollWidth <= document.documentElement.clientWidth) {
        slips.push(`scrolls with room to spare: ${pathOf(element)} scrolls ${px(element.scrollWidth)} of content in ${px(element.clientWidth)}, in a window ${px(document.documentElement.clientWidth)} wide: ${quote(element.textContent)}`);
      }
    }
    for (const element of overflowing) {
      if (overflowing.some((other) => other !== element && element.contains(other))) continue;
      slips.push(`overflow: ${pathOf(element)} holds ${px(element.scrollWidth)} of content in ${px(element.clientWidth)}: ${quote(element.textContent)}`);
    }

    // Text past the box drawn around it.
    const drawsBox = (element: Element, style: CSSStyleDeclaration) =>
      element.classList.contains('card') ||
      element.tagName === 'DIALOG' ||
      (style.display !== 'inline' &&
        (parseFloat(style.borderLeftWidth) > 0 || parseFloat(style.borderRightWidth) > 0 || (style.backgroundColor !== 'rgba(0, 0, 0, 0)' && style.backgroundColor !== 'transparent')));
    /** The element whose box `node`'s text must stay in, or null when a frame that scrolls or clips holds it. */
    const boxOf = (node: Node): Element | null => {
      for (let at = node.parentElement; at && at !== document.body; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (!letsOverflowShow(style)) return null;
        if (drawsBox(at, style)) return at;
      }
      return document.documentElement;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (!/\S/.test(text) || node.parentElement?.closest('svg, script, style, template, noscript')) continue;
      range.selectNodeContents(node);
      const lines = [...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0);
      if (lines.length === 0) continue;
      const box = boxOf(node);
      if (box) {
        const edges = box === document.documentElement ? { left: 0, right: document.documentElement.clientWidth } : box.getBoundingClientRect();
        const past = Math.max(...lines.map((line) => Math.max(edges.left - line.left, line.right - edges.right)));
        if (past > TOLERANCE) slips.push(`text past its box: ${quote(text)} runs ${px(past)} past ${pathOf(box)}`);
      }
      // A number or a date split over lines: ids, counts, days, times; standing on their own, not
      // part of a word (the digits of an address or a URL break with it).
      for (const number of text.matchAll(/(?<![^\s(])-?\d[\d,.:-]*\d(?![^\s),.;:])/g)) {
        range.setStart(node, number.index);
        range.setEnd(node, number.index + number[0].length);
        const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        if (tops.size > 1) slips.push(`broken number or date: ${number[0]} is on ${tops.size} lines in ${pathOf(node.parentElement!)}`);
      }
    }

    // A chart's text outside its drawing.
    for (const label of document.querySelectorAll('svg text')) {
      const svg = label.closest('svg:not(svg svg)') ?? label.closest('svg')!;
      const drawing = svg.getBoundingClientRect();
      const own = label.getBoundingClientRect();
      if (own.width === 0) continue;
      const past = Math.max(drawing.left - own.left, own.right - drawing.right, drawing.top - own.top, own.bottom - drawing.bottom);
      if (past > TOLERANCE) slips.push(`chart text: ${quote(label.textContent)} is ${px(past)} outside ${pathOf(svg)}`);
    }
    return slips;
  });
}
