// The browser's side of POST /plants. Ids are bigint end to end: the request is written and the
// answer read without ever passing an id through Number.
import { parseJsonExact, stringifyJson } from '../http/json';
import type { NewPlant, Plant } from '../schemas/plant';

export type CreateOutcome =
  | { kind: 'created'; plant: Plant }
  | { kind: 'refused'; status: number; code: number; message: string }
  | { kind: 'unreachable' };

export async function postPlant(token: string, plant: NewPlant): Promise<CreateOutcome> {
  let response: Response;
  let text: string;
  try {
    response = await fetch('/plants', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      // The contract's field order, whatever order the form's values come in.
      body: stringifyJson({ id: plant.id, name: plant.name, tag: plant.tag }),
    });
    text = await response.text();
  } catch {
    return { kind: 'unreachable' };
  }
  let body: Record<string, unknown> = {};
  try {
    body = (parseJsonExact(text) as Record<string, unknown>) ?? {};
  } catch {
    // A proxy's HTML error page, say: report the status alone.
  }
  if (response.ok) return { kind: 'created', plant: body as Plant };
  const message = typeof body.message === 'string' ? body.message : `The server answered ${response.status}`;
  return { kind: 'refused', status: response.status, code: Number(body.error ?? 0), message };
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
