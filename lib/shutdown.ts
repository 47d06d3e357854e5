// Whether this server process has been asked to stop. Next's own SIGTERM handling stops the
// listener and waits for open connections, but a client that keeps one keep-alive connection busy
// would keep it open (and the process alive) indefinitely; once this is set, every API answer says
// `Connection: close`, so each connection ends with the request it is serving.
import 'server-only';
import { processWide } from './process-wide';

const state = processWide('shutdown', () => ({ shuttingDown: false }));

export function markShuttingDown(): void {
  state.shuttingDown = true;
}

export function isShuttingDown(): boolean {
  return state.shuttingDown;
}

/** Marks the process on SIGTERM or SIGINT; Next's own listeners do the stopping. */
export function listenForShutdownSignals(): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, markShuttingDown);
}
