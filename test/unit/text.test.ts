// Names people type refuse control characters; text from the database is printed to a terminal
// with its unprintable characters escaped.
import { describe, expect, it } from 'vitest';
import { TokenName } from '../../lib/schemas/token';
import { PlantName } from '../../lib/schemas/plant';
import { printable } from '../../scripts/cli';
import * as z from 'zod/mini';

// [code point, character], named by code point so test titles stay printable.
const CONTROL = ['\u0000', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009b'].map((character) => [
  character.codePointAt(0)!.toString(16).padStart(4, '0'),
  character,
]);

describe('names refuse control characters', () => {
  it.each(CONTROL)('a token name with U+%s is refused', (_code, character) => {
    const result = TokenName.safeParse(`deploy${character}[2J`);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('must not contain control characters');
  });

  it.each(CONTROL)('a plant name with U+%s is refused', (_code, character) => {
    expect(z.safeParse(PlantName, `Fern${character}leaf`).success).toBe(false);
  });

  it('ordinary names, in any script, are kept (trimmed)', () => {
    expect(TokenName.parse('  inventory sync ')).toBe('inventory sync');
    expect(TokenName.parse('Zimmerpflanzen – Büro 3')).toBe('Zimmerpflanzen – Büro 3');
    expect(TokenName.parse('植物の同期')).toBe('植物の同期');
  });
});

describe('printable', () => {
  it('escapes control characters, line separators and bidirectional overrides', () => {
    expect(printable('row\u001b[2J\u001b[Hover\u009b31m')).toBe('row\\u001b[2J\\u001b[Hover\\u009b31m');
    expect(printable('a\u202eb\u2028c\td')).toBe('a\\u202eb\\u2028c\\u0009d');
    expect(printable('plain – text ✓')).toBe('plain – text ✓');
  });
});
