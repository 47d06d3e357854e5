// POST /plants as a typical first implementation writes it, following the Next.js and Prisma docs:
// the bench's measure of what the Plant Store's own route is held against (docs/performance.md#npm-run-bench).
// Kept plain on purpose: no audit record, no webhook event, no exact int64 ids (request.json() is
// JSON.parse, so an id above 2^53 arrives rounded, and zod's int() then refuses it), no retry
// handling beyond a duplicate id's 409, no access log, no rate limit.
import { createHash } from 'node:crypto';
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { Prisma } from '../../../../lib/db/generated/sqlite/client';
import { prisma } from '../../lib/prisma';

const NewPlant = z.object({
  id: z.number().int(),
  name: z.string().min(1),
  tag: z.string().optional(),
});

// The Plant Store contract's Error: a numeric code and a message.
const error = (status: number, message: string) => NextResponse.json({ error: status, message }, { status });

export async function POST(request: Request) {
  const token = request.headers.get('authorization')?.match(/^Bearer (.+)$/)?.[1];
  if (!token) return error(401, 'Missing bearer token');
  // Tokens are stored as their SHA-256, as the Plant Store's are.
  const hash = createHash('sha256').update(token).digest('hex');
  const apiToken = await prisma.apiToken.findUnique({ where: { hash } });
  if (!apiToken || apiToken.revokedAt || (apiToken.expiresAt && apiToken.expiresAt < new Date())) {
    return error(401, 'Invalid token');
  }

  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return error(400, 'The body is not JSON');
  }
  const parsed = NewPlant.safeParse(body);
  if (!parsed.success) return error(400, parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));

  try {
    const plant = await prisma.plant.create({
      data: parsed.data,
      select: { id: true, name: true, tag: true },
    });
    // Prisma reads a BigInt column as a bigint, which JSON.stringify cannot write: a number it is.
    return NextResponse.json({ ...plant, id: Number(plant.id) });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') return error(409, 'A plant with this id already exists');
    throw e;
  }
}
