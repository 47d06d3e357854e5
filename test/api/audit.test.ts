// The audit trail: every change says who made it, through which request, in a record written
// with the change; GET /audit-events reads it back. The records as stored (written in the change's
// transaction, never updated) are held to the store contract (test/db/contract/plants.test.ts), and
// their pruning is test/db/retention.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND, staffContext } from '../../lib/audit/context';
import { createApiToken, revokeApiToken } from '../../lib/auth/tokens/api-tokens';
import { issueSessionToken } from '../../lib/auth/tokens/session-token';
import { db } from '../../lib/db/client';
import { browser, newAccount, signIn, type Browser, type TestAccount } from '../support/accounts';
import { expectError, request, sharedServer, uniqueId } from '../support/api';
import { callAction, form } from '../support/server-actions';

type AuditRecord = {
  id: number;
  time: string;
  action: string;
  actor: { type: string; id?: string; name: string };
  target: { type: string; id: string };
  requestId?: string;
  before?: unknown;
  after?: unknown;
};

let admin: TestAccount;
let reader: string;
let writer: { id: string; token: string };

beforeAll(async () => {
  admin = await newAccount('admin', 'auditor');
  reader = (await createApiToken({ name: 'audit reader', scopes: ['audit:read'] }, OPERATOR_COMMAND)).token;
  const made = await createApiToken({ name: 'inventory sync' }, OPERATOR_COMMAND);
  writer = { id: made.summary.id, token: made.token };
});

async function records(query = ''): Promise<AuditRecord[]> {
  const response = await request(sharedServer(), `/audit-events${query}`, { token: reader });
  expect(response.status, response.text).toBe(200);
  return response.body as AuditRecord[];
}

/** The newest records about one target, read the way a client would (exact ids, via the raw text). */
async function historyOf(target: string): Promise<AuditRecord[]> {
  return records(`?target=${encodeURIComponent(target)}&limit=100`);
}

