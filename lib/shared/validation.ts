import { z } from 'zod';
import { ApiError, type ErrorKind } from '../errors';

/** "name: must not be empty; id: is required" — the field path, then the rule, for each issue. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const field = issue.path.map(String).join('.');
      return field ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** Validates input with a schema, or throws the ApiError of the given kind naming each broken rule. */
export function parseWith<Schema extends z.core.$ZodType>(
  schema: Schema,
  input: unknown,
  kind: ErrorKind = 'validation_failed',
): z.output<Schema> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw new ApiError(kind, describeIssues(result.error.issues));
  return result.data;
}
