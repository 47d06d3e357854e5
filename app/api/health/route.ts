import { checkDatabase } from '@/lib/db/client';
import { databaseUnavailable } from '@/lib/http/error-response';
import { json } from '@/lib/http/respond';
import { withoutAuth } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const GET = withoutAuth(async () => {
  try {
    await checkDatabase();
  } catch {
    throw databaseUnavailable('The database does not answer');
  }
  return json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
});
