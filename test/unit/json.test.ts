import { describe, expect, it } from 'vitest';
import { jsonBoundBroken, parseJsonExact, stringifyJson } from '../../lib/http/json';

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
