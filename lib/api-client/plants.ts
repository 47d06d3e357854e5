// The browser's side of the plant API, with the page's bearer token. Ids are bigint end to end:
// requests are written and answers read without ever passing an id through Number.
import { parseJsonExact, stringifyJson } from '../shared/json';
import type { BatchItemResult } from '../schemas/batch';
import type { NewPlant, Plant } from '../schemas/plant';

/** A refusal as the API states it: status, code from the error catalogue, and message. */
export type Refusal = { kind: 'refused'; status: number; code: number; message: string };
export type Unreachable = { kind: 'unreachable' };
type Answered = { response: Response; body: unknown };

/** Sends a request; resolves to the answer with its body read exactly, or to `unreachable`. */
async function call(token: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answered | Unreachable> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(path, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers }, cache: 'no-store' });
    text = await response.text();
  } catch {
    return { kind: 'unreachable' };
  }
  let body: unknown = undefined;
  try {
    body = text ? parseJsonExact(text) : undefined;
  } catch {
    // A proxy's HTML error page, say: the status alone tells.
  }
  return { response, body };
}

function refusal({ response, body }: Answered): Refusal {
  const error = (body ?? {}) as { error?: unknown; message?: unknown };
  const message = typeof error.message === 'string' ? error.message : `The server answered ${response.status}`;
  return { kind: 'refused', status: response.status, code: Number(error.error ?? 0), message };
}

export type CreateOutcome = { kind: 'created'; plant: Plant } | Refusal | Unreachable;

export async function postPlant(token: string, plant: NewPlant): Promise<CreateOutcome> {
  const answer = await call(token, '/plants', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // The contract's field order, whatever order the form's values come in.
    body: stringifyJson({ id: plant.id, name: plant.name, tag: plant.tag }),
  });
  if ('kind' in answer) return answer;
  return answer.response.ok ? { kind: 'created', plant: answer.body as Plant } : refusal(answer);
}

/** A plant with the ETag of the version read: what If-Match sends back. */
export type VersionedPlant = { plant: Plant; etag: string };
export type PlantOutcome = ({ kind: 'ok' } & VersionedPlant) | Refusal | Unreachable;

function versioned(answer: Answered): PlantOutcome {
  if (!answer.response.ok) return refusal(answer);
  return { kind: 'ok', plant: answer.body as Plant, etag: answer.response.headers.get('etag') ?? '' };
}

export async function getPlant(token: string, id: bigint): Promise<PlantOutcome> {
  const answer = await call(token, `/plants/${id}`);
  return 'kind' in answer ? answer : versioned(answer);
}

/**
 * PATCH with a JSON Merge Patch of the fields that change (`tag: null` removes the tag), changing
 * the plant only if it is still the version `etag` names.
 */
export async function patchPlant(token: string, id: bigint, etag: string, changes: { name?: string; tag?: string | null }): Promise<PlantOutcome> {
  const answer = await call(token, `/plants/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json', 'if-match': etag },
    body: stringifyJson(changes),
  });
  return 'kind' in answer ? answer : versioned(answer);
}

export async function deletePlant(token: string, id: bigint, etag: string): Promise<{ kind: 'deleted' } | Refusal | Unreachable> {
  const answer = await call(token, `/plants/${id}`, { method: 'DELETE', headers: { 'if-match': etag } });
  if ('kind' in answer) return answer;
  return answer.response.ok ? { kind: 'deleted' } : refusal(answer);
}

export async function nextFreeId(token: string): Promise<{ kind: 'ok'; id: bigint } | Refusal | Unreachable> {
  const answer = await call(token, '/plants/next-id');
  if ('kind' in answer) return answer;
  return answer.response.ok ? { kind: 'ok', id: (answer.body as { id: bigint }).id } : refusal(answer);
}

export type BatchResult = BatchItemResult;

/** POST /plants/batch; the small numbers of the answer (index, status, code) come back as numbers. */
export async function postBatch(token: string, plants: NewPlant[]): Promise<{ kind: 'ok'; results: BatchResult[] } | Refusal | Unreachable> {
  const answer = await call(token, '/plants/batch', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: stringifyJson(plants.map(({ id, name, tag }) => ({ id, name, tag }))),
  });
  if ('kind' in answer) return answer;
  if (!answer.response.ok) return refusal(answer);
  const { results } = answer.body as { results: BatchResult[] };
  return {
    kind: 'ok',
    results: results.map((result) =>
      'error' in result
        ? { ...result, index: Number(result.index), status: Number(result.status) as 400 | 409, error: { ...result.error, error: Number(result.error.error) } }
        : { ...result, index: Number(result.index), status: 200 },
    ),
  };
}

/** GET /plants/export as a file: the CSV and the name the server gives it. */
export async function exportCsv(token: string, query: string): Promise<{ kind: 'ok'; csv: Blob; fileName: string } | Refusal | Unreachable> {
  let response: Response;
  try {
    response = await fetch(`/plants/export${query}`, { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
    if (response.ok) {
      const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'plants.csv';
      return { kind: 'ok', csv: await response.blob(), fileName };
    }
    const text = await response.text();
    return refusal({ response, body: text ? parseJsonExact(text) : undefined });
  } catch {
    return { kind: 'unreachable' };
  }
}

/**
 * The parts of an Error message that name a form field ("name: must not be empty; tag: ...").
 * The API phrases every field problem as "<field>: <rule>".
 */
export function fieldMessages<Field extends string>(message: string, fields: readonly Field[]): Partial<Record<Field, string>> {
  const found: Partial<Record<Field, string>> = {};
  let current: Field | undefined;
  for (const part of message.split('; ')) {
    const match = /^([a-z]+): (.+)$/.exec(part);
    const named = match && (fields as readonly string[]).includes(match[1]) ? (match[1] as Field) : undefined;
    if (named) {
      current = named;
      found[named] = found[named] ? `${found[named]}; ${match![2]}` : match![2];
    } else if (current) {
      // A rule's own "; " (as in "...; choose another id") continues the field before it.
      found[current] = `${found[current]}; ${part}`;
    }
  }
  return found;
}
