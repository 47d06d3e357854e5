// "An event was just committed: deliver it." On Node the dispatcher runs inside the server process
// (started by instrumentation.ts) and is woken at once. On Vercel no process outlives its
// response, so delivery runs right after the response with Next's after(); the cron route
// (app/api/cron/webhooks) picks up retries. In a process with neither (an operator command), the
// server's dispatcher finds the event on its next poll.
import 'server-only';
import { after } from 'next/server';
import { log } from '../log';
import { settings } from '../settings';
import { deliverDue, wakeRunningDispatcher } from './dispatcher';

export function deliverSoon(): void {
  if (wakeRunningDispatcher()) return;
  if (settings().VERCEL) {
    try {
      after(async () => {
        await deliverDue({ budgetMs: AFTER_RESPONSE_BUDGET_MS });
      });
    } catch (error) {
      // Outside a request Next knows of: the change is committed, and the cron route delivers it.
      log.warn('webhook delivery left to the cron route', { error: error instanceof Error ? error.message : String(error) });
    }
  }
}

// What a function may spend delivering after its response (whatever is due meanwhile, a retry that
// falls due within it included); retries due later are left to the cron route.
const AFTER_RESPONSE_BUDGET_MS = 15_000;
