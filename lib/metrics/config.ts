// METRICS: on (the default) or off. Read apart from the registry so npm start can check it without
// loading prom-client. Off, nothing is recorded (npm run bench's metrics target,
// bench/run/metrics-comparison.ts, measures what recording costs) and GET /metrics answers an
// empty exposition.

/** Whether this process records metrics (METRICS=off turns them off); throws on a value that is neither. */
export function metricsEnabled(): boolean {
  const configured = process.env.METRICS?.trim().toLowerCase();
  if (!configured || configured === 'on') return true;
  if (configured === 'off') return false;
  throw new Error(`METRICS must be "on" or "off", got "${process.env.METRICS}"`);
}
