// Vercel Cron, daily (vercel.json): prunes audit records past AUDIT_RETENTION_DAYS and old webhook
// history, as a long-running server does on its own.
import { assertCronRequest } from '@/lib/auth/tokens/cron';
import { json } from '@/lib/http/respond';
import { methodNotAllowed, withoutAuth } from '@/lib/http/route';
import { pruneExpired } from '@/lib/retention';

export const dynamic = 'force-dynamic';
export const maxDuration = 60;

export const GET = withoutAuth(async (request) => {
  assertCronRequest(request);
  return json(await pruneExpired(), { headers: { 'cache-control': 'no-store' } });
});

export const POST = methodNotAllowed(['GET', 'HEAD']);
