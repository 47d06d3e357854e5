// The plant schemas: the single source of truth for the API's validation, the staff form and
// the published OpenAPI document. This module must stay importable by the browser.
import { z } from 'zod';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const NAME_MAX_LENGTH = 200;
export const TAG_MAX_LENGTH = 100;

// Control characters have no business in a display name and tend to be injection attempts.
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

const required = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : `must be ${expected}`;

/**
 * An int64 that has already been read exactly from JSON (see lib/http/json.ts: integer literals
 * arrive as bigint, anything with a fraction or exponent as a number, which fails here).
 */
export const PlantId = z
  .bigint({ error: required('an integer without fraction or exponent') })
  .min(INT64_MIN, { error: `must be at least ${INT64_MIN}` })
  .max(INT64_MAX, { error: `must be at most ${INT64_MAX}` })
  .meta({ description: 'Identification number of the plant', example: 4711 });

export const PlantName = z
  .string({ error: required('a string') })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(NAME_MAX_LENGTH, { error: `must be at most ${NAME_MAX_LENGTH} characters` })
  .regex(NO_CONTROL_CHARACTERS, { error: 'must not contain control characters' })
  .meta({ description: 'The name of the plant. Leading and trailing spaces are removed.', example: 'Monstera' });

export const PlantTag = z
  .string({ error: required('a string; leave the field out for no tag') })
  .trim()
  .min(1, { error: 'must not be empty; leave the field out for no tag' })
  .max(TAG_MAX_LENGTH, { error: `must be at most ${TAG_MAX_LENGTH} characters` })
  .regex(NO_CONTROL_CHARACTERS, { error: 'must not contain control characters' })
  .meta({ description: 'Tag that specifies the type of the plant', example: 'aroid' });

/** The request body of `POST /plants`. Unknown fields are ignored. */
export const NewPlant = z
  .object({ id: PlantId, name: PlantName, tag: PlantTag.optional() })
  .meta({ id: 'NewPlant', description: 'A plant to add to the store.' });
export type NewPlant = z.infer<typeof NewPlant>;

/** What the API answers with. `tag` is absent, never null, when the plant has none. */
export const Plant = z
  .object({ id: PlantId, name: PlantName, tag: PlantTag.optional() })
  .meta({ id: 'Plant', description: 'A plant in the store.' });
export type Plant = z.infer<typeof Plant>;

/**
 * An id written as text (a form input, a URL path segment), turned into a bigint, never a Number,
 * which would round ids above 2^53, and then held to the same rules.
 */
export const PlantIdText = z
  .string()
  .trim()
  .min(1, { error: 'is required', abort: true })
  .regex(/^-?\d+$/, { error: 'must be a whole number' })
  .transform((digits) => BigInt(digits))
  .pipe(PlantId);

/** The `{id}` of `/plants/{id}`. */
export const PlantPathParams = z.object({ id: PlantIdText });

/** The staff form's view of NewPlant: inputs hold text, and an empty tag means no tag. */
export const NewPlantForm = NewPlant.extend({
  id: PlantIdText,
  tag: z
    .string()
    .transform((text) => text.trim() || undefined)
    .pipe(PlantTag.optional()),
});
export type NewPlantFormInput = z.input<typeof NewPlantForm>;
