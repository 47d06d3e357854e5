import { z } from 'zod';

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

/** Query parameters of `GET /plants`; they arrive as text. */
export const ListPlantsQuery = z.object({
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
      description: `How many plants to return, newest first (1 to ${LIST_LIMIT_MAX}, default ${LIST_LIMIT_DEFAULT}).`,
      param: { schema: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT } },
    }),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, { error: 'must be a cursor returned by a previous page' })
    .optional()
    .meta({
      description:
        'Where the page starts: the value of `Next-Cursor` (also in the `Link: rel="next"` URL) from the previous page. Leave it out for the newest plants.',
    }),
});
export type ListPlantsQuery = z.infer<typeof ListPlantsQuery>;
