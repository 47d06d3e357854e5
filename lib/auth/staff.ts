// Who is signed in, for pages and server actions.
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { cache } from 'react';
import { db } from '../db/client';
import { authOptions } from './next-auth';

export type Staff = { id: string; email: string };

/**
 * The signed-in staff member, or null. A session whose account was deleted counts as none.
 * Cached per request: the staff layout and its page both ask, and one cookie decode and one
 * read answer both.
 */
export const currentStaff = cache(async (): Promise<Staff | null> => {
  // A session exists only at request time; without this the build would try to prerender staff
  // pages, and read (or, on SQLite, invent) the signing secret while doing so.
  await connection();
  const session = await getServerSession(authOptions());
  const id = (session?.user as { id?: string } | undefined)?.id;
  if (!id) return null;
  return db().user.findUnique({ where: { id }, select: { id: true, email: true } });
});

/** For staff pages: the signed-in staff member, or a redirect to /login that comes back to `returnTo`. */
export async function requireStaff(returnTo: string): Promise<Staff> {
  const staff = await currentStaff();
  if (!staff) redirect(`/login?callbackUrl=${encodeURIComponent(returnTo)}`);
  return staff;
}
