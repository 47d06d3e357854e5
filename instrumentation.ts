// Runs once when the server process starts (Next.js instrumentation hook).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { markShuttingDown } = await import('./lib/shutdown');
  // Next stops accepting and drains on these signals; this listener only marks the process.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, markShuttingDown);
}
