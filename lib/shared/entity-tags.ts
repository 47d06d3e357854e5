// Comparing entity tags (RFC 9110 §8.8.3): what a conditional request's If-Match or If-None-Match
// asks (read from the headers by lib/http/conditional.ts) against a resource's current tag.

/** "*", or the entity tags listed (each as sent, quotes included, with W/ when weak). */
export type EntityTagCondition = { any: true } | { any: false; tags: string[] };

/** If-Match's strong comparison: a weak tag never matches. `current` is the resource's strong tag. */
export function matchesStrongly(condition: EntityTagCondition, current: string): boolean {
  return condition.any || condition.tags.includes(current);
}

/** If-None-Match's weak comparison: W/"x" and "x" are the same tag. */
export function matchesWeakly(condition: EntityTagCondition, current: string): boolean {
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return condition.any || condition.tags.some((tag) => opaque(tag) === opaque(current));
}
