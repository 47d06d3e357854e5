// What a new password must be: at least 12 characters (NIST SP 800-63B's advice for a length
// rule with no composition rules), at most 1024 (scrypt's input is bounded before any work), and
// not one of the common passwords in common-passwords.json (where that list comes from is in the
// file itself, and in docs/staff-guide.md, Passwords).
import 'server-only';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

let commonPasswords: Promise<Set<string>> | undefined;

// Loaded on the first check, not at start-up: most requests never set a password.
function common(): Promise<Set<string>> {
  return (commonPasswords ??= import('./common-passwords.json').then(
    (module: { default: { passwords: string[] } }) => new Set(module.default.passwords),
  ));
}

/** Characters as people count them (a code point each), after the normalisation hashing applies. */
const lengthOf = (password: string) => [...password.normalize('NFKC')].length;

/** Longer than any password may be; sign-in refuses it before the throttle or scrypt runs. */
export function isOverlongPassword(password: string): boolean {
  // A code point is at most two UTF-16 units: a longer string is refused before any work.
  return password.length > PASSWORD_MAX_LENGTH * 2 || lengthOf(password) > PASSWORD_MAX_LENGTH;
}

/** What is wrong with `password` as a new password, or null when it will do. */
export async function passwordProblem(password: string): Promise<string | null> {
  if (isOverlongPassword(password)) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (lengthOf(password) < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if ((await common()).has(password.normalize('NFKC').toLowerCase())) {
    return 'is one of the most common passwords, which are tried first: choose another';
  }
  return null;
}

/** A new password breaks a rule; `rule` reads after the field's name ("must be at least 12 characters"). */
export class PasswordRuleError extends Error {
  constructor(readonly rule: string) {
    super(`The password ${rule}`);
  }
}

/** The same rule, throwing: for the service functions that set a password. */
export async function assertAcceptablePassword(password: string): Promise<void> {
  const problem = await passwordProblem(password);
  if (problem) throw new PasswordRuleError(problem);
}
