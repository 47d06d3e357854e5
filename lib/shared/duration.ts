// Durations in settings: a number and a unit (ms, s, m, h, d), such as 5s, 30m or 24h.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** The duration `text` names, in ms, or null when it is not one. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  return match ? Math.round(Number(match[1]) * UNIT_MS[match[2]]) : null;
}
