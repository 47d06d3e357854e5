import type { Page } from '@playwright/test';

/**
 * The scripts a page loads from now on, by address, and their bodies, fetched again by address when
 * asked for. Read through the page's own responses, a body can be gone by then: Chromium drops the
 * bodies of a document the page has navigated away from (a reload, or a sign-in's redirect, while
 * scripts still arrive), and the response's `body()` then fails ("No resource with given identifier
 * found"). The build's scripts are immutable files, so their address gives the same bytes.
 */
export function scriptsLoadedBy(page: Page) {
  const addresses: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') addresses.push(response.url());
  });
  /** The bodies by path of the scripts loaded since the `from`-th, fetched through the page's context (so before it closes). */
  async function bodies(from = 0): Promise<Map<string, Buffer>> {
    const unique = [...new Set(addresses.slice(from))];
    const fetched = await Promise.all(unique.map(async (address) => (await page.request.get(address)).body()));
    return new Map(unique.map((address, index) => [new URL(address).pathname, fetched[index]]));
  }
  return {
    addresses,
    bodies,
    async texts(): Promise<Map<string, string>> {
      return new Map([...(await bodies())].map(([path, body]) => [path, body.toString('utf8')]));
    },
  };
}
