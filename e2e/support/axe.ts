import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The serious and critical WCAG 2.1 A and AA violations axe finds on the page as it is. */
export async function seriousViolations(page: Page) {
  // After a server action the page is refreshed, its title rendered again with it: on a busy
  // machine axe once ran at a moment the document had no title (document-title), on a page that
  // had its title when looked at. So axe reads a page once it has its title.
  await expect(page).toHaveTitle(/\S/);
  // Legacy mode runs axe in the page itself. The default runs it in parts, then opens a new page to
  // put them together, with axe injected into it again: a page and a renderer more for every check,
  // which cost the journeys' Chromium half of what axe cost it. The two differ only for frames of
  // other origins, which no page here has.
  const results = await new AxeBuilder({ page }).setLegacyMode().withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

