// Requests per caller on SQLite (the RateCounter of lib/db/stores.ts): one process serves an SQLite
// file, so the counts are kept in this process's memory, and counting costs no statement at all on
// the path every API request takes.
import 'server-only';
import { processWide } from '../../process-wide';
import type { RateCounter } from '../stores';

// Memory bound: entries of past windows are dropped past this size.
const MAX_IN_MEMORY_KEYS = 10_000;

const counts = processWide('rate-limit-counts', () => new Map<string, { windowStart: number; count: number }>());

export const sqliteRateCounter: RateCounter = {
  count(key, windowStart) {
    const entry = counts.get(key);
    if (entry && entry.windowStart === windowStart) return ++entry.count;
    if (counts.size >= MAX_IN_MEMORY_KEYS) {
      for (const [staleKey, stale] of counts) if (stale.windowStart < windowStart) counts.delete(staleKey);
    }
    counts.set(key, { windowStart, count: 1 });
    return 1;
  },
};
