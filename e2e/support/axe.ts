import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The serious and critical WCAG 2.1 A and AA violations axe finds on the page as it is. */
export async function seriousViolations(page: Page) {
  // After a server action the page is refreshed, its title rendered again with it: on a busy
  // machine axe once ran at a moment the document had no title (document-title), on a page that
  // had its title when looked at. So axe reads a page once it has its title.
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

