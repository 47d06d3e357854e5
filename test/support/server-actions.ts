// Calling a page's server actions over HTTP, as the browser does, but directly: not through the
// page's buttons. The build's server-reference manifest names each action (file and export) and
// gives its id; React's own client encodes the arguments and decodes the answer.
import { readFileSync } from 'node:fs';
import { FLIGHT_CLIENT_MODULE } from '../../server/next-internals';
import type { Browser } from './accounts';

type ManifestEntry = { filename: string; exportedName: string };

/** Every server action in the build, by id. */
export function serverActions(): Map<string, ManifestEntry> {
  const manifest = JSON.parse(readFileSync('.next/server/server-reference-manifest.json', 'utf8')) as { node: Record<string, ManifestEntry> };
  return new Map(Object.entries(manifest.node));
}

export function actionId(exportedName: string): string {
  const found = [...serverActions()].filter(([, entry]) => entry.exportedName === exportedName);
  if (found.length !== 1) throw new Error(`expected one server action named ${exportedName}, found ${found.length}`);
  return found[0][0];
}

type FlightClient = { encodeReply(value: unknown[]): Promise<string | FormData> };

const flight = () => import(FLIGHT_CLIENT_MODULE) as Promise<FlightClient>;

/**
 * The action's return value from the answer's RSC payload: row 0 is `{"a": "$@<row>", ...}`, and
 * that row holds the value as JSON. (The rest of the payload re-renders the page when the action
 * revalidated it; decoding that would need the page's client modules.)
 */
function returnValueOf(payload: string): unknown {
  const rows = new Map<string, string>();
  for (const line of payload.split('\n')) {
    const match = /^([0-9a-f]+):(\{.*|\[.*|".*|-?\d.*|true|false|null)$/.exec(line);
    if (match) rows.set(match[1], match[2]);
  }
  const root = JSON.parse(rows.get('0') ?? 'null') as { a?: unknown } | null;
  const reference = typeof root?.a === 'string' ? /^\$@([0-9a-f]+)$/.exec(root.a) : null;
  return reference ? JSON.parse(rows.get(reference[1]) ?? 'null') : root?.a;
}

export type ActionAnswer = { status: number; value: unknown };

/** Calls `exportedName` with `args` from `page`, as `who` (a signed-in browser, or a signed-out one). */
export async function callAction(who: Browser, page: string, exportedName: string, ...args: unknown[]): Promise<ActionAnswer> {
  const body = await (await flight()).encodeReply(args);
  const headers: Record<string, string> = { 'next-action': actionId(exportedName), accept: 'text/x-component' };
  if (typeof body === 'string') headers['content-type'] = 'text/plain;charset=UTF-8';
  const response = await who.fetch(page, { method: 'POST', headers, body });
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/x-component')) return { status: response.status, value: text };
  return { status: response.status, value: returnValueOf(text) };
}

/** A FormData, as a form with these fields submits it. */
export function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) data.append(name, item);
  return data;
}