describe('changes made with an API token', () => {
  it('record the token (id and name), the request id, the target, and the plant as the API writes it', async () => {
    const id = uniqueId();
    const created = await request(sharedServer(), '/plants', { method: 'POST', token: writer.token, body: `{"id": ${id}, "name": "Recorded", "tag": "fern"}` });
    expect(created.status).toBe(200);
    const [record] = await historyOf(`plant:${id}`);
    expect(record).toMatchObject({
      action: 'plant.created',
      actor: { type: 'token', id: writer.id, name: 'inventory sync' },
      target: { type: 'plant', id: String(id) },
      requestId: created.headers.get('x-request-id'),
      clientAddress: '127.0.0.1',
    });
    expect(record).not.toHaveProperty('before');
    expect(Date.now() - Date.parse(record.time)).toBeLessThan(60_000);
    // The id digit for digit, as in the API's own answer.
    const raw = (await request(sharedServer(), `/audit-events?target=plant:${id}`, { token: reader })).text;
    expect(raw).toContain(`"after":${created.text}`);
  });

  it('record a delete with the plant as it was, and keep the plant\'s records after it is gone', async () => {
    const id = uniqueId();
    await request(sharedServer(), '/plants', { method: 'POST', token: writer.token, body: `{"id": ${id}, "name": "Gone soon"}` });
    const deleted = await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token: writer.token });
    expect(deleted.status).toBe(204);
    const history = await historyOf(`plant:${id}`);
    expect(history.map((record) => record.action)).toEqual(['plant.deleted', 'plant.created']);
    expect(history[0]).toMatchObject({ before: { name: 'Gone soon' }, requestId: deleted.headers.get('x-request-id') });
    expect((await request(sharedServer(), `/audit-events?target=plant:${id}`, { token: reader })).text).toContain(`"before":{"id":${id},"name":"Gone soon"}`);
    expect(history[0]).not.toHaveProperty('after');
  });

  it('record an update with the plant before and after, and nothing for one that changes nothing or fails its If-Match', async () => {
    const id = uniqueId();
    const created = await request(sharedServer(), '/plants', { method: 'POST', token: writer.token, body: `{"id": ${id}, "name": "Old name", "tag": "old"}` });
    const patch = (body: string, headers: Record<string, string> = {}) =>
      request(sharedServer(), `/plants/${id}`, { method: 'PATCH', token: writer.token, body, headers: { 'content-type': 'application/merge-patch+json', ...headers } });
    const patched = await patch('{"name": "New name", "tag": null}', { 'if-match': created.headers.get('etag')! });
    expect(patched.status).toBe(200);
    expect((await patch('{"name": "New name"}')).status).toBe(200);
    expect((await patch('{"name": "Lost"}', { 'if-match': created.headers.get('etag')! })).status).toBe(412);
    const history = await historyOf(`plant:${id}`);
    expect(history.map((record) => record.action)).toEqual(['plant.updated', 'plant.created']);
    expect(history[0]).toMatchObject({ actor: { type: 'token', id: writer.id }, requestId: patched.headers.get('x-request-id') });
    const raw = (await request(sharedServer(), `/audit-events?target=plant:${id}&action=plant.updated`, { token: reader })).text;
    expect(raw).toContain(`"before":{"id":${id},"name":"Old name","tag":"old"},"after":{"id":${id},"name":"New name"}`);
  });

  it('record each plant a batch stores, with the batch\'s request id, and none of its replays and refusals', async () => {
    const existing = uniqueId();
    await request(sharedServer(), '/plants', { method: 'POST', token: writer.token, body: `{"id": ${existing}, "name": "Kept"}` });
    const [a, b] = [uniqueId(), uniqueId()];
    const body = `[{"id": ${a}, "name": "Batch A"}, {"id": ${existing}, "name": "Kept"}, {"id": ${existing}, "name": "Other"}, {"id": ${b}, "name": "Batch B"}]`;
    const answer = await request(sharedServer(), '/plants/batch', { method: 'POST', token: writer.token, body });
    expect(answer.status).toBe(200);
    for (const id of [a, b]) {
      const [record] = await historyOf(`plant:${id}`);
      expect(record).toMatchObject({ action: 'plant.created', actor: { type: 'token', id: writer.id }, requestId: answer.headers.get('x-request-id') });
    }
    expect((await historyOf(`plant:${existing}`)).map((record) => record.action)).toEqual(['plant.created']);
  });

  it('record nothing for an idempotent replay, a conflict or a refused request', async () => {
    const id = uniqueId();
    const body = `{"id": ${id}, "name": "Once"}`;
    await request(sharedServer(), '/plants', { method: 'POST', token: writer.token, body });
    expect((await request(sharedServer(), '/plants', { method: 'POST', token: writer.token, body })).headers.get('idempotent-replayed')).toBe('true');
    expect((await request(sharedServer(), '/plants', { method: 'POST', token: writer.token, body: `{"id": ${id}, "name": "Twice"}` })).status).toBe(409);
    expect((await request(sharedServer(), `/plants/${uniqueId()}`, { method: 'DELETE', token: writer.token })).status).toBe(404);
    expect((await historyOf(`plant:${id}`)).map((record) => record.action)).toEqual(['plant.created']);
  });
});

describe('changes made from the staff page', () => {
  it('record the staff member (id and email) behind the page\'s session token', async () => {
    const { sessionVersion } = await db().user.findUniqueOrThrow({ where: { id: admin.id }, select: { sessionVersion: true } });
    const { token } = await issueSessionToken({ id: admin.id, role: 'admin', sessionVersion });
    const id = uniqueId();
    const created = await request(sharedServer(), '/plants', { method: 'POST', token, body: `{"id": ${id}, "name": "From the page"}` });
    expect(created.status).toBe(200);
    const [record] = await historyOf(`plant:${id}`);
    expect(record).toMatchObject({ action: 'plant.created', actor: { type: 'staff', id: admin.id, name: admin.email } });
  });

  it('record token creation and revocation by a staff member, without the secret', async () => {
    const { token, summary } = await createApiToken({ name: 'page made', createdById: admin.id }, staffContext(admin));
    expect(await revokeApiToken(summary.id, staffContext(admin), { createdById: admin.id })).toBe(true);
    const history = await historyOf(`token:${summary.id}`);
    expect(history.map((record) => [record.action, record.actor])).toEqual([
      ['token.revoked', { type: 'staff', id: admin.id, name: admin.email }],
      ['token.created', { type: 'staff', id: admin.id, name: admin.email }],
    ]);
    expect(history[1].after).toMatchObject({ name: 'page made', prefix: token.slice(0, 12), createdById: admin.id });
    expect(JSON.stringify(history)).not.toContain(token.slice(12));
  });

  it('record sign-ins and failed sign-ins', async () => {
    const signInOnce = async (email: string, password: string) => {
      const csrf = await fetch(`${sharedServer().url}/api/auth/csrf`);
      const cookie = csrf.headers.getSetCookie().map((text) => text.split(';')[0]).join('; ');
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const answer = await fetch(`${sharedServer().url}/api/auth/callback/credentials`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
        redirect: 'manual',
      });
      await answer.arrayBuffer();
    };
    await signInOnce(admin.email, 'the wrong passphrase');
    await signInOnce(admin.email.toUpperCase(), admin.password);
    const nobody = `nobody-${Date.now()}@example.com`;
    await signInOnce(nobody, 'whatever it is');

    const mine = await historyOf(`staff:${admin.id}`);
    expect(mine.slice(0, 2).map((record) => [record.action, record.actor])).toEqual([
      ['staff.signed_in', { type: 'staff', id: admin.id, name: admin.email }],
      ['staff.sign_in_failed', { type: 'staff', id: admin.id, name: admin.email }],
    ]);
    const unknown = await historyOf(`staff:${nobody}`);
    expect(unknown.map((record) => [record.action, record.actor])).toEqual([['staff.sign_in_failed', { type: 'staff', name: nobody }]]);
  });
});

