// /api/auth/*: next-auth's handler, given a request this module has made safe. next-auth's App
// Router entry reads the whole body before anything can refuse it
// (docs/performance.md#sign-in-and-password-hashing), takes its origin from X-Forwarded-Host, and
// answers a callbackUrl it cannot parse with a 500. Its other entry, the one pages/api routes use,
// takes plain objects; through it, the body is read within a small limit, every callbackUrl is a
// path on this site, the origin is the configured one, and the answer names no origin a client
// chose and is never cached. Before anything is read, the path and method must be one of
// next-auth's endpoints as this app uses them (lib/auth/sessions/next-auth-endpoints.ts; else 404
// or 405), and a sign-in is admitted: each client address has an allowance of password attempts a
// minute (lib/auth/passwords/admission.ts), past which the answer is a 429 with Retry-After (the
// production server gives the same answer before Next's router once the allowance is spent:
// lib/http/sign-in-door.ts); one that finds the global cap on password hashing full is a 503 with
// Retry-After. Sign-in through the identity provider has its own steps around next-auth
// (lib/http/oidc-sign-in.ts).
import 'server-only';
import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { readLimitedText } from './body';
import { clientAddress } from '../shared/client-address';
import { ApiError } from '../errors';
import { publicOrigin } from './origin';
import { errorResponse } from './error-response';
import { uncached } from './respond';
import { log } from '../log';
import { authOptions } from '../auth/sessions/next-auth';
import { admitPasswordAttempt, PasswordHashingBusyError } from '../auth/passwords/admission';
import { nextAuthRequest } from '../auth/sessions/next-auth-endpoints';
import { returnPathOn } from '../auth/sessions/return-path';
import { isCallbackUrlCookie } from '../auth/sessions/server-session';
import { busySecondsOf } from '../auth/sessions/sign-in-refusal';
import { secondStepTokenOf } from '../auth/second-factor/second-step';
import { beginOidcStep } from './oidc-sign-in';

/** Room for an email, a password of up to 1,024 characters, a CSRF token and a return path. */
export const AUTH_BODY_LIMIT_BYTES = 8 * 1024;

// Where next-auth believes it is when no public origin is configured: a host that cannot exist
// (RFC 2606). It is cut out of every answer, leaving paths the browser resolves against the
// address it used, so nothing a client sent in Host can come back as an absolute URL.
const UNNAMED_ORIGIN = 'http://plant-store.invalid';

type RouteContext = { params: Promise<{ nextauth?: string[] }> };
type Fields = Record<string, unknown>;

