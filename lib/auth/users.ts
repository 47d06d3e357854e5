// Staff accounts: an email and a scrypt password hash.
import { z } from 'zod';
import { db } from '../db/client';
import { randomId } from '../ids';
import { hashPassword, PASSWORD_MIN_LENGTH } from './password';

export const StaffEmail = z.email({ error: 'must be an email address' }).max(254).transform((email) => email.toLowerCase());
export const StaffPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { error: `must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(1024, { error: 'must be at most 1024 characters' });

export function findUserByEmail(email: string) {
  return db().user.findUnique({ where: { email: email.trim().toLowerCase() } });
}

export function countUsers(): Promise<number> {
  return db().user.count();
}

export class DuplicateEmailError extends Error {}

export async function createUser(email: string, password: string) {
  const existing = await findUserByEmail(email);
  if (existing) throw new DuplicateEmailError(`A staff account with the email ${email} already exists`);
  return db().user.create({
    data: { id: randomId('usr_'), email, passwordHash: await hashPassword(password) },
    select: { id: true, email: true, createdAt: true },
  });
}
