// Runs once when a server process starts (Next.js instrumentation hook).
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // Traces only when an OTLP endpoint is configured: otherwise the SDK is never even loaded.
    const { tracingConfigured } = await import('./lib/tracing/config');
    const { settings } = await import('./lib/settings');
    if (tracingConfigured() && process.env.NEXT_PHASE !== 'phase-production-build') {
      await (await import('./lib/tracing/sdk')).startTracing();
    }
    const { listenForShutdownSignals } = await import('./lib/shutdown');
    listenForShutdownSignals();
    // Not awaited: the server answers while the hint is worked out.
    void import('./lib/auth/accounts/staff-hint').then(({ hintWhenNoStaff }) => hintWhenNoStaff());
    // A long-running server delivers webhooks, prunes old records and takes scheduled backups
    // itself; on Vercel, where no process outlives its response, after() and the cron routes do (see
    // lib/webhooks/wake.ts). It marks the database as served before it answers anything, so a
    // restore started once the server answers is refused.
    if (!settings().VERCEL && process.env.NEXT_PHASE !== 'phase-production-build') {
      const { holdDatabase, startBackgroundWork } = await import('./lib/background');
      holdDatabase();
      void startBackgroundWork();
    }
  }
}
