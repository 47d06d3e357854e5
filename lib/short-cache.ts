// A small, short-lived, process-wide cache of database reads on the API's hot path (a token's
// record, an account's state), so a busy client costs no read per request. An entry lives `ttlMs`:
// that bounds how long a change made by another instance (or by the CLI) goes unseen here; a
// change made through this process drops the entry at once (`forget`). Concurrent requests for
// the same key share one read; failed reads are never kept.
import { processWide } from './process-wide';
import { now as clockNow } from './shared/clock';

type Entry<V> = { fetchedAt: number; value: Promise<V> };

export type ShortCache<V> = {
  /** The cached value of `key`, or `load()`'s, which is then kept for ttlMs (when `keep` allows). */
  get(key: string, load: () => Promise<V>, now?: number): Promise<V>;
  forget(key: string): void;
  /** Drops every entry whose value matches (once it has been read). */
  forgetWhere(matches: (value: V) => boolean): void;
};

export function shortCache<V>(
  name: string,
  options: { ttlMs: number; maxEntries: number; keep?: (value: V) => boolean },
): ShortCache<V> {
  // One per process: a change made by a server action must reach the cache the API routes read.
  const entries = processWide(name, () => new Map<string, Entry<V>>());

  return {
    get(key, load, now = clockNow()) {
      const cached = entries.get(key);
      if (cached && now - cached.fetchedAt < options.ttlMs) return cached.value;
      const entry: Entry<V> = { fetchedAt: now, value: load() };
      entries.delete(key);
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, entry);
      const drop = () => void (entries.get(key) === entry && entries.delete(key));
      entry.value.then((value) => (options.keep && !options.keep(value) ? drop() : undefined), drop);
      return entry.value;
    },
    forget(key) {
      entries.delete(key);
    },
    forgetWhere(matches) {
      for (const [key, entry] of entries) {
        void entry.value.then(
          (value) => matches(value) && entries.get(key) === entry && entries.delete(key),
          () => undefined,
        );
      }
    },
  };
}
