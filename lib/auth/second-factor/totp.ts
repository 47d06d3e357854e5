// The time-based one-time codes of a second factor (RFC 6238), with the `otpauth` library: the
// settings every authenticator app expects (6 digits, a 30-second step, HMAC-SHA-1), a secret of
// 20 random bytes, and the check of a code against a secret at a given time. The check accepts the
// step before and after the current one too (a phone's clock a little off, a code typed as it
// changed), and refuses a step at or before the last one accepted: each code works once. The time
// is passed in (the server's clock, lib/shared/clock.ts, by default), so tests move it.
import 'server-only';
import { Secret, TOTP } from 'otpauth';
import { now as clockNow } from '../../shared/clock';

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_ALGORITHM = 'SHA1';
const SECRET_BYTES = 20;
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW = 1;
const ISSUER = 'Plant Store';

const totpOf = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, algorithm: TOTP_ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** A new secret, in base32 (what an authenticator app is given). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code, labelled with the account's email. */
export function otpauthUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/** The 30-second step `now` falls in. */
export function stepAt(now: number): number {
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now });
}

/** The code of `secret` at `now` (tests, and nothing else, make codes). */
export function codeAt(secret: string, now: number): string {
  return totpOf(secret).generate({ timestamp: now });
}

/** A code as a person may type it ("123 456"), in the form it is checked in, or null when it cannot be one. */
export function normalizedCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code) ? code : null;
}

export type CodeCheck = { ok: true; step: number } | { ok: false; reason: 'malformed' | 'wrong' | 'replayed' };

/**
 * Checks `input` against `secret` at `now`: accepted with the step it belongs to, or refused
 * (not a code, no step within the window has it, or its step is not after `lastUsedStep`). The
 * caller records the step with a statement that accepts it only if no later one was recorded
 * meanwhile (lib/auth/second-factor/factors.ts), so two requests with one code cannot both pass.
 */
export function checkCode(options: { secret: string; input: string; lastUsedStep: number | null; now?: number }): CodeCheck {
  const code = normalizedCode(options.input);
  if (code === null) return { ok: false, reason: 'malformed' };
  const now = options.now ?? clockNow();
  const delta = totpOf(options.secret).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return { ok: false, reason: 'wrong' };
  const step = stepAt(now) + delta;
  if (options.lastUsedStep !== null && step <= options.lastUsedStep) return { ok: false, reason: 'replayed' };
  return { ok: true, step };
}
