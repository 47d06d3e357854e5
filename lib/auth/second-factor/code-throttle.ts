// The account's throttle of second-factor codes: the sign-in throttle's rule (lib/auth/passwords/login-throttle.ts),
// under a key of the account's own, apart from its email's, so a right password does not clear it.
import 'server-only';
import { claimLoginAttempt, clearLoginAttempts, type LoginClaim } from '../passwords/login-throttle';

const keyOf = (userId: string) => `second-factor:${userId}`;

/** Claims one code attempt for the account, before the code is checked. */
export const claimCodeAttempt = (userId: string): Promise<LoginClaim> => claimLoginAttempt(keyOf(userId));

/** After a right code: the count starts over. */
export const clearCodeAttempts = (userId: string): Promise<void> => clearLoginAttempts(keyOf(userId));
