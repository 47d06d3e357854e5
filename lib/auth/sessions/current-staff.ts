// Who is signed in, for pages and server actions, and what their role lets them open. Every page
// asks here itself, and every server action through lib/auth/server-action.ts: hiding a link is
// not a permission check.
import 'server-only';
import { forbidden, redirect } from 'next/navigation';
import { connection } from 'next/server';
import { cache } from 'react';
import { db } from '../../db/client';
import { log } from '../../log';
import { safeReturnPath } from './return-path';
import { isRole, type Role } from '../scopes';
import { serverSession } from './server-session';
import { isRequiredOf, secondFactorRequirement } from '../second-factor/policy';

export type Staff = { id: string; email: string; role: Role; sessionVersion: number };

/** Where a signed-in account the store asks for a second factor, and that has none, is sent first. */
export const ENROL_PATH = '/enrol';

/**
 * The signed-in staff member, or null. The session must still be current: its account exists,
 * is not disabled, and has not moved to a new session version since the cookie was issued. That
 * is read from the database itself, not a cache, so a change anywhere counts from the next page.
 * Null too while the store asks the account for a second factor it does not have (after a password
 * sign-in; not after one through the identity provider): until it enrols
 * (on ENROL_PATH, through enrollingStaff) no page, server action or page token serves it.
 * Cached per request: the staff layout and its page both ask, and one read answers both.
 */
export const currentStaff = cache(async (): Promise<Staff | null> => {
  const session = await sessionStaff();
  return session && !session.mustEnrol ? session.staff : null;
});

/** The account signed in, and whether it must enrol a second factor before anything else; null when no session is current. */
const sessionStaff = cache(async (): Promise<{ staff: Staff; mustEnrol: boolean } | null> => {
  // A session exists only at request time; without this the build would try to prerender staff
  // pages, and read (or, on SQLite, invent) the signing secret while doing so.
  await connection();
  const session = await serverSession();
  const { id, ver, via } = (session?.user ?? {}) as { id?: string; ver?: number; via?: 'password' | 'oidc' };
  if (!id) return null;
  const row = await db().user.findUnique({
    where: { id },
    select: { id: true, email: true, role: true, disabledAt: true, sessionVersion: true, secondFactor: { select: { confirmedAt: true } } },
  });
  if (!row || row.disabledAt || row.sessionVersion !== ver) return null;
  const role = isRole(row.role) ? row.role : 'staff';
  // The rule is for password sign-ins: a session the identity provider vouched for answers to the
  // provider's own second factor, and its sign-in never asks for this one.
  const mustEnrol = via !== 'oidc' && !row.secondFactor?.confirmedAt && isRequiredOf(await secondFactorRequirement(), role);
  return { staff: { id: row.id, email: row.email, role, sessionVersion: row.sessionVersion }, mustEnrol };
});

/** The signed-in account whether or not it must enrol a second factor first: for the enrolment page and its actions only. */
export async function enrollingStaff(): Promise<{ staff: Staff; mustEnrol: boolean } | null> {
  return sessionStaff();
}

/** For staff pages: the signed-in staff member, or a redirect to /login (or to enrol a second factor) that comes back to `returnTo`. */
export async function requireStaff(returnTo: string): Promise<Staff> {
  const session = await sessionStaff();
  const back = encodeURIComponent(safeReturnPath(returnTo));
  if (!session) redirect(`/login?callbackUrl=${back}`);
  if (session.mustEnrol) redirect(`${ENROL_PATH}?callbackUrl=${back}`);
  return session.staff;
}

/** For admin pages: as requireStaff, and a 403 page (with a log line) for anyone else. */
export async function requireAdmin(returnTo: string): Promise<Staff> {
  const staff = await requireStaff(returnTo);
  if (staff.role !== 'admin') {
    log.warn('page refused: admins only', { path: returnTo, userId: staff.id, role: staff.role });
    forbidden();
  }
  return staff;
}
