// The loop the server's outbox workers run on (the webhook dispatcher, the mail sender): woken right
// after a commit in this process, and looking on its own every second for the rest (what other
// instances or an operator command wrote, retries that fall due), sooner when the next retry is
// due sooner. A wake during a pass runs another pass right after it, never two at once; a pass
// that says more is waiting is followed by another, with requests served in between. A failed
// pass is logged and tried again a second later. Nothing starts once the server is shutting down.
import 'server-only';
import { log } from './log';
import { processWide } from './process-wide';
import { now as clockNow } from './shared/clock';
import { isShuttingDown } from './shutdown';

// How often an idle loop looks for work it was not woken for.
const POLL_INTERVAL_MS = 1000;

export type PollWork = {
  /** One pass; answers whether more may be waiting. */
  pass(): Promise<boolean>;
  /** When the next piece of work falls due, if any is waiting. */
  nextDueAt(): Promise<Date | null | undefined>;
  /** The log line of a failed pass, naming the worker. */
  failure: string;
};

export type PollLoop = {
  /** Starts the loop in this process, once; `work` is what every pass does. */
  start(work: PollWork): void;
  /** "Something was just committed": runs a pass now, if this process started the loop (whichever bundle's copy of the caller asks). */
  wake(): boolean;
};

// Everything a pass needs is here, process-wide (the work, whichever copy started it), so any route
// bundle's copy of this module can wake the loop the process started.
type State = { work?: PollWork; cycling: boolean; again: boolean; timer?: NodeJS.Timeout };

/** The loop called `name`: one per process, whichever route bundle's copy of its module asks for it. */
export function pollLoop(name: string): PollLoop {
  const state = processWide(`poll-loop:${name}`, (): State => ({ cycling: false, again: false }));

  function wake(): void {
    if (!state.work) return;
    if (state.cycling) {
      state.again = true;
      return;
    }
    clearTimeout(state.timer);
    state.timer = setTimeout(run, 0);
  }

  async function run(): Promise<void> {
    const work = state.work;
    if (!work || state.cycling || isShuttingDown()) return;
    state.cycling = true;
    let delayMs = POLL_INTERVAL_MS;
    try {
      do {
        state.again = false;
        if (await work.pass()) state.again = true;
        // A backlog is worked through a pass at a time, with requests served in between.
        if (state.again) await new Promise((resolve) => setImmediate(resolve));
      } while (state.again && !isShuttingDown());
      const due = await work.nextDueAt();
      if (due) delayMs = Math.max(0, Math.min(delayMs, due.getTime() - clockNow()));
    } catch (error) {
      log.error(work.failure, { error: error instanceof Error ? error.message : String(error) });
    } finally {
      state.cycling = false;
    }
    if (isShuttingDown()) return;
    clearTimeout(state.timer);
    state.timer = setTimeout(run, delayMs);
    state.timer.unref();
  }

  return {
    start(work) {
      if (state.work) return;
      state.work = work;
      wake();
    },
    wake() {
      if (!state.work) return false;
      wake();
      return true;
    },
  };
}
