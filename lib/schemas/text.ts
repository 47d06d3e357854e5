// Rules for text a person types that is shown back to people: plant names and tags, token names.
// Browser-safe, and free of zod so either flavour of schema can use it.

// Control characters (C0, DEL and C1: Unicode's Cc) have no business in a name and tend to be
// injection attempts: an ANSI escape sequence in a token name rewrote rows of an operator's
// terminal. Written as ranges, not \p{Cc}, so the OpenAPI document's `pattern` means the same
// in every JSON Schema validator.
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
export const NO_CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';
