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
