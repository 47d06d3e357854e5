// The id that ties a request's answer, log lines and audit records together: the caller's own
// X-Request-Id when it is a sensible one (a proxy in front may have set it), else a fresh one.
import 'server-only';

const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdOf(source: Request | Headers): string {
  const headers = source instanceof Headers ? source : source.headers;
  const given = headers.get('x-request-id');
  return given && CALLER_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}
