import { z } from 'zod';
import { NAME_MAX_LENGTH, TAG_MAX_LENGTH } from './limits';

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** A text filter as it arrives in a query string: trimmed, and left out when empty. */
const filterText = (maxLength: number, description: string) =>
  z
    .string()
    .transform((text) => text.trim())
    .pipe(
      z
        .string()
        .max(maxLength, { error: `must be at most ${maxLength} characters` })
        .refine((text) => !CONTROL_CHARACTER.test(text), { error: 'must not contain control characters' }),
    )
    .transform((text) => text || undefined)
    .optional()
    .meta({ description, param: { schema: { type: 'string', maxLength } } });

/** The filters of `GET /plants` and `GET /plants/export`; they combine. */
export const PlantFilterQuery = z.object({
  q: filterText(
    NAME_MAX_LENGTH,
    'Only plants whose name contains this text, ignoring case (see the README: Unicode case folding, accents significant). Empty means no filter.',
  ),
  tag: filterText(TAG_MAX_LENGTH, 'Only plants with exactly this tag (case-sensitive). Empty means no filter.'),
});
export type PlantFilterQuery = z.infer<typeof PlantFilterQuery>;

/**
 * The paging parameters of a list of `things` (`GET /plants`, `GET /audit-events`): how many to
 * answer, and where the page starts. They arrive as text.
 */
export const pageQuery = (things: string) =>
  z.object({
    limit: z
      .string()
      .regex(/^\d+$/, { error: `must be a whole number from 1 to ${LIST_LIMIT_MAX}` })
      .transform(Number)
      .pipe(
        z
          .number()
          .min(1, { error: `must be a whole number from 1 to ${LIST_LIMIT_MAX}` })
          .max(LIST_LIMIT_MAX, { error: `must be a whole number from 1 to ${LIST_LIMIT_MAX}` }),
      )
      .optional()
      .meta({
        description: `How many ${things} to return, newest first (1 to ${LIST_LIMIT_MAX}, default ${LIST_LIMIT_DEFAULT}).`,
        param: { schema: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT } },
      }),
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,4096}$/, { error: 'must be a cursor returned by a previous page' })
      .optional()
      .meta({
        description:
          `Where the page starts: the value of \`Next-Cursor\` (also in the \`Link: rel="next"\` URL) from the previous page, with the same filters (and sort). Leave it out for the first page.`,
      }),
  });

// The sorts of `GET /plants` (lib/shared/cursor.ts names them once; this module must stay browser-safe).
export const PLANT_SORT_VALUES = ['-created', 'created', '-name', 'name', '-id', 'id'] as const;
export type PlantSortValue = (typeof PLANT_SORT_VALUES)[number];

/** The order and the count of `GET /plants`. */
export const PlantOrderQuery = z.object({
  sort: z
    .enum(PLANT_SORT_VALUES, { error: `must be one of ${PLANT_SORT_VALUES.join(', ')}` })
    .optional()
    .meta({
      description:
        'The order of the list: `created` (when the plant was added), `name` (ignoring case, as search compares names; equal names in the order added) or `id`, ascending, or descending with a leading `-`. Default `-created`, newest first. A cursor continues only the sort it came from.',
      param: { schema: { type: 'string', enum: [...PLANT_SORT_VALUES], default: '-created' } },
    }),
  count: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .meta({
      description:
        '`true`: the answer also carries `X-Total-Count`, how many plants the filters match on all pages. Counting costs a query of its own, so it is left out by default.',
      param: { schema: { type: 'string', enum: ['true', 'false'], default: 'false' } },
    }),
});

/** Query parameters of `GET /plants`: the filters, the order, then the page. */
export const ListPlantsQuery = PlantFilterQuery.extend(PlantOrderQuery.shape).extend(pageQuery('plants').shape);
export type ListPlantsQuery = z.infer<typeof ListPlantsQuery>;
