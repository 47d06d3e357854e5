// JSON that keeps int64 values exact. JSON.parse turns 9007199254740993 into ...992, so bodies are
// read with a lossless parser, and plants are written with their bigint ids as bare numbers.
import { parse } from 'lossless-json';

const INTEGER_LITERAL = /^-?(?:0|[1-9]\d*)$/;

/**
 * Integer literals become bigint, so any integer is exact; other numbers (fractions, exponents)
 * stay numbers, and the schemas refuse them where an integer is required.
 */
function parseNumber(text: string): bigint | number {
  return INTEGER_LITERAL.test(text) ? BigInt(text) : Number(text);
}

/**
 * Which bound `text` breaks, if any, found in one pass over its characters before it is parsed:
 * - `depth`: it nests arrays and objects more than `maxDepth` deep. The parser recurses once per
 *   level, so a deep enough body exhausts the stack, and how deep is enough depends on how much
 *   stack the caller has already used: the same body could parse on one path and fail on another.
 * - `values`: it holds more than `maxValues` values (array items, member values and the containers
 *   themselves). The exact parser costs about 0.3 µs a value on the main thread, in fields that are
 *   then ignored too: 1M zeros in a 2 MB batch took 270 ms. This pass stops at the first value over.
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

/** Parses JSON text; throws SyntaxError with a position on malformed input. */
export function parseJsonExact(text: string): unknown {
  return parse(text, null, parseNumber);
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
