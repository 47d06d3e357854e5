// The plant schemas: the single source of truth for the API's validation, the staff form and
// the published OpenAPI document. This module must stay importable by the browser, so it is
// written with zod/mini: the same engine and the same messages as zod's chained API, and less
// JavaScript for the form page (docs/performance.md#page-weight); the forms load it when they
// first validate.
import * as z from 'zod/mini';
import { INT64_MAX, INT64_MIN, NAME_MAX_LENGTH, TAG_MAX_LENGTH } from './limits';
import { NO_CONTROL_CHARACTERS, NO_CONTROL_CHARACTERS_MESSAGE } from './text';

const required = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : `must be ${expected}`;

/** OpenAPI metadata (description, example, component id), read by lib/openapi. */
function documented<Schema extends z.core.$ZodType>(schema: Schema, meta: z.core.GlobalMeta): Schema {
  z.globalRegistry.add(schema, meta);
  return schema;
}

/**
 * An int64 that has already been read exactly from JSON (see lib/shared/json.ts: integer literals
 * arrive as bigint, anything with a fraction or exponent as a number, which fails here).
 */
export const PlantId = documented(
  z.bigint({ error: required('an integer without fraction or exponent') }).check(
    z.gte(INT64_MIN, { error: `must be at least ${INT64_MIN}` }),
    z.lte(INT64_MAX, { error: `must be at most ${INT64_MAX}` }),
  ),
  { description: 'Identification number of the plant', example: 4711 },
);

export const PlantName = documented(
  z.string({ error: required('a string') }).check(
    z.trim(),
    z.minLength(1, { error: 'must not be empty' }),
    z.maxLength(NAME_MAX_LENGTH, { error: `must be at most ${NAME_MAX_LENGTH} characters` }),
    z.regex(NO_CONTROL_CHARACTERS, { error: NO_CONTROL_CHARACTERS_MESSAGE }),
  ),
  { description: 'The name of the plant. Leading and trailing spaces are removed.', example: 'Monstera' },
);

export const PlantTag = documented(
  z.string({ error: required('a string; leave the field out for no tag') }).check(
    z.trim(),
    z.minLength(1, { error: 'must not be empty; leave the field out for no tag' }),
    z.maxLength(TAG_MAX_LENGTH, { error: `must be at most ${TAG_MAX_LENGTH} characters` }),
    z.regex(NO_CONTROL_CHARACTERS, { error: NO_CONTROL_CHARACTERS_MESSAGE }),
  ),
  { description: 'Tag that specifies the type of the plant', example: 'aroid' },
);

/** The request body of `POST /plants`. Unknown fields are ignored. */
export const NewPlant = documented(z.object({ id: PlantId, name: PlantName, tag: z.optional(PlantTag) }), {
  id: 'NewPlant',
  description: 'A plant to add to the store.',
});
export type NewPlant = z.infer<typeof NewPlant>;

/** What the API answers with. `tag` is absent, never null, when the plant has none. */
export const Plant = documented(z.object({ id: PlantId, name: PlantName, tag: z.optional(PlantTag) }), {
  id: 'Plant',
  description: 'A plant in the store.',
});
export type Plant = z.infer<typeof Plant>;

/**
 * An id written as text (a form input, a URL path segment), turned into a bigint, never a Number,
 * which would round ids above 2^53, and then held to the same rules.
 */
export const PlantIdText = z.pipe(
  z.pipe(
    z.string().check(
      z.trim(),
      z.minLength(1, { error: 'is required', abort: true }),
      z.regex(/^-?\d+$/, { error: 'must be a whole number' }),
    ),
    z.transform((digits: string) => BigInt(digits)),
  ),
  PlantId,
);

/** The `{id}` of `/plants/{id}`. */
export const PlantPathParams = z.object({ id: PlantIdText });

/**
 * The body of `PATCH /plants/{id}`: a JSON Merge Patch (RFC 7396) of the plant. A field left out
 * stays as it is; `tag: null` removes the tag. `id` may be sent, but only as the id in the path.
 */
export const PlantPatch = documented(
  z.object({ id: z.optional(PlantId), name: z.optional(PlantName), tag: z.optional(z.nullable(PlantTag)) }),
  {
    id: 'PlantPatch',
    description:
      'Changes to a plant, as a JSON Merge Patch (RFC 7396): `name` replaces the name, `tag` the tag, `"tag": null` removes it; a field left out stays as it is. `id` cannot change.',
  },
);
export type PlantPatch = z.infer<typeof PlantPatch>;

// A form's tag input holds text; left empty, it means no tag.
const TagText = z.pipe(
  z.pipe(
    z.string(),
    z.transform((text: string) => text.trim() || undefined),
  ),
  z.optional(PlantTag),
);

/** The staff form's view of NewPlant: inputs hold text, and an empty tag means no tag. */
export const NewPlantForm = z.extend(NewPlant, { id: PlantIdText, tag: TagText });
export type NewPlantFormInput = z.input<typeof NewPlantForm>;

/** The catalogue's edit form: the name and tag of a plant, as typed. */
export const PlantEditForm = z.object({ name: PlantName, tag: TagText });
export type PlantEditFormInput = z.input<typeof PlantEditForm>;
export type PlantEdit = z.output<typeof PlantEditForm>;
