// Vercel Cron, every minute (vercel.json): delivers what is due. Where no process outlives its
// response, this is what sends retries, and anything after() could not finish.
import { assertCronRequest } from '@/lib/auth/tokens/cron';
import { json } from '@/lib/http/respond';
import { methodNotAllowed, withoutAuth } from '@/lib/http/route';
import { deliverDue } from '@/lib/webhooks/dispatcher';

export const dynamic = 'force-dynamic';
export const maxDuration = 60;

// Attempts take up to 10 s each; leave them time to finish within maxDuration.
const BUDGET_MS = 40_000;

export const GET = withoutAuth(async (request) => {
  assertCronRequest(request);
  const { attempts } = await deliverDue({ budgetMs: BUDGET_MS });
  return json({ attempts }, { headers: { 'cache-control': 'no-store' } });
});

export const POST = methodNotAllowed(['GET', 'HEAD']);
