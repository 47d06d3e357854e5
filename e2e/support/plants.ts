// Plants for a journey, put in place through the API with the signed-in page's session token, as
// any client would; and the CSV files the import journeys choose.
import type { Page } from '@playwright/test';

type FilePayload = { name: string; mimeType: string; buffer: Buffer };
import { expect } from './fixtures';

export type SeedPlant = { id: string; name: string; tag?: string };

/** `Bearer <session token>` for API calls as the signed-in page makes them. */
export async function bearer(page: Page): Promise<string> {
  const response = await page.request.post('/api/session-token');
  expect(response.status()).toBe(200);
  return `Bearer ${((await response.json()) as { token: string }).token}`;
}

/** Stores the plants (ids as digits, kept exact) through POST /plants/batch. */
export async function seedPlants(page: Page, plants: SeedPlant[]): Promise<void> {
  const items = plants.map(({ id, name, tag }) => `{"id":${id},"name":${JSON.stringify(name)}${tag ? `,"tag":${JSON.stringify(tag)}` : ''}}`);
  const response = await page.request.post('/plants/batch', {
    headers: { authorization: await bearer(page), 'content-type': 'application/json' },
    data: `[${items.join(',')}]`,
  });
  expect(response.status()).toBe(200);
  expect(await response.text()).not.toMatch(/"status":(400|409)/);
}

/** GET through the API, as text (ids exact). */
export async function apiText(page: Page, path: string): Promise<{ status: number; text: string }> {
  const response = await page.request.get(path, { headers: { authorization: await bearer(page) } });
  return { status: response.status(), text: await response.text() };
}

/** A marker for one journey's plants, so searches find only them: letters, unlike any other name. */
export const marker = () => `zx${Math.random().toString(36).slice(2, 8).replace(/\d/g, 'q')}`;

/** CSV text, as a spreadsheet would save it: a header row, CRLF, quotes where needed. */
export function csvOf(rows: string[][], header = ['id', 'name', 'tag']): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/**
 * Chooses a file on /import once the page's script can read it: the input is disabled until React
 * has hydrated the page, and setInputFiles, unlike a click, does not wait for that.
 */
export async function chooseCsv(page: Page, file: FilePayload): Promise<void> {
  const input = page.getByLabel('CSV file');
  await expect(input).toBeEnabled();
  await input.setInputFiles(file);
}
