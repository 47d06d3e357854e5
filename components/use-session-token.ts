'use client';
// Keeps a fresh session token for the page's API calls: renewed a minute before it expires, and
// on demand when a call finds it stale. A 401 on renewal means the sign-in itself has ended.
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef } from 'react';

export type SessionToken = { token: string; expiresAt: string };

const RENEW_BEFORE_MS = 60_000;

export class SignedOutError extends Error {}

async function fetchSessionToken(): Promise<SessionToken> {
  const response = await fetch('/api/session-token', { method: 'POST', cache: 'no-store' });
  if (response.status === 401) throw new SignedOutError('Your sign-in has ended');
  if (!response.ok) throw new Error(`The server answered ${response.status}`);
  return response.json();
}

/** Returns a function that resolves to a token valid for at least another minute. */
export function useSessionToken(initial: SessionToken): () => Promise<string> {
  const current = useRef(initial);
  const pending = useRef<Promise<SessionToken> | null>(null);

  const renew = useCallback(() => {
    pending.current ??= fetchSessionToken()
      .then((fresh) => (current.current = fresh))
      .finally(() => (pending.current = null));
    return pending.current;
  }, []);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      const due = Date.parse(current.current.expiresAt) - RENEW_BEFORE_MS - Date.now();
      timer = setTimeout(() => renew().then(schedule, () => undefined), Math.max(due, 1_000));
    };
    schedule();
    return () => clearTimeout(timer);
  }, [renew]);

  return useCallback(async () => {
    const fresh = Date.parse(current.current.expiresAt) - Date.now() > RENEW_BEFORE_MS;
    return fresh ? current.current.token : (await renew()).token;
  }, [renew]);
}

export const UNREACHABLE_MESSAGE = 'Could not reach the server. Check your connection and try again.';

/**
 * For a page's API calls: resolves to a fresh token, or to null once it has dealt with there being
 * none. A sign-in that has ended goes to the sign-in page (coming back to `returnTo`); a server out
 * of reach is reported through `onUnreachable`.
 */
export function useBearer(initial: SessionToken, returnTo: string, onUnreachable: (message: string) => void): () => Promise<string | null> {
  const tokenForRequest = useSessionToken(initial);
  const router = useRouter();
  return useCallback(async () => {
    try {
      return await tokenForRequest();
    } catch (error) {
      if (error instanceof SignedOutError) router.push(`/login?callbackUrl=${encodeURIComponent(returnTo)}`);
      else onUnreachable(UNREACHABLE_MESSAGE);
      return null;
    }
  }, [tokenForRequest, router, returnTo, onUnreachable]);
}
