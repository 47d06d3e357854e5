// What a page request tells Next.js in Next's own protocol, checked before Next acts on it. Next
// answers 500 when it cannot read its router state header or a Server Action's body, and 16.3 also
// to a form that names no action: a client's malformed input, not a fault of the server's. These read them as Next does, with Next's own
// parsers where they are exported, and the request gets a 400 (40006) instead; what parses goes on
// to Next untouched. A Next without one of those parsers (server/next-internals.ts) gets the
// request unchecked, as it would without this module.
//   - The router state header: server/main.ts, before Next (Next strips its own protocol headers
//     from what proxy.ts sees). So on Vercel, where main.mjs does not run, Next still answers 500.
//   - A Server Action's body: proxy.ts, which Next runs on Vercel too.
import type { NextRequest } from 'next/server';
import { getServerActionRequestMetadata, mightBeServerReferenceId, parseAndValidateFlightRouterState } from '../../server/next-internals';
import { ApiError } from '../errors';

// Next's serverActions.bodySizeLimit (its default; next.config.js does not change it). A larger body
// is Next's to refuse (413) as it reads it, so it is not read here.
const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Why Next could not read the router state of a page request, or null. Next reads it from an RSC
 * request (`RSC: 1`) whatever its method (this app has no partial prerendering, so prefetches too).
 */
export function unreadableRouterState(rsc: string | string[] | undefined, state: string | string[] | undefined): string | null {
  if (rsc !== '1' || !parseAndValidateFlightRouterState) return null;
  try {
    parseAndValidateFlightRouterState(state);
    return null;
  } catch {
    return 'The Next-Router-State-Tree header could not be read: send the one the page gave you, or none';
  }
}

// The fields a form names its action in, as Next reads them (action-handler.ts, areAllActionIdsValid):
// `$ACTION_ID_<id>` for an action without bound arguments; `$ACTION_REF_<n>` with the action's
// descriptor in `$ACTION_<n>:0` (`{"id":"<id>",...}`) for one with them, at most two (the form's and
// its submit button's). Whether an id of the right shape is one of this build's actions is left to
// Next, which knows them.
const ACTION_ID = '$ACTION_ID_';
const ACTION_REF = '$ACTION_REF_';
const DESCRIPTOR_PREFIX = '{"id":"';
const MAX_ACTION_REFS = 2;

function mightBeActionId(id: string): boolean {
  return mightBeServerReferenceId ? mightBeServerReferenceId(id) : id.length > 0;
}

/** Whether a form posted without Next-Action names an action in a shape Next reads. */
function namesAnAction(fields: FormData): boolean {
  let named = false;
  let refs = 0;
  for (const key of fields.keys()) {
    if (key.startsWith(ACTION_ID)) {
      if (!mightBeActionId(key.slice(ACTION_ID.length))) return false;
      named = true;
    } else if (key.startsWith(ACTION_REF)) {
      if (++refs > MAX_ACTION_REFS) return false;
      const descriptors = fields.getAll(`$ACTION_${key.slice(ACTION_REF.length)}:0`);
      const descriptor = descriptors.length === 1 ? descriptors[0] : null;
      if (typeof descriptor !== 'string' || !descriptor.startsWith(DESCRIPTOR_PREFIX)) return false;
      const end = descriptor.indexOf('"', DESCRIPTOR_PREFIX.length);
      if (end === -1 || !mightBeActionId(descriptor.slice(DESCRIPTOR_PREFIX.length, end))) return false;
      named = true;
    }
  }
  return named;
}

const unreadable = (message: string) => new ApiError('unreadable_page_request', message);

/** Why Next could not read this request's Server Action body, as an ApiError, or null when it can. */
export async function unreadableActionBody(request: NextRequest): Promise<ApiError | null> {
  if (request.method !== 'POST' || !getServerActionRequestMetadata) return null;
  const { isMultipartAction, isFetchAction } = getServerActionRequestMetadata(request);
  if (!isMultipartAction && !isFetchAction) return null;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (!(declared <= ACTION_BODY_LIMIT_BYTES)) return null;

  // proxy.ts reads a copy: Next keeps the body for the page (up to proxyClientMaxBodySize, 10 MiB).
  // Node's parser holds a body to its Content-Length, so this one is within the limit.
  const body = await request.arrayBuffer().catch(() => null);
  if (body === null) return null;
  if (isMultipartAction) {
    // As Next parses a form's body (undici's multipart parser, the Content-Type as sent).
    const form = new Request('http://n/', { method: 'POST', headers: { 'content-type': request.headers.get('content-type') ?? '' }, body });
    const fields = await form.formData().catch(() => null);
    if (fields === null) return unreadable('The form data of this Server Action request could not be read');
    // A form posted without Next-Action names its action in its fields; one that names none, or
    // names one in a shape no action has, is refused by Next: 400 since 16.4, 500 before.
    return isFetchAction || namesAnAction(fields) ? null : unreadable('This form names no Server Action: post the form the page gave you');
  }
  // A fetch action's other bodies are the JSON text of its arguments (React's encodeReply).
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    return null;
  } catch {
    return unreadable('The body of this Server Action request is not the JSON of its arguments');
  }
}
