import fc from 'fast-check';
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { DuplicateKeyError, jsonBoundBroken, markIntegers, parseJsonExact, stringifyJson } from '../../lib/shared/json';

type Outcome = { value: unknown } | { error: Error };

/** What lossless-json makes of `text` (integers as bigint), or its error: an independent reference. */
function reference(text: string): Outcome {
  try {
    return { value: parse(text, null, (literal) => (/^-?(?:0|[1-9]\d*)$/.test(literal) ? BigInt(literal) : Number(literal))) };
  } catch (error) {
    return { error: error as Error };
  }
}

function exact(text: string): Outcome {
  try {
    return { value: parseJsonExact(text) };
  } catch (error) {
    return { error: error as Error };
  }
}

/**
 * parseJsonExact gives the reference's value whenever the reference gives one, except that it
 * refuses any key written twice (the reference keeps a repeat with the same value); it refuses
 * whatever the reference refuses.
 */
function expectAgreement(text: string): void {
  const ours = exact(text);
  const theirs = reference(text);
  if ('value' in theirs) {
    if ('error' in ours) expect(ours.error, text).toBeInstanceOf(DuplicateKeyError);
    else expect(ours.value, text).toEqual(theirs.value);
  } else expect('error' in ours, `${text}: the reference refuses it (${theirs.error.message})`).toBe(true);
}

describe('parseJsonExact', () => {
  it('reads integer literals as exact bigints, beyond 2^53', () => {
    expect(parseJsonExact('{"id": 9007199254740993}')).toEqual({ id: 9007199254740993n });
    expect(parseJsonExact('[-9223372036854775808, 0, -0]')).toEqual([-9223372036854775808n, 0n, 0n]);
  });

  it('keeps fractions and exponents as numbers, so integer rules refuse them', () => {
    expect(parseJsonExact('[1.5, 1e3, 1.0]')).toEqual([1.5, 1000, 1]);
    expect(typeof (parseJsonExact('[1e3]') as unknown[])[0]).toBe('number');
  });

  it('throws on malformed JSON', () => {
    for (const text of ['{', '{"a":}', "{'a': 1}", '{"a": 1} x', 'NaN', '[01]']) {
      expect(() => parseJsonExact(text), text).toThrow();
    }
  });
});

