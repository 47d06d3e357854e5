// The wrapper every API route goes through: request id, authentication, error mapping, access log.
// Route handlers then read as authenticate → parse → act → respond, with the mechanics here.
import 'server-only';
import type { Principal } from '../auth/tokens/bearer';
import { insufficientScope } from '../auth/tokens/credentials';
import type { Scope } from '../auth/scopes';
import { log } from '../log';
import { isShuttingDown } from '../shutdown';
import { authenticateWithinLimit } from './auth-failure-limit';
import { ApiError } from '../errors';
import { consumeRateLimit, rateLimitHeaders } from './rate-limit';
import { requestIdOf } from '../shared/request-id';
import { annotateRequestSpan } from '../tracing/spans';
import { errorResponse } from './error-response';

type RouteContext<Params> = { params: Promise<Params> };

export type ApiContext<Params> = {
  params: Params;
  requestId: string;
  /** Headers every answer carries, success or error (the RateLimit-* ones). */
  responseHeaders?: Record<string, string>;
};
export type AuthenticatedContext<Params> = ApiContext<Params> & { principal: Principal };

function wrap<Params, Context extends ApiContext<Params>>(
  prepare: (request: Request, base: ApiContext<Params>) => Promise<Context>,
  handler: (request: Request, context: Context) => Promise<Response>,
) {
  return async (request: Request, route: RouteContext<Params>): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    let response: Response;
    let context: Context | undefined;
    try {
      context = await prepare(request, { params: await route.params, requestId });
      response = await handler(request, context);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        log.error('request failed', {
          requestId,
          method: request.method,
          path: new URL(request.url).pathname,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
      response = errorResponse(error);
    }
    response.headers.set('x-request-id', requestId);
    // API answers are for one caller at one moment; a route that may be cached says so itself.
    if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'no-store');
    if (isShuttingDown()) response.headers.set('connection', 'close');
    for (const [name, value] of Object.entries(context?.responseHeaders ?? {})) response.headers.set(name, value);
    // With tracing on, the request's server span (Next's, or the direct path's) carries what this
    // answer's log line does: the request id, and the status in the stable attribute's name.
    annotateRequestSpan({ 'plant_store.request_id': requestId, 'http.response.status_code': response.status });
    // The path the router matched: request.url is never built on Host (the direct path builds it on
    // a fixed origin, Next on its own hostname and port, and server/main.ts has made an
    // absolute-form target a path before either), so a Host with a path cannot rewrite this.
    log.info('request', {
      requestId,
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
    return response;
  };
}

function rateLimitKey(principal: Principal): string {
  return principal.kind === 'api_token' ? `token:${principal.tokenId}` : `user:${principal.userId}`;
}

/**
 * An API route that requires a bearer token with `scope` and counts against the caller's rate
 * limit; the body is not read until the caller is known and allowed. A token without the scope
 * gets 403 (after being counted, so its answer carries the RateLimit-* headers too). Failed
 * authentications count against the client's address (lib/http/auth-failure-limit.ts).
 */
export function withAuth<Params = Record<string, never>>(
  scope: Scope,
  handler: (request: Request, context: AuthenticatedContext<Params>) => Promise<Response>,
) {
  return wrap<Params, AuthenticatedContext<Params>>(
    async (request, base) => {
      const principal = await authenticateWithinLimit(request);
      const rate = await consumeRateLimit(rateLimitKey(principal));
      return { ...base, principal, responseHeaders: rate ? rateLimitHeaders(rate) : undefined };
    },
    (request, context) => {
      if (!context.principal.scopes.includes(scope)) throw insufficientScope(scope);
      return handler(request, context);
    },
  );
}

/** An API route open to anyone (health checks, the OpenAPI document). */
export function withoutAuth<Params = Record<string, never>>(
  handler: (request: Request, context: ApiContext<Params>) => Promise<Response>,
) {
  return wrap<Params, ApiContext<Params>>(async (_request, base) => base, handler);
}

/** The 405 answer for methods a path does not support, with the `Allow` header. */
export function methodNotAllowed(allowed: readonly string[]) {
  const allow = [...allowed, 'OPTIONS'].join(', ');
  return withoutAuth(async (request) => {
    throw new ApiError('method_not_allowed', `${request.method} is not supported here; use ${allowed.join(' or ')}`, {
      Allow: allow,
    });
  });
}
