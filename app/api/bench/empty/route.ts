// The benchmark's ceiling (bench/run.ts): the cheapest POST this Next.js app can answer, so
// `POST /plants` can be compared with what the framework alone costs. It reads the body and
// answers a constant: no auth, no database, no logging. Outside a benchmark run it does not
// exist: it answers 404 unless the server was started with PLANT_STORE_BENCH_ROUTES=1.
// Like /plants, /api/ paths are outside proxy.ts's matcher, so both get the same treatment.
import { settings } from '@/lib/settings';

// Read the settings on every request, never at build time.
export const dynamic = 'force-dynamic';

async function handle(request: Request): Promise<Response> {
  if (!settings().PLANT_STORE_BENCH_ROUTES) return new Response(null, { status: 404 });
  await request.text();
  return Response.json({ ok: true });
}

export const GET = handle;
export const POST = handle;
