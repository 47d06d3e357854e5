import { describe, expect, it } from 'vitest';
import { foldForSearch } from '../../lib/shared/fold';

/** Whether a search for `query` finds `name`, as both engines decide it: folded text in folded text. */
const finds = (name: string, query: string) => foldForSearch(name).includes(foldForSearch(query));

describe('foldForSearch', () => {
  it('ignores case, in every script', () => {
    expect(foldForSearch('Monstera DELICIOSA')).toBe('monstera deliciosa');
    expect(foldForSearch('ÅNGSTRÖM')).toBe('ångström');
    expect(foldForSearch('ΦΙΚΟΣ')).toBe(foldForSearch('φικοσ'));
    expect(foldForSearch('МОНСТЕРА')).toBe('монстера');
  });

  it('joins what Unicode case folding joins beyond lowercase', () => {
    expect(foldForSearch('Straße')).toBe('strasse');
    expect(foldForSearch('STRAẞE')).toBe('strasse');
    expect(finds('Gartenstraße', 'STRASSE')).toBe(true);
    // A final sigma and a medial one are the same letter.
    expect(finds('ΦΙΚΟΣ ΛΥΡΑΤΑ', 'κοσ')).toBe(true);
    expect(finds('Φίκος', 'ΚΟΣ')).toBe(true);
    // Lowercase İ is i plus a combining dot, which "i" alone would not match.
    expect(foldForSearch('İstanbul')).toBe('istanbul');
  });

  it('treats compatibility and composed forms as the same text', () => {
    expect(foldForSearch('Ｆｅｒｎ')).toBe('fern');
    expect(foldForSearch('ﬁcus')).toBe('ficus');
    expect(foldForSearch('Cafe\u0301')).toBe(foldForSearch('Café'));
  });

  it('keeps accents, spaces and punctuation significant', () => {
    expect(finds('Café', 'cafe')).toBe(false);
    expect(finds("Monstera 'Thai Constellation'", "'thai c")).toBe(true);
    expect(finds('Aloe vera', 'aloevera')).toBe(false);
  });

  it('leaves emoji and scripts without case alone', () => {
    expect(foldForSearch('Ficus 🌿 榕树')).toBe('ficus 🌿 榕树');
  });
});
