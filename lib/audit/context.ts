// Who is making a change, and through which request: what every audit record carries besides the
// change itself. Route handlers, server actions and operator commands each build one.
import 'server-only';
import type { Principal } from '../auth/tokens/credentials';
import { db } from '../db/client';
import { clientAddress, UNKNOWN_ADDRESS } from '../shared/client-address';
import { processWide } from '../process-wide';
import type { Actor } from './actions';

export type ChangeContext = { actor: Actor; requestId?: string; clientAddress?: string };

/** Changes made by an operator command on the server's machine. */
export const OPERATOR_COMMAND: ChangeContext = { actor: { type: 'system', name: 'cli' } };

// Token names and staff emails never change, so each is read once per process. Bounded: the
// oldest entries go first past this size.
const NAMES_CACHE_MAX = 1000;
const names = processWide('audit-actor-names', () => new Map<string, Promise<string>>());

function cachedName(key: string, read: () => Promise<string | undefined>): Promise<string> {
  let name = names.get(key);
  if (!name) {
    name = read().then((found) => found ?? '(deleted)');
    if (names.size >= NAMES_CACHE_MAX) names.delete(names.keys().next().value!);
    names.set(key, name);
    name.catch(() => names.delete(key));
  }
  return name;
}

/** The actor behind a bearer credential: the API token, or the staff member whose page is calling. */
export async function actorOf(principal: Principal): Promise<Actor> {
  if (principal.kind === 'api_token') {
    const id = principal.tokenId;
    const name = await cachedName(id, async () => (await db().apiToken.findUnique({ where: { id }, select: { name: true } }))?.name);
    return { type: 'token', id, name };
  }
  const id = principal.userId;
  const name = await cachedName(id, async () => (await db().user.findUnique({ where: { id }, select: { email: true } }))?.email);
  return { type: 'staff', id, name };
}

/** The context of an API request, once its caller is known. */
export async function requestContext(
  request: Request,
  context: { principal: Principal; requestId: string },
): Promise<ChangeContext> {
  return { actor: await actorOf(context.principal), requestId: context.requestId, clientAddress: clientAddressOf(request) };
}

/** The context of a signed-in staff member's change; a server action passes incomingRequest() (incoming-request.ts). */
export function staffContext(staff: { id: string; email: string }, request: Pick<ChangeContext, 'requestId' | 'clientAddress'> = {}): ChangeContext {
  return { actor: { type: 'staff', id: staff.id, name: staff.email }, ...request };
}

/** The address the request came from (lib/shared/client-address.ts), when one is known. */
export function clientAddressOf(request: Request | Headers): string | undefined {
  const address = clientAddress(request);
  return address === UNKNOWN_ADDRESS ? undefined : address;
}