export async function handleAuthRequest(request: Request, context: RouteContext): Promise<Response> {
  try {
    const segments = (await context.params).nextauth ?? [];
    const { passwordAttempt, dropped, oidc: oidcStep } = nextAuthRequest(request.method, segments);
    // Clients may post to next-auth's `_log` to have lines written to the server's error log; this
    // app's pages never do, and nobody else should.
    if (dropped) return uncached(new Response(null, { status: 204 }));
    const oidc = oidcStep ? await beginOidcStep(oidcStep, request) : null;
    if (oidc instanceof Response) return uncached(oidc);
    const attempt = passwordAttempt ? admitPasswordAttempt(clientAddress(request)) : null;
    const origin = publicOrigin(request) ?? UNNAMED_ORIGIN;
    const body = request.method === 'POST' ? await readAuthBody(request) : undefined;
    const query: Fields = Object.fromEntries(new URL(request.url).searchParams);
    const { cookies: jar } = new NextRequest(request.url, { headers: request.headers });
    const cookies = Object.fromEntries(jar.getAll().map((cookie) => [cookie.name, cookie.value]));

    // next-auth answers a callbackUrl it cannot parse with a 500, and sends people wherever one
    // says; each becomes a path on this site first (its redirect callback checks again).
    for (const fields of [query, body]) if (fields && 'callbackUrl' in fields) fields.callbackUrl = returnPathOn(origin, fields.callbackUrl);
    for (const name of Object.keys(cookies)) {
      if (isCallbackUrlCookie(name)) cookies[name] = returnPathOn(origin, cookies[name]);
    }
    const { host, protocol } = new URL(origin);
    const headers = { ...Object.fromEntries(request.headers), 'x-forwarded-host': host, 'x-forwarded-proto': protocol.slice(0, -1) };

    const answer = new CollectedAnswer();
    const runNextAuth = () =>
      NextAuth({ method: request.method, query: { ...query, nextauth: segments }, body, cookies, headers } as never, answer as never, authOptions());
    await (oidc ? oidc.run(runNextAuth) : runNextAuth());
    const refusal = answer.signInError();
    if (refusal !== null && busySecondsOf(refusal) !== null) return uncached(errorResponse(new PasswordHashingBusyError()));
    // A sign-in that succeeded gives its attempt back: the allowance is for failures. So does a
    // right password that the second factor's code is to follow (the code is counted in its turn).
    if (attempt && (answer.startsSession() || (refusal !== null && secondStepTokenOf(refusal) !== null))) attempt.succeeded();
    const response = answer.toResponse(origin === UNNAMED_ORIGIN ? UNNAMED_ORIGIN : null);
    return uncached(oidc ? await oidc.settle(response) : response);
  } catch (error) {
    if (!(error instanceof ApiError)) {
      log.error('sign-in route failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
    return uncached(errorResponse(error));
  }
}

/** The form or JSON body next-auth reads, refused past AUTH_BODY_LIMIT_BYTES before it is all read. */
async function readAuthBody(request: Request): Promise<Fields | undefined> {
  const text = await readLimitedText(request, AUTH_BODY_LIMIT_BYTES);
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  if (!type.includes('application/json')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
  } catch {
    return undefined;
  }
}

/** The response object next-auth's pages/api entry writes to, collected into a web Response. */
class CollectedAnswer {
  private statusCode = 200;
  private readonly headers = new Headers();
  private body: string | null = null;

  status(code: number) {
    this.statusCode = code;
    return this;
  }

  getHeader(name: string) {
    return name.toLowerCase() === 'set-cookie' ? this.headers.getSetCookie() : (this.headers.get(name) ?? undefined);
  }

  setHeader(name: string, value: string | string[]) {
    this.headers.delete(name);
    for (const item of [value].flat()) this.headers.append(name, item);
    return this;
  }

  json(value: unknown) {
    this.headers.set('content-type', 'application/json');
    this.body = JSON.stringify(value);
  }

  send(value: unknown) {
    this.body = value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value);
  }

  end() {}

  /** The reason next-auth gives for a refused sign-in (the `error` parameter of where it sends the browser), or null. */
  signInError(): string | null {
    let target = this.headers.get('location');
    if (!target && this.body !== null) {
      try {
        target = (JSON.parse(this.body) as { url?: string }).url ?? null;
      } catch {
        target = null;
      }
    }
    return target ? new URL(target, UNNAMED_ORIGIN).searchParams.get('error') : null;
  }

  /** Whether the answer sets a session cookie: a sign-in that succeeded. */
  startsSession(): boolean {
    return this.headers.getSetCookie().some((cookie) => /^(__Secure-)?next-auth\.session-token=[^;]/.test(cookie));
  }

  /** The Response; with `unnamedOrigin`, every URL on it is cut down to its path. */
  toResponse(unnamedOrigin: string | null): Response {
    let body = this.body;
    if (unnamedOrigin) {
      const pathOnly = (text: string) => text.replaceAll(unnamedOrigin, '').replaceAll(encodeURIComponent(unnamedOrigin), '');
      const location = this.headers.get('location');
      if (location) this.headers.set('location', pathOnly(location) || '/');
      if (body !== null) body = pathOnly(body);
    }
    return new Response(body, { status: this.statusCode, headers: this.headers });
  }
}