describe('staff account changes, made through the pages\' server actions', () => {
  it('record the admin who made each, and the member for what they do themselves', async () => {
    const asAdmin = await signIn(sharedServer().url, admin);
    const email = `audited-member-${Date.now()}@example.com`;
    const requestId = `staff-page-${Date.now()}`;
    const added = await callAction(asAdmin, '/staff', 'addStaffMemberAction', { kind: 'idle' }, form({ email, role: 'staff' }));
    expect(added.value).toMatchObject({ kind: 'created' });
    const { id } = await db().user.findUniqueOrThrow({ where: { email } });
    // The disable is sent with the X-Request-Id a proxy in front might set: its record carries it.
    const tagged: Browser = { ...asAdmin, fetch: (path, init = {}) => asAdmin.fetch(path, { ...init, headers: { ...init.headers, 'x-request-id': requestId } }) };
    const changes = [[asAdmin, 'setRoleAction', id, 'admin'], [asAdmin, 'setRoleAction', id, 'staff'], [tagged, 'disableAccountAction', id], [asAdmin, 'enableAccountAction', id]] as const;
    for (const [who, name, ...args] of changes) expect((await callAction(who, '/staff', name, ...args)).value, name).toEqual({ ok: true });
    const reset = (await callAction(asAdmin, '/staff', 'resetPasswordAction', id)).value as { linkPath: string };
    const secret = reset.linkPath.split('#')[1];
    const password = 'the member chose this passphrase';
    expect((await callAction(browser(sharedServer().url), '/set-password', 'setPasswordAction', secret, password)).value).toEqual({ ok: true, email });
    const asMember = await signIn(sharedServer().url, { email, password });
    expect((await callAction(asMember, '/account', 'signOutEverywhereAction')).value).toEqual({ ok: true });

    const byAdmin = { type: 'staff', id: admin.id, name: admin.email };
    const byMember = { type: 'staff', id, name: email };
    const history = (await historyOf(`staff:${id}`)).reverse();
    expect(history.map((record) => [record.action, record.actor])).toEqual([
      ['staff.created', byAdmin],
      ['staff.role_changed', byAdmin],
      ['staff.role_changed', byAdmin],
      ['staff.disabled', byAdmin],
      ['staff.enabled', byAdmin],
      ['staff.password_reset', byAdmin],
      ['staff.password_set', byMember],
      ['staff.signed_in', byMember],
      ['staff.signed_out_everywhere', byMember],
    ]);
    // Each carries the request it came in on (its id, and the address it came from), as API
    // changes do: the pages' server actions, the set-password link and sign-in alike.
    for (const record of history) expect(record, record.action).toMatchObject({ clientAddress: '127.0.0.1', requestId: expect.any(String) });
    expect(history[3].requestId).toBe(requestId);
    expect(new Set(history.map((record) => record.requestId)).size).toBe(history.length);
    expect(history[0].after).toEqual({ email, role: 'staff' });
    expect(history[1]).toMatchObject({ before: { role: 'staff' }, after: { role: 'admin' } });
    expect(JSON.stringify(history)).not.toContain(secret);
    expect(JSON.stringify(history)).not.toContain(password);
  });

  it('record a refused change nowhere', async () => {
    const asAdmin = await signIn(sharedServer().url, admin);
    const before = (await records('?limit=1'))[0].id;
    expect((await callAction(asAdmin, '/staff', 'enableAccountAction', admin.id)).value).toEqual({ ok: false, message: 'That account is not disabled.' });
    expect((await records('?limit=1'))[0].id).toBe(before);
  });
});

