// Conditional requests (RFC 9110 §13): If-Match guards a change against lost updates, and
// If-None-Match lets a reader skip a body it already has. This reads the headers; comparing a
// condition with a tag is lib/shared/entity-tags.ts, which the plant rules use as well.
import { ApiError } from '../errors';
import type { EntityTagCondition } from '../shared/entity-tags';

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text; a list may have
// empty elements. A tag may hold a comma, so tags are found by their quotes, not by splitting.
const ENTITY_TAG = '(?:W/)?"[\\x21\\x23-\\x7e\\x80-\\xff]*"';
const TAG_LIST = new RegExp(`^[ \\t,]*${ENTITY_TAG}(?:[ \\t]*,[ \\t,]*${ENTITY_TAG})*[ \\t,]*$`);
const EACH_TAG = new RegExp(ENTITY_TAG, 'g');

function parseCondition(name: string, value: string | null): EntityTagCondition | null {
  if (value === null) return null;
  if (value.trim() === '*') return { any: true };
  if (!TAG_LIST.test(value)) {
    throw new ApiError(
      'invalid_precondition',
      `${name} must be * or a list of quoted entity tags, such as ${name}: "3q9Zk1xB0a7yP2cR5mTw4Q"`,
    );
  }
  return { any: false, tags: value.match(EACH_TAG) ?? [] };
}

/** The request's If-Match, or null when it has none; throws a 400 when it is malformed. */
export function ifMatchOf(request: Request): EntityTagCondition | null {
  return parseCondition('If-Match', request.headers.get('if-match'));
}

/** The request's If-None-Match, or null when it has none; throws a 400 when it is malformed. */
export function ifNoneMatchOf(request: Request): EntityTagCondition | null {
  return parseCondition('If-None-Match', request.headers.get('if-none-match'));
}
