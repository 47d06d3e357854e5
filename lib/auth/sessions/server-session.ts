// next-auth's session, for pages, server actions and routes, read from the request's cookies with
// its callback-url cookie left out. next-auth answers a callback-url it cannot parse with an error,
// and getServerSession throws it: any visitor (or a sibling subdomain) could make every page a 500
// with one cookie. Reading a session never needs it; /api/auth reads it and makes it safe first
// (lib/http/next-auth-route.ts).
import 'server-only';
import { getServerSession } from 'next-auth';
import { cookies, headers } from 'next/headers';
import { authOptions } from './next-auth';

/** next-auth's callback-url cookie, under either of its names (with `__Secure-` in production). */
export const isCallbackUrlCookie = (name: string) => /^(__Secure-)?next-auth\.callback-url$/.test(name);

// getServerSession's request-and-response form writes refreshed cookies here; a page cannot set
// cookies anyway, which is what its other form does too.
const NO_RESPONSE = { getHeader: () => undefined, setHeader: () => undefined, setCookie: () => undefined };

export async function serverSession() {
  const [headerList, jar] = await Promise.all([headers(), cookies()]);
  const sent = Object.fromEntries(jar.getAll().filter((cookie) => !isCallbackUrlCookie(cookie.name)).map((cookie) => [cookie.name, cookie.value]));
  return getServerSession({ headers: Object.fromEntries(headerList), cookies: sent } as never, NO_RESPONSE as never, authOptions());
}
