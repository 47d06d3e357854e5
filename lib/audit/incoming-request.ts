// The request a server action (or next-auth's route, or a page's route) is answering, as Next holds
// it: headers() reads it, as an API route reads its Request. Apart from context.ts, which the API's
// route handlers import, because the production server calls those handlers without Next's router
// (server/direct-routes.ts), where there is no headers() to call.
import 'server-only';
import { headers } from 'next/headers';
import { requestIdOf } from '../shared/request-id';
import { clientAddressOf, type ChangeContext } from './context';

/** The request id and client address of the request being answered under Next's router. */
export async function incomingRequest(): Promise<Pick<ChangeContext, 'requestId' | 'clientAddress'>> {
  const request = await headers();
  return { requestId: requestIdOf(request), clientAddress: clientAddressOf(request) };
}
