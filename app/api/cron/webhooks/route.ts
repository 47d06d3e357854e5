// Vercel Cron, every minute (vercel.json): delivers what is due, webhooks and then (with SMTP_URL)
// email. Where no process outlives its response, this is what sends retries, and anything after()
// could not finish.
import { assertCronRequest } from '@/lib/auth/tokens/cron';
import { json } from '@/lib/http/respond';
import { methodNotAllowed, withoutAuth } from '@/lib/http/route';
import { mailConfigured } from '@/lib/mail/config';
import { sendDueMail } from '@/lib/mail/sender';
import { deliverDue } from '@/lib/webhooks/dispatcher';

export const dynamic = 'force-dynamic';
export const maxDuration = 60;

// Attempts take up to 10 s each; leave them time to finish within maxDuration.
const BUDGET_MS = 30_000;
// Messages are few: what is left of the minute after the webhooks, less an attempt's bounded waits.
const MAIL_BUDGET_MS = 5_000;

export const GET = withoutAuth(async (request) => {
  assertCronRequest(request);
  const { attempts } = await deliverDue({ budgetMs: BUDGET_MS });
  const messages = mailConfigured() ? (await sendDueMail({ budgetMs: MAIL_BUDGET_MS })).attempts : 0;
  return json({ attempts, messages }, { headers: { 'cache-control': 'no-store' } });
});

export const POST = methodNotAllowed(['GET', 'HEAD']);
