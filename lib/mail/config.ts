// Email's settings as the rest of the app asks about them: whether messages are sent at all
// (SMTP_URL), where their links point (PUBLIC_URL, never a request's Host: lib/settings refuses
// SMTP_URL without it), the sender, the store's name, and the retry schedule.
import 'server-only';
import { settings } from '../settings';

/** Whether this service sends email. Without it, an admin hands each set-password link over. */
export function mailConfigured(): boolean {
  return settings().SMTP_URL !== null;
}

/** The origin the links in messages name: PUBLIC_URL's (NEXTAUTH_URL's when only that is set). */
export function mailOrigin(): string {
  const origin = settings().PUBLIC_URL ?? settings().NEXTAUTH_URL;
  if (!origin) throw new Error('SMTP_URL is set without PUBLIC_URL: the links in messages cannot be made');
  return origin;
}

export function mailFrom(): string {
  return settings().MAIL_FROM ?? '';
}

export function storeName(): string {
  return settings().STORE_NAME;
}

/** The delays before each retry, in ms (MAIL_RETRY_SCHEDULE); after the last, a message is given up. */
export function mailRetrySchedule(): number[] {
  return settings().MAIL_RETRY_SCHEDULE;
}
