// What a password link's secret looks like, and what the set-password page says of a link that
// cannot be used: browser-safe, so the page can tell a missing or malformed link at once, in the
// same words as the server, without asking it (lib/auth/passwords/links.ts decides the rest).
export type PasswordLinkStatus = 'valid' | 'used' | 'expired' | 'disabled' | 'invalid';

/** 32 random bytes, base64url without padding. */
export const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const PASSWORD_LINK_MESSAGES: Record<Exclude<PasswordLinkStatus, 'valid'>, string> = {
  used: 'This link has already been used. Ask an admin for a new one if you need to set your password again.',
  expired: 'This link has expired (links last 24 hours). Ask an admin for a new one.',
  disabled: 'This account is disabled. Ask an admin to enable it and to give you a new link.',
  invalid: 'This link is not valid: check that it was copied whole, or ask an admin for a new one.',
};
