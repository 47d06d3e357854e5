// Counts per client address in fixed one-minute windows, in this process's memory: what the
// per-address limits (failed bearer authentications, password attempts) decide with. Counting in
// the database would cost a write per attempt, the very work these limits save; with N instances
// an address gets at most N times a limit. A count is checked and taken in one synchronous step,
// so a burst cannot all pass the check while the first are still in flight.
import 'server-only';
import { ApiError, type ErrorKind } from '../errors';
import { processWide } from '../process-wide';
import { WINDOW_MS } from './window';

// Counts of past windows are dropped past this many addresses; if all are current, the oldest goes.
const MAX_ADDRESSES = 10_000;

export type AddressWindow = { start: number; count: number };

/** The bucket an address counts in: one address, or for IPv6 its /64, which one client usually holds whole. */
export function addressBucket(address: string): string {
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** The seconds until `window` ends, at least 1: what Retry-After says. */
export const secondsLeftIn = (window: AddressWindow, now: number) => Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));

/** The 429 of a limit whose `window` holds its `limit` of `what` (the Error `kind`), with Retry-After. */
export function limitReached(kind: ErrorKind, what: string, limit: number, window: AddressWindow, now: number): ApiError {
  const retryAfter = secondsLeftIn(window, now);
  return new ApiError(kind, `Too many ${what} from this address: ${limit} a minute are allowed; retry in ${retryAfter} s`, {
    'Retry-After': String(retryAfter),
  });
}

/** One limit's windows, by address bucket; `name` keeps each limit's counts apart in the process. */
export function addressWindows(name: string) {
  const windows = processWide(`address-windows:${name}`, () => new Map<string, AddressWindow>());
  return {
    /** The current window of `address`'s bucket, if it has one: nothing is made. */
    current(address: string, now: number): AddressWindow | undefined {
      const current = windows.get(addressBucket(address));
      return current && current.start === now - (now % WINDOW_MS) ? current : undefined;
    },
    /** The current window of `address`'s bucket, made on first use. */
    of(address: string, now: number): AddressWindow {
      const bucket = addressBucket(address);
      const start = now - (now % WINDOW_MS);
      const current = windows.get(bucket);
      if (current && current.start === start) return current;
      if (windows.size >= MAX_ADDRESSES) {
        for (const [stale, window] of windows) if (window.start < start) windows.delete(stale);
        if (windows.size >= MAX_ADDRESSES) windows.delete(windows.keys().next().value!);
      }
      const fresh = { start, count: 0 };
      windows.set(bucket, fresh);
      return fresh;
    },
  };
}