describe('GET /audit-events', () => {
  it('answers newest first, paged like /plants', async () => {
    for (let index = 0; index < 3; index++) {
      await request(sharedServer(), '/plants', { method: 'POST', token: writer.token, body: `{"id": ${uniqueId()}, "name": "Paged ${index}"}` });
    }
    const first = await request(sharedServer(), '/audit-events?limit=2', { token: reader });
    expect(first.status).toBe(200);
    const page = first.body as AuditRecord[];
    expect(page).toHaveLength(2);
    expect(page[0].id).toBeGreaterThan(page[1].id);
    const cursor = first.headers.get('next-cursor')!;
    expect(first.headers.get('link')).toBe(`</audit-events?limit=2&cursor=${cursor}>; rel="next"`);
    const second = (await request(sharedServer(), `/audit-events?limit=2&cursor=${cursor}`, { token: reader })).body as AuditRecord[];
    expect(second[0].id).toBeLessThan(page[1].id);
  });

  it('filters by action and by actor (a token id, a staff email, or system)', async () => {
    const created = await records(`?action=plant.created&actor=${writer.id}&limit=100`);
    expect(created.length).toBeGreaterThan(0);
    for (const record of created) expect(record).toMatchObject({ action: 'plant.created', actor: { id: writer.id } });
    const byEmail = await records(`?actor=${encodeURIComponent(admin.email.toUpperCase())}`);
    expect(byEmail.length).toBeGreaterThan(0);
    for (const record of byEmail) expect(record.actor.name).toBe(admin.email);
    const bySystem = await records('?actor=system&action=token.created');
    expect(bySystem.some((record) => record.target.id === writer.id)).toBe(true);
    for (const record of bySystem) expect(record.actor).toEqual({ type: 'system', name: 'cli' });
  });

  it.each([
    ['?action=plant.sold', 'action: must be one of'],
    ['?limit=0', 'limit: must be a whole number from 1 to 100'],
    ['?cursor=not-a-cursor', 'cursor: must be a cursor returned by a previous page'],
    ['?target=plant', 'target: must be a target as the records name it'],
    [`?actor=${'x'.repeat(300)}`, 'actor: must be at most 254 characters'],
  ])('refuses %s with 400 40003', async (query, message) => {
    expectError(await request(sharedServer(), `/audit-events${query}`, { token: reader }), 400, 40003, message);
  });

  it('needs a bearer token with audit:read, and takes only GET', async () => {
    expectError(await request(sharedServer(), '/audit-events'), 401, 40101);
    const refused = await request(sharedServer(), '/audit-events', { token: writer.token });
    expectError(refused, 403, 40301);
    expect(refused.headers.get('www-authenticate')).toContain('scope="audit:read"');
    const posted = await request(sharedServer(), '/audit-events', { method: 'POST', token: reader, body: '{}' });
    expectError(posted, 405, 40501);
    expect(posted.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('the published document', () => {
  it('has GET /audit-events and the AuditEvent schema', async () => {
    const document = (await request(sharedServer(), '/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId: string; responses: object; security: unknown }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.paths['/audit-events'].get.operationId).toBe('listAuditEvents');
    expect(Object.keys(document.paths['/audit-events'].get.responses).sort()).toEqual(['200', '400', '401', '403', '405', '408', '417', '429', '431', '500', '503']);
    expect(document.paths['/audit-events'].get).toMatchObject({ security: [{ bearerAuth: ['audit:read'] }] });
    expect(document.components.schemas.AuditEvent).toMatchObject({ properties: { action: { enum: expect.arrayContaining(['plant.created', 'staff.sign_in_failed']) } } });
  });
});
