// The signed-in page trades its session cookie for a short-lived bearer token to call the API.
// POST, so a cross-site page cannot make the browser send the SameSite=Lax cookie along.
import { issueSessionToken } from '@/lib/auth/tokens/session-token';
import { currentStaff } from '@/lib/auth/sessions/current-staff';
import { ApiError } from '@/lib/errors';
import { json } from '@/lib/http/respond';
import { methodNotAllowed, withoutAuth } from '@/lib/http/route';

export const POST = withoutAuth(async () => {
  const staff = await currentStaff();
  if (!staff) throw new ApiError('missing_token', 'Sign in first: there is no staff session');
  return json(await issueSessionToken(staff), { headers: { 'cache-control': 'no-store' } });
});

export const GET = methodNotAllowed(['POST']);
