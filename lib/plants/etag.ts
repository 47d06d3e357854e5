// Entity tags for plants. A plant's tag is derived from its representation, the exact JSON
// `GET /plants/{id}` answers, so it is strong (the same tag means the same bytes), needs no
// version column, and a plant deleted and created again with other content never reuses one.
import 'server-only';
import { createHash } from 'node:crypto';
import { stringifyJson } from '../shared/json';
import type { Plant } from '../schemas/plant';

/** `"` + 22 base64url characters (128 bits of SHA-256 of the representation) + `"`. */
export function plantEtag(plant: Plant): string {
  return `"${createHash('sha256').update(stringifyJson(plant)).digest('base64url').slice(0, 22)}"`;
}