describe('parseJsonExact, against lossless-json as a reference', () => {
  it('agrees on every value and every refusal', () => {
    const cases = [
      '{"a":1,"a":2}', '{"a":1,"a":1}', '{"\\u0061":1,"a":2}', '{"__proto__":1}', '["\\u0001123"]', '[01]', '[1,]', '{1:2}',
      '{"a":1,2:3}', '[1 2]', '1 2', '[-]', '[--1]', '[1.]', '[.5]', '[1e]', '[+1]', '[1true]', '[1E400]', '[-0]', '  7 ',
      '{"a" 1}', '{"a":[1,{"b":-2}],"c":{"d":3}}', '[9223372036854775807, -9223372036854775808, 123456789012345678901234567890]',
      '"\\ud800"', '{"id": 1, "name": "x,y:[1]", "tag": null}', '[1]\u00a0', '',
    ];
    for (const text of cases) expectAgreement(text);
  });

  it('agrees on generated JSON, and on generated JSON with a character changed', () => {
    const bigIntegers = fc.bigInt(-(2n ** 70n), 2n ** 70n).map(String);
    const texts = fc.oneof(
      fc.json(),
      fc.tuple(fc.json(), bigIntegers).map(([json, integer]) => json.replace(/\d+/, integer)),
      fc.tuple(fc.json(), fc.nat(), fc.constantFrom(',', ':', '[', ']', '{', '}', '"', '1', '-', ' ', 'e', '.', '0')).map(
        ([json, at, char]) => json.slice(0, at % (json.length + 1)) + char + json.slice(at % (json.length + 1)),
      ),
    );
    fc.assert(
      fc.property(texts, (text) => expectAgreement(text)),
      { numRuns: 3000, seed: 20261126 },
    );
  });

  it('marks integers in value positions only, and string values that begin with the mark once more', () => {
    expect(markIntegers('{"id": 9007199254740993, "n": [1, -2, 1.5]}')).toBe('{"id": "\\u00019007199254740993", "n": ["\\u00011", "\\u0001-2", 1.5]}');
    expect(markIntegers('{1: 2}')).toBe('{1: "\\u00012"}');
    expect(markIntegers('[01, 1 2]')).toBe('[01, "\\u00011" 2]');
    expect(markIntegers('{"\\u0001k": "\\u00017"}')).toBe('{"\\u0001k": "\\u0001\\u00017"}');
  });

  it('gives back a string value that begins with the mark as it was sent, never as an integer', () => {
    expect(parseJsonExact('["\\u00017", "\\u0001\\u00018", {"\\u0001": "\\u0001"}]')).toEqual(['\u00017', '\u0001\u00018', { '\u0001': '\u0001' }]);
  });

  it('refuses a key written twice in one object, however it is spelled', () => {
    for (const text of ['{"a": 1, "a": 1}', '{"a": 1, "\\u0061": 2}', '[{"b": {"a": 1}, "a": 2, "a": 3}]']) {
      expect(() => parseJsonExact(text), text).toThrow(DuplicateKeyError);
    }
    expect(() => parseJsonExact('{"a": 1, "a": 2}')).toThrow('Duplicate key "a" in JSON at position 9');
    // The same key in different objects is no repeat.
    expect(parseJsonExact('[{"a": 1}, {"a": 2}]')).toEqual([{ a: 1n }, { a: 2n }]);
  });

  it('agrees on a batch of 1,000 plants with long names', () => {
    const batch = JSON.stringify(Array.from({ length: 1000 }, (_, index) => ({ id: index, name: `Plant ${index} ${'x'.repeat(1900)}`, tag: 'aroid' })));
    expectAgreement(batch);
  });
});

describe('jsonBoundBroken', () => {
  const deeperThan = (text: string, max: number) => jsonBoundBroken(text, max, Infinity) === 'depth';

  it('counts arrays and objects, not brackets inside strings', () => {
    expect(deeperThan('[[{"a": [1]}]]', 4)).toBe(false);
    expect(deeperThan('[[{"a": [[1]]}]]', 4)).toBe(true);
    expect(deeperThan('{"a": "[[[[[[", "b": "\\"[[[["}', 1)).toBe(false);
    expect(deeperThan('[] [] [] []', 1)).toBe(false);
  });

  it('refuses a body deep enough to exhaust the parser\'s stack before parsing it', () => {
    expect(deeperThan(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 32)).toBe(true);
  });

  it('counts values: items, member values and containers, not commas or brackets inside strings', () => {
    // The array, the object, and its three members.
    expect(jsonBoundBroken('[{"id": 1, "name": "a,b,[c]", "tag": null}]', 32, 5)).toBeNull();
    expect(jsonBoundBroken('[{"id": 1, "name": "a,b,[c]", "tag": null}]', 32, 4)).toBe('values');
    expect(jsonBoundBroken('1', 32, 1)).toBeNull();
    expect(jsonBoundBroken('[1,2]', 32, 2)).toBe('values');
  });

  it('stops at the first value over the bound, so a body of a million zeros costs a fraction of its length', () => {
    const zeros = `[{"id": 1, "name": "a", "ignored": [${Array(1_000_000).fill('0').join(',')}]}]`;
    expect(jsonBoundBroken(zeros, 32, 16_000)).toBe('values');
  });
});

describe('stringifyJson', () => {
  it('writes bigints as bare numbers and leaves out undefined members', () => {
    expect(stringifyJson({ id: 9223372036854775807n, name: 'a"b', tag: undefined })).toBe(
      '{"id":9223372036854775807,"name":"a\\"b"}',
    );
    expect(stringifyJson([1n, null, 'x'])).toBe('[1,null,"x"]');
  });

  it('agrees with JSON.stringify where JSON.stringify can speak', () => {
    const value = { a: [1, 2.5, true, null, { b: 'ü\n' }], c: 'd', when: new Date(0) };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });
});
