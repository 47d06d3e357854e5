// The check of a second factor's code (lib/auth/second-factor/totp.ts), on a clock the test sets:
// a code is good in its own 30-second step and one step either side (a phone's clock a little off),
// and never again once its step, or a later one, was accepted.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCode, codeAt, newTotpSecret, normalizedCode, otpauthUri, stepAt } from '../../lib/auth/second-factor/totp';
import { newRecoveryCodes, normalizedRecoveryCode, recoveryCodeHash } from '../../lib/auth/second-factor/recovery-codes';

// RFC 6238's test secret for SHA-1 ("12345678901234567890"), in base32, and two of its vectors
// (the last 6 digits of its 8-digit codes).
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const STEP_MS = 30_000;
// The start of a step, well away from the epoch.
const T = 1_800_000_000_000 - (1_800_000_000_000 % STEP_MS);

describe('a TOTP code', () => {
  it('is RFC 6238 with SHA-1, 6 digits and 30 s steps', () => {
    expect(codeAt(RFC_SECRET, 59_000)).toBe('287082');
    expect(codeAt(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    // By hand, from the RFC's HOTP: the same code as the library's.
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(BigInt(Math.floor(T / STEP_MS)));
    const mac = createHmac('sha1', '12345678901234567890').update(counter).digest();
    const offset = mac[mac.length - 1] & 0x0f;
    const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
    expect(codeAt(RFC_SECRET, T)).toBe(String(value).padStart(6, '0'));
  });

  it('is offered to the app as an otpauth:// URI with the settings apps expect', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri(secret, 'ada@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Plant Store:ada@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({ issuer: 'Plant Store', secret, algorithm: 'SHA1', digits: '6', period: '30' });
  });

  it('is accepted in its own step, with the step it belongs to', () => {
    const secret = newTotpSecret();
    const code = codeAt(secret, T);
    expect(checkCode({ secret, input: code, lastUsedStep: null, now: T })).toEqual({ ok: true, step: stepAt(T) });
    expect(checkCode({ secret, input: code, lastUsedStep: null, now: T + STEP_MS - 1 })).toEqual({ ok: true, step: stepAt(T) });
  });

  it('is accepted one step early or late (clock skew), and not two', () => {
    const secret = newTotpSecret();
    const code = codeAt(secret, T);
    expect(checkCode({ secret, input: code, lastUsedStep: null, now: T + STEP_MS })).toEqual({ ok: true, step: stepAt(T) });
    expect(checkCode({ secret, input: code, lastUsedStep: null, now: T - STEP_MS })).toEqual({ ok: true, step: stepAt(T) });
    expect(checkCode({ secret, input: code, lastUsedStep: null, now: T + 2 * STEP_MS })).toEqual({ ok: false, reason: 'wrong' });
    expect(checkCode({ secret, input: code, lastUsedStep: null, now: T - 2 * STEP_MS })).toEqual({ ok: false, reason: 'wrong' });
  });

  it('is refused once its step was accepted, and so is an older one', () => {
    const secret = newTotpSecret();
    const code = codeAt(secret, T);
    const first = checkCode({ secret, input: code, lastUsedStep: null, now: T });
    expect(first.ok).toBe(true);
    const used = (first as { step: number }).step;
    // The same code again, within its window: refused as used.
    expect(checkCode({ secret, input: code, lastUsedStep: used, now: T + 1_000 })).toEqual({ ok: false, reason: 'replayed' });
    expect(checkCode({ secret, input: code, lastUsedStep: used, now: T + STEP_MS })).toEqual({ ok: false, reason: 'replayed' });
    // The step before's code, still within the window: refused too (it is not later).
    expect(checkCode({ secret, input: codeAt(secret, T - STEP_MS), lastUsedStep: used, now: T })).toEqual({ ok: false, reason: 'replayed' });
    // The next step's code is accepted.
    expect(checkCode({ secret, input: codeAt(secret, T + STEP_MS), lastUsedStep: used, now: T + STEP_MS })).toEqual({ ok: true, step: used + 1 });
  });

  it("is another secret's code refused, and what is not a code refused before any check", () => {
    const secret = newTotpSecret();
    const other = newTotpSecret();
    expect(checkCode({ secret, input: codeAt(other, T), lastUsedStep: null, now: T }).ok).toBe(codeAt(other, T) === codeAt(secret, T));
    for (const input of ['', '12345', '1234567', 'abcdef', '12 34 5x', '１２３４５６']) {
      expect(checkCode({ secret, input, lastUsedStep: null, now: T })).toEqual({ ok: false, reason: 'malformed' });
    }
    expect(normalizedCode(' 123 456 ')).toBe('123456');
    expect(normalizedCode('123-456')).toBe('123456');
  });

  it('is read with the clock of the process by default', () => {
    const secret = newTotpSecret();
    expect(checkCode({ secret, input: codeAt(secret, Date.now()), lastUsedStep: null }).ok).toBe(true);
  });
});

describe('recovery codes', () => {
  it('are ten, each 80 random bits in four groups, all different', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
  });

  it('are read as typed (case, spaces and dashes aside), and hashed', () => {
    const [code] = newRecoveryCodes(1);
    const typed = ` ${code.toUpperCase().replaceAll('-', ' ')} `;
    expect(normalizedRecoveryCode(typed)).toBe(code.replaceAll('-', ''));
    expect(recoveryCodeHash(normalizedRecoveryCode(typed)!)).toMatch(/^[0-9a-f]{64}$/);
    expect(normalizedRecoveryCode('123456')).toBeNull();
    expect(normalizedRecoveryCode('aaaa-bbbb-cccc-ddd1')).toBeNull();
  });
});
