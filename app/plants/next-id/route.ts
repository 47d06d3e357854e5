import { json } from '@/lib/http/respond';
import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { nextFreeId } from '@/lib/plants/service';

export const GET = withAuth('plants:read', async () => json({ id: await nextFreeId() }));

export const POST = methodNotAllowed(['GET', 'HEAD']);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
