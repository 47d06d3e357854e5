// The Prisma client, as Prisma's Next.js guide sets it up: one client on a driver adapter, kept on
// globalThis in development so that hot reloads do not open a client each. It is the Plant Store's
// own generated SQLite client (prisma/schema.prisma), so this app works on the same tables as the
// project; a typical app would import its own generated client the same way.
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '../../../lib/db/generated/sqlite/client';

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

const adapter = new PrismaBetterSqlite3({ url: process.env.DATABASE_URL ?? 'file:./dev.db' });

export const prisma = globalForPrisma.prisma ?? new PrismaClient({ adapter });

if (process.env.NODE_ENV !== 'production') globalForPrisma.prisma = prisma;
