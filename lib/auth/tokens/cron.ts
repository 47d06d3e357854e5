// The cron routes are for the platform's scheduler alone: Vercel Cron sends
// `Authorization: Bearer $CRON_SECRET` when CRON_SECRET is set on the project. Without it set,
// they refuse every request.
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { settings } from '../../settings';
import { unauthorized } from './credentials';

export function assertCronRequest(request: Request): void {
  const secret = settings().CRON_SECRET;
  const given = request.headers.get('authorization') ?? '';
  if (!given) throw unauthorized('missing_token', 'Cron routes take Authorization: Bearer $CRON_SECRET');
  const expected = Buffer.from(`Bearer ${secret ?? ''}`);
  const actual = Buffer.from(given);
  if (!secret || actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw unauthorized('invalid_token', 'Not the scheduler: cron routes take Authorization: Bearer $CRON_SECRET, and CRON_SECRET must be set');
  }
}
