// Runs once when a server process starts (Next.js instrumentation hook).
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { listenForShutdownSignals } = await import('./lib/shutdown');
    listenForShutdownSignals();
    // Not awaited: the server answers while the hint is worked out.
    void import('./lib/auth/staff-hint').then(({ hintWhenNoStaff }) => hintWhenNoStaff());
  }
}
