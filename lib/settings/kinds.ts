// The kinds of value a setting takes. Each is a zod schema from the variable's text (undefined when
// it is unset) to what the code reads, with the default it takes when unset or blank; what it cannot
// read it refuses with what it takes and what it got: `must be a whole number of files (1 or more),
// got "0"`, to which the settings (index.ts) put the variable's name in front. Written with zod/mini,
// as the API's schemas are (lib/schemas/plant.ts): the production server bundles this module, and
// zod's chained API would weigh many times more there (docs/performance.md#start-up).
import * as z from 'zod/mini';

export type Kind<T> = {
  /** Reads the variable as it is set: the spaces around it are removed, and blank is unset. */
  schema: z.ZodMiniType<T, string | undefined>;
  /** The default as docs/operations.md's table gives it: the text taken when unset, or what unset means. */
  default: string;
};

/** What a kind says of a value it cannot read: the refusal, after the variable's name. */
export class Refused {
  constructor(readonly message: string) {}
}

/** The usual refusal: what the setting takes, and what it got. */
export const refuse = (accepts: string, got: string) => new Refused(`must be ${accepts}, got "${got}"`);

/** When unset: the text that is read instead (its default), or the value it means and how the table says so. */
type WhenUnset<T> = string | { value: T; default: string };

/** A kind from the function that reads a given text. */
export function kind<T>(read: (text: string) => T | Refused, whenUnset: WhenUnset<T>): Kind<T> {
  const fallback = typeof whenUnset === 'string' ? whenUnset : undefined;
  const schema = z.pipe(
    z.optional(z.string()),
    z.transform((given: string | undefined, context): T => {
      const text = given?.trim() || fallback;
      if (text === undefined) return (whenUnset as { value: T }).value;
      const value = read(text);
      if (value instanceof Refused) {
        context.issues.push({ code: 'custom', message: value.message, input: given });
        return z.NEVER;
      }
      return value;
    }),
  );
  return { schema, default: typeof whenUnset === 'string' ? `\`${whenUnset}\`` : whenUnset.default };
}

/** Any text; undefined when unset. */
export function text(unsetMeans: string): Kind<string | undefined> {
  return kind((value) => value, { value: undefined, default: unsetMeans });
}

/**
 * A whole number from `min` to `max`, in digits only (no sign, fraction, exponent or hex); `off`
 * (in any case) means the value `off` gives, when it is given.
 */
export function wholeNumber<T = number>(options: { accepts: string; min: number; max?: number; off?: number }, whenUnset: WhenUnset<number | T>) {
  const { accepts, min, max = Number.MAX_SAFE_INTEGER, off } = options;
  return kind<number | T>((value) => {
    if (off !== undefined && value.toLowerCase() === 'off') return off;
    const number = Number(value);
    return /^\d{1,15}$/.test(value) && number >= min && number <= max ? number : refuse(accepts, value);
  }, whenUnset);
}

// Durations: a number and a unit (ms, s, m, h, d), such as 5s, 30m or 24h.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** The duration `value` names, in ms, or null when it is not one. */
export function parseDuration(value: string): number | null {
  const match = DURATION.exec(value.trim());
  return match ? Math.round(Number(match[1]) * UNIT_MS[match[2]]) : null;
}

/** A duration of at least `minMs`, as its ms and as it was written. */
export function duration(options: { accepts: string; minMs?: number }, fallback: string): Kind<{ ms: number; text: string }> {
  return kind((value) => {
    const ms = parseDuration(value);
    return ms !== null && ms >= (options.minMs ?? 0) ? { ms, text: value } : refuse(options.accepts, value);
  }, fallback);
}

/** Comma-separated durations, in ms; `none` is none. A refusal names the entry it cannot read. */
export function durations(accepts: string, fallback: string): Kind<number[]> {
  return kind((value) => {
    if (value === 'none') return [];
    const delays: number[] = [];
    for (const part of value.split(',')) {
      const ms = parseDuration(part);
      if (ms === null) return refuse(accepts, part.trim());
      delays.push(ms);
    }
    return delays;
  }, fallback);
}

/** One of a few words (in any case), each meaning a value. */
export function choice<T>(values: Record<string, T>, accepts: string, whenUnset: WhenUnset<T>): Kind<T> {
  const byWord = new Map(Object.entries(values).map(([word, value]) => [word.toLowerCase(), value]));
  return kind((value) => (byWord.has(value.toLowerCase()) ? byWord.get(value.toLowerCase())! : refuse(accepts, value)), whenUnset);
}

/**
 * An http(s) origin, such as https://plants.example.com, as its origin; with `anyPath`, a URL on
 * one (next-auth's own setting names its API's path). Never with credentials, a query or a fragment.
 */
export function origin(options: { accepts: string; anyPath?: boolean }, unsetMeans: string): Kind<string | null> {
  return kind<string | null>(
    (value) => {
      let url: URL | undefined;
      try {
        url = new URL(value);
      } catch {
        url = undefined;
      }
      const pathAllowed = options.anyPath || url?.pathname === '/';
      if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash || !pathAllowed) {
        return refuse(options.accepts, value);
      }
      return url.origin;
    },
    { value: null, default: unsetMeans },
  );
}
