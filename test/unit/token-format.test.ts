import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiToken, hashApiToken, isWellFormedApiToken } from '../../lib/auth/tokens/format';

describe('API token format', () => {
  it('is pst_ + 49 base62 characters, unique each time', () => {
    const tokens = new Set(Array.from({ length: 200 }, generateApiToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^pst_[0-9A-Za-z]{49}$/);
      expect(isWellFormedApiToken(token)).toBe(true);
    }
  });

  it('refuses any single-character typo through the checksum', () => {
    const token = generateApiToken();
    for (let position = 4; position < token.length; position++) {
      const replacement = token[position] === 'x' ? 'y' : 'x';
      expect(isWellFormedApiToken(token.slice(0, position) + replacement + token.slice(position + 1))).toBe(false);
    }
    expect(isWellFormedApiToken(token.slice(0, -1))).toBe(false);
    expect(isWellFormedApiToken(`${token}0`)).toBe(false);
    expect(isWellFormedApiToken(token.replace('pst_', 'pat_'))).toBe(false);
  });

  it('hashes with SHA-256 and shows only a short prefix', () => {
    const token = generateApiToken();
    expect(hashApiToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiToken(token)).toBe(hashApiToken(token));
    expect(displayPrefix(token)).toBe(token.slice(0, 12));
  });
});
