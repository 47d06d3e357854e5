import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { EXPOSITION_CONTENT_TYPE } from '@/lib/metrics/registry';
import { scrape } from '@/lib/metrics/scrape';

export const dynamic = 'force-dynamic';

// This instance's metrics, for Prometheus and its kin to scrape (docs/operations.md, Metrics).
export const GET = withAuth('metrics:read', async () => new Response(await scrape(), { headers: { 'content-type': EXPOSITION_CONTENT_TYPE } }));

export const POST = methodNotAllowed(['GET', 'HEAD']);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
