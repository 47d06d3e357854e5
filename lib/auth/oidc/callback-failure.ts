// Why next-auth refused the provider's answer at /api/auth/callback/oidc. next-auth tells the browser
// only "OAuthCallback" or "Callback", and tells its logger the error itself (openid-client's: "state
// mismatch", "nonce mismatch", "unexpected JWT aud", a connection refused...). The sign-in route runs
// next-auth inside noteCallbackFailures, the logger hands each failure here, and the route then
// names the refusal the page shows (lib/auth/oidc/refusals.ts) and writes the reason to the audit trail.
import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { processWide } from '../../process-wide';
import type { OidcRefusal } from './refusals';

type Noted = { reason?: string };

const noted = processWide('oidc-callback-failures', () => new AsyncLocalStorage<Noted>());

/** Runs `work` (next-auth answering a callback), keeping the failure its logger reports; resolves to it too. */
export async function noteCallbackFailures<T>(work: () => Promise<T>): Promise<{ result: T; reason: string | null }> {
  const store: Noted = {};
  const result = await noted.run(store, work);
  return { result, reason: store.reason ?? null };
}

/** next-auth's logger reports a failed OAuth callback (`metadata` is the error, or `{ error }`). */
export function noteCallbackFailure(metadata: unknown): void {
  const store = noted.getStore();
  if (!store || store.reason) return;
  const error = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | undefined)?.error;
  // next-auth wraps openid-client's error, keeping its stack, whose first line names the original.
  const text = error instanceof Error ? (error.stack?.split('\n', 1)[0] ?? error.message) : String(error ?? 'unknown');
  store.reason = text.slice(0, 300);
}

// Failures of reaching the provider, not of its answer: openid-client's timeouts and Node's network errors.
const UNREACHABLE = /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|timed out|socket hang up|expected 200 OK/i;

/** The refusal the page shows for a callback next-auth refused; `providerError` is the `error` parameter the provider sent, if any. */
export function callbackRefusal(providerError: string | null, reason: string | null): OidcRefusal {
  if (providerError) return 'OidcProviderRefused';
  if (reason && UNREACHABLE.test(reason)) return 'OidcUnavailable';
  return 'OidcTryAgain';
}
