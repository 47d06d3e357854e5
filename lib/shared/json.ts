// JSON that keeps int64 values exact. JSON.parse turns 9007199254740993 into ...992, so integers
// are read as bigint, and plants are written with their bigint ids as bare numbers.
//
// Reading: JSON.parse, which is native (many times quicker than the character-at-a-time
// lossless-json that read bodies before, which held the event loop through a batch of long names:
// docs/performance.md#reading-json-bodies), after one pass over the text that writes each integer
// literal in a value position as a string marked with U+0001 ("\u0001<digits>"), which the reviver
// turns into a bigint. A string value that itself begins with U+0001 gets a second one in front,
// which the reviver takes off, so no client text can pass for a marked integer. The same pass finds
// a key written twice in one object, which is refused (JSON.parse would silently keep the last; RFC
// 7493 forbids them). Everything else JSON.parse decides: what it refuses, and the words of the
// refusal.

const INTEGER_LITERAL = /^-?(?:0|[1-9]\d*)$/;

/**
 * Which bound `text` breaks, if any, found in one pass over its characters before it is parsed:
 * - `depth`: it nests arrays and objects more than `maxDepth` deep. The parser recurses once per
 *   level, so a deep enough body exhausts the stack, and how deep is enough depends on how much
 *   stack the caller has already used: the same body could parse on one path and fail on another.
 * - `values`: it holds more than `maxValues` values (array items, member values and the containers
 *   themselves). Parsing costs time and memory for every value, in fields that are then ignored too
 *   (a batch of a million ignored zeros held the event loop: docs/performance.md#reading-json-bodies),
 *   so this pass stops at the first value over the bound.
 */
export function jsonBoundBroken(text: string, maxDepth: number, maxValues: number): 'depth' | 'values' | null {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c) at++; // a backslash: skip what it escapes
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x2c) {
      // A comma starts one more item or member.
      if (++values > maxValues) return 'values';
    } else if (char === 0x5b || char === 0x7b) {
      if (++depth > maxDepth) return 'depth';
      if (++values > maxValues) return 'values';
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return null;
}

const MARK = 0x01;
const MARK_ESCAPE = '\\u0001';
const isNumberCharacter = (char: number) => (char >= 0x30 && char <= 0x39) || char === 0x2d || char === 0x2b || char === 0x2e || char === 0x65 || char === 0x45;

/** A key written twice in one object: the key as decoded, and where its second one starts. */
export class DuplicateKeyError extends SyntaxError {
  constructor(readonly key: string, readonly position: number) {
    super(`Duplicate key ${JSON.stringify(key.slice(0, 100))} in JSON at position ${position}`);
  }
}

/** A key's text between its quotes, decoded; as written when its escapes are malformed (JSON.parse refuses those anyway). */
function decodedKey(raw: string, escaped: boolean): string {
  if (!escaped) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/**
 * `text` with each integer literal in a value position written as a marked string, and each string
 * value that begins with the mark marked once more. Literals anywhere else (a key's place, after
 * another value), and malformed ones, are left as they are, so JSON.parse refuses exactly what it
 * would have. Throws DuplicateKeyError for a key written twice in one object.
 */
export function markIntegers(text: string): string {
  const parts: string[] = [];
  let copiedTo = 0;
  // One entry per open container: the keys seen so far for an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let expectValue = true;
  let expectKey = false;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === 0x22) {
      const start = at + 1;
      let escaped = false;
      for (at = start; at < text.length; at++) {
        const inner = text.charCodeAt(at);
        if (inner === 0x5c) {
          escaped = true;
          at++;
        } else if (inner === 0x22) break;
      }
      if (expectKey) {
        const keys = open[open.length - 1]!;
        const key = decodedKey(text.slice(start, at), escaped);
        if (keys.has(key)) throw new DuplicateKeyError(key, start - 1);
        keys.add(key);
      } else if (text.startsWith(MARK_ESCAPE, start)) {
        parts.push(text.slice(copiedTo, start), MARK_ESCAPE);
        copiedTo = start;
      }
      expectKey = expectValue = false;
    } else if (char === 0x5b) {
      open.push(null);
      expectValue = true;
    } else if (char === 0x7b) {
      open.push(new Set());
      expectKey = true;
      expectValue = false;
    } else if (char === 0x5d || char === 0x7d) {
      open.pop();
      expectKey = expectValue = false;
    } else if (char === 0x3a) expectValue = true;
    else if (char === 0x2c) {
      const inObject = open.length > 0 && open[open.length - 1] !== null;
      expectKey = inObject;
      expectValue = !inObject;
    } else if ((char >= 0x30 && char <= 0x39) || char === 0x2d) {
      let end = at + 1;
      while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end++;
      if (expectValue && INTEGER_LITERAL.test(text.slice(at, end))) {
        parts.push(text.slice(copiedTo, at), `"${MARK_ESCAPE}`, text.slice(at, end), '"');
        copiedTo = end;
      }
      expectKey = expectValue = false;
      at = end - 1;
    } else if (char > 0x20) expectKey = expectValue = false;
  }
  parts.push(text.slice(copiedTo));
  return parts.join('');
}

/** The reviver: a marked integer becomes a bigint, a string marked once more loses that mark. */
function revive(_key: string, value: unknown): unknown {
  if (typeof value !== 'string' || value.charCodeAt(0) !== MARK) return value;
  return value.charCodeAt(1) === MARK ? value.slice(1) : BigInt(value.slice(1));
}

/**
 * Parses JSON text, integer literals as exact bigints and other numbers (fractions, exponents) as
 * numbers, which the schemas refuse where an integer is required. Throws SyntaxError on malformed
 * input (JSON.parse's own, with the position in `text`) and DuplicateKeyError.
 */
export function parseJsonExact(text: string): unknown {
  const marked = markIntegers(text);
  try {
    return JSON.parse(marked, revive);
  } catch (error) {
    // Marking changes positions but not validity: the refusal is worded from the text as sent.
    JSON.parse(text);
    throw error;
  }
}

/** JSON.stringify that writes bigint values as bare JSON numbers, digit for digit. */
export function stringifyJson(value: unknown): string {
  return serialize(value) ?? 'null';
}

function serialize(value: unknown): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map((item) => serialize(item) ?? 'null').join(',')}]`;
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      const members: string[] = [];
      for (const [key, member] of Object.entries(value)) {
        const text = serialize(member);
        if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      return undefined;
  }
}

/** What a JSON value is, in words: "an array", "null", "a string". */
export const describeJson = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value === 'bigint' ? 'number' : typeof value}`;
