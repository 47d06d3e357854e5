import { z } from 'zod';

/** The Error body every failure answers with. */
export const ErrorBody = z
  .object({
    error: z.number().int().min(-2147483648).max(2147483647).meta({
      description: 'Numeric error value: a stable code from the error catalogue.',
      format: 'int32',
    }),
    message: z.string().meta({ description: 'Text of the error: what went wrong and what to fix.' }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;
