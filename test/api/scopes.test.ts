// Scopes: every operation the published document lists says which scope it needs, and the
// server holds every operation to exactly that (403 40301 without it, RFC 6750 §3.1).
import { describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';
import { authenticate } from '../../lib/auth/tokens/bearer';
import { issueSessionToken } from '../../lib/auth/tokens/session-token';
import { SCOPES, type Scope } from '../../lib/auth/scopes';
import { db } from '../../lib/db/client';
import { newAccount } from '../support/accounts';
import { expectError, request, sharedServer, uniqueId } from '../support/api';

type Operation = { method: string; path: string; scope: Scope };

async function documentedOperations(): Promise<Operation[]> {
  const { body } = await request(sharedServer(), '/openapi.json');
  const document = body as { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const security = operation.security;
      if (security?.length === 0) continue; // open to anyone (the health check)
      expect(security, `${method} ${path} must name its scope`).toHaveLength(1);
      const scopes = security![0].bearerAuth;
      expect(scopes, `${method} ${path} must need exactly one scope`).toHaveLength(1);
      expect(SCOPES).toContain(scopes[0]);
      operations.push({ method: method.toUpperCase(), path, scope: scopes[0] as Scope });
    }
  }
  return operations;
}

/** A well-formed call of the operation (a valid body where one is needed, an id for {id}). */
function call({ method, path }: Operation, token: string) {
  const concretePath = path.replace('{id}', String(uniqueId()));
  const body = method === 'POST' && path === '/plants' ? `{"id": ${uniqueId()}, "name": "Scoped"}` : undefined;
  return request(sharedServer(), concretePath, { method, token, body });
}

const tokenWith = async (scopes: Scope[]) => (await createApiToken({ name: `scopes ${scopes.join(' ')}`, scopes }, OPERATOR_COMMAND)).token;

describe('scopes', () => {
  it('every operation needs the scope the document names: 403 without it, not with it', async () => {
    const operations = await documentedOperations();
    expect(operations.map(({ method, path, scope }) => `${method} ${path} ${scope}`)).toEqual(
      expect.arrayContaining(['POST /plants plants:write', 'GET /plants plants:read', 'GET /plants/{id} plants:read', 'DELETE /plants/{id} plants:write']),
    );
    for (const operation of operations) {
      const where = `${operation.method} ${operation.path}`;
      const without = await call(operation, await tokenWith(SCOPES.filter((scope) => scope !== operation.scope)));
      expectError(without, 403, 40301, `This token lacks the scope ${operation.scope}, which this operation needs`);
      expect(without.headers.get('www-authenticate'), where).toBe(`Bearer realm="plants", error="insufficient_scope", scope="${operation.scope}"`);
      // Counted like any authenticated call.
      expect(without.headers.get('ratelimit-limit'), where).not.toBeNull();

      const only = await call(operation, await tokenWith([operation.scope]));
      expect([401, 403], `${where}: ${only.text}`).not.toContain(only.status);
    }
  });

  it('a refused write changes nothing, and the body is not even read', async () => {
    const id = uniqueId();
    const writer = await tokenWith(['plants:write']);
    const reader = await tokenWith(['plants:read']);
    expect((await request(sharedServer(), '/plants', { method: 'POST', token: writer, body: `{"id": ${id}, "name": "Kept"}` })).status).toBe(200);
    expectError(await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token: reader }), 403, 40301);
    expectError(await request(sharedServer(), '/plants', { method: 'POST', token: reader, body: 'not json at all' }), 403, 40301);
    expect((await request(sharedServer(), `/plants/${id}`, { token: reader })).body).toEqual({ id: Number(id), name: 'Kept' });
  });

  it('a token never does more than its account\'s role, and the page token carries the role\'s scopes', async () => {
    const staff = await newAccount('staff', 'scopes-staff');
    const admin = await newAccount('admin', 'scopes-admin');
    const principalOf = async (token: string) => authenticate(new Request('http://test/', { headers: { authorization: `Bearer ${token}` } }));

    // Widened behind the service's back (createApiToken itself refuses scopes beyond the role),
    // or an admin's token whose owner became staff: the role caps it at every use.
    const { token: staffToken, summary } = await createApiToken({ name: 'widened', createdById: staff.id }, OPERATOR_COMMAND);
    await db().apiToken.update({ where: { id: summary.id }, data: { scopes: SCOPES.join(' ') } });
    expect((await principalOf(staffToken)).scopes).toEqual(['plants:read', 'plants:write']);
    await expect(createApiToken({ name: 'too wide', scopes: ['audit:read'], createdById: staff.id }, OPERATOR_COMMAND)).rejects.toThrow(
      "A staff account's token cannot have audit:read",
    );

    const page = (account: { id: string; role: 'admin' | 'staff' }) => issueSessionToken({ ...account, sessionVersion: 0 });
    expect((await principalOf((await page(staff)).token)).scopes).toEqual(['plants:read', 'plants:write']);
    expect((await principalOf((await page(admin)).token)).scopes).toEqual([...SCOPES]);
  });
});
