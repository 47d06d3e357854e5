import type { Page } from '@playwright/test';

/**
 * The scripts a page loads from now on, by address, and their text, fetched again by address when
 * asked for. Read through the page's own responses, a body can be gone by then: Chromium drops the
 * bodies of a document the page has navigated away from (a reload while scripts still arrive), and
 * the response's `text()` then fails ("No resource with given identifier found"). The build's
 * scripts are immutable files, so their address gives the same bytes.
 */
export function scriptsLoadedBy(page: Page) {
  const addresses: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') addresses.push(response.url());
  });
  return {
    addresses,
    /** Each script's text by its path, fetched through the page's context (so before that context closes). */
    async texts(): Promise<Map<string, string>> {
      const unique = [...new Set(addresses)];
      const texts = await Promise.all(unique.map(async (address) => (await page.request.get(address)).text()));
      return new Map(unique.map((address, index) => [new URL(address).pathname, texts[index]]));
    },
  };
}
