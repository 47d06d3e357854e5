// Every server action in the build, read from its server-reference manifest (so one added later is
// covered without being listed here), called directly over HTTP as anyone could: signed out, as a
// staff member, and as an admin with arguments no page sends. Each must answer a refusal in its own
// result shape, with a message; never a fault (a 5xx, a TypeError in the log).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '../../lib/db/client';
import { browser, newAccount, signIn, type Browser, type TestAccount } from '../support/accounts';
import { sharedServer } from '../support/api';
import { actionId, callAction, form, serverActions, type ActionAnswer } from '../support/server-actions';

const serverLog = () => readFileSync(inject('serverLogFile'), 'utf8');
const SIGNED_OUT = 'Your sign-in has ended. Sign in again, then retry.';
const ADMINS_ONLY = 'Only admins may do that.';

/**
 * Files whose actions are open to anyone: the set-password link's secret is the credential, and
 * "forgot your password?" only ever mails the account's own address.
 */
const OPEN_TO_ANYONE = new Set(['app/set-password/actions.ts', 'app/forgot-password/actions.ts']);

/**
 * Argument lists that no page sends to any action: the wrong kinds of value, a string where a
 * form belongs, too few or too many arguments.
 */
const MALFORMED: unknown[][] = [
  [{ kind: 'idle' }, 'not a form'],
  [],
  [123, null],
  [{ kind: 'idle' }, { get: 'not a function' }],
  [['an', 'array'], 7, false],
  [{ kind: 'idle' }, form({ unexpected: 'field' }), 'one too many'],
];

/** Actions that take no arguments: `[]` is what their page sends, so it would do their work. */
const TAKES_NO_ARGUMENTS = new Set(['signOutEverywhereAction', 'startEnrolmentAction']);
const malformedFor = (name: string) => MALFORMED.filter((args) => !(args.length === 0 && TAKES_NO_ARGUMENTS.has(name)));

type Action = { name: string; file: string; page: string };

/** The page a manifest entry's action is posted to: its worker's route, without route groups. */
function pageOf(worker: string): string {
  return `/${worker.split('/').slice(1, -1).filter((segment) => !/^\(.*\)$/.test(segment)).join('/')}`;
}

function actions(): Action[] {
  const manifest = JSON.parse(readFileSync('.next/server/server-reference-manifest.json', 'utf8')) as {
    node: Record<string, { filename: string; exportedName: string; workers: Record<string, unknown> }>;
  };
  return Object.values(manifest.node).map(({ filename, exportedName, workers }) => ({ name: exportedName, file: filename, page: pageOf(Object.keys(workers)[0]) }));
}

/**
 * Asserts a clean refusal: a 200 whose value is the action's refusal object (`kind: 'error'`,
 * `ok: false` or `usable: false`) with a message that names nothing of the server's insides.
 * Soft, so that a failing run lists every action and argument list that is not refused cleanly.
 */
function expectRefusal(label: string, answer: ActionAnswer): string {
  const shown = `${label}: ${answer.status} ${JSON.stringify(answer.value)}`;
  const value = (answer.value ?? {}) as { kind?: unknown; ok?: unknown; usable?: unknown; message?: unknown };
  const message = typeof value.message === 'string' ? value.message : '';
  expect.soft(answer.status, shown).toBe(200);
  expect.soft(value.kind === 'error' || value.ok === false || value.usable === false, shown).toBe(true);
  expect.soft(message, shown).not.toBe('');
  expect.soft(message, shown).not.toMatch(/TypeError|is not a function|undefined|\bat \S+ \(|digest|stack/i);
  return message;
}

const nameInLog = (name: string) => name.replace(/Action$/, '');

/** A new session: an action that wrongly did its work above (ending sessions, say) does not fail the tests below. */
const signInAgain = (account: TestAccount) => signIn(sharedServer().url, account);

let admin: TestAccount;
let staff: TestAccount;
let asAdmin: Browser;
let asStaff: Browser;
/** Where this file's part of the server log starts. */
let logStart = 0;
const logSinceStart = () => serverLog().slice(logStart);

beforeAll(async () => {
  logStart = serverLog().length;
  admin = await newAccount('admin', 'actions-admin');
  staff = await newAccount('staff', 'actions-staff');
  [asAdmin, asStaff] = await Promise.all([signIn(sharedServer().url, admin), signIn(sharedServer().url, staff)]);
});

describe('every server action', () => {
  it('is found in the build, each with its page', () => {
    expect(actions().length).toBe(serverActions().size);
    expect(actions().length).toBeGreaterThan(0);
    for (const { name, page } of actions()) expect(page, name).toMatch(/^\/[\w/-]*$/);
  });

  it('refuses a caller with no cookie, whatever the arguments, and logs the refusal by name', async () => {
    for (const { name, file, page } of actions()) {
      for (const args of MALFORMED) {
        const message = expectRefusal(`${name} ${JSON.stringify(args)}`, await callAction(browser(sharedServer().url), page, name, ...args));
        if (!OPEN_TO_ANYONE.has(file)) expect.soft(message, name).toBe(SIGNED_OUT);
      }
      if (!OPEN_TO_ANYONE.has(file)) {
        await expect.poll(serverLog).toContain(`"msg":"server action refused: not signed in","action":"${nameInLog(name)}"`);
      }
    }
  });

  it('refuses a staff member arguments no page sends, or the action itself when it is for admins', async () => {
    for (const { name, page } of actions()) {
      for (const args of malformedFor(name)) {
        const message = expectRefusal(`${name} ${JSON.stringify(args)}`, await callAction(asStaff, page, name, ...args));
        expect.soft(message, name).not.toBe(SIGNED_OUT);
        if (message === ADMINS_ONLY) {
          await expect.poll(serverLog).toContain(`"msg":"server action refused: admins only","action":"${nameInLog(name)}","userId":"${staff.id}"`);
        }
      }
    }
  });

  it('refuses an admin arguments no page sends, and changes nothing', async () => {
    const counts = () => Promise.all([db().user.count(), db().apiToken.count(), db().webhookEndpoint.count(), db().auditEvent.count()]);
    const before = await counts();
    for (const { name, page } of actions()) {
      for (const args of malformedFor(name)) {
        const message = expectRefusal(`${name} ${JSON.stringify(args)}`, await callAction(asAdmin, page, name, ...args));
        expect.soft(message, name).not.toBe(SIGNED_OUT);
        expect.soft(message, name).not.toBe(ADMINS_ONLY);
      }
    }
    expect(await counts()).toEqual(before);
  });
});

describe('a form action given a string for its form', () => {
  it('with no cookie answers the sign-in refusal, not a 500 with a TypeError in the log', async () => {
    const logBefore = serverLog().length;
    const response = await fetch(`${sharedServer().url}/webhooks`, {
      method: 'POST',
      headers: { 'next-action': actionId('createEndpointAction'), 'content-type': 'text/plain;charset=UTF-8' },
      body: '[{"kind":"idle"},"not a form"]',
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(text).toContain(SIGNED_OUT);
    // The refusal's own log line shows the log has caught up with this request.
    await expect.poll(() => serverLog().slice(logBefore)).toContain('"msg":"server action refused: not signed in","action":"createEndpoint"');
    expect(serverLog().slice(logBefore)).not.toContain('TypeError');
  });

  it('from an admin is refused as not understood, in the form\'s own result shape', async () => {
    const freshAdmin = await signInAgain(admin);
    for (const name of ['createTokenAction', 'changePasswordAction', 'addStaffMemberAction', 'createEndpointAction']) {
      const page = actions().find((action) => action.name === name)!.page;
      expect((await callAction(freshAdmin, page, name, { kind: 'idle' }, 'not a form')).value, name).toEqual({
        kind: 'error',
        message: 'The request was not understood.',
      });
    }
  });
});

describe("the forms' own rules, through the wrapper", () => {
  it('refuse a field, or a refusal of the service, with the message the form shows today', async () => {
    const freshAdmin = await signInAgain(admin);
    const cases: [string, Record<string, string | string[]>, string][] = [
      ['createTokenAction', { name: '   ', expiresInDays: '7', scopes: ['plants:read'] }, 'name: must not be empty'],
      ['createTokenAction', { name: 'x', expiresInDays: 'forever', scopes: ['plants:read'] }, 'expiresInDays: must be one of the offered choices'],
      ['changePasswordAction', { currentPassword: '', newPassword: 'a brand new passphrase' }, 'Current password: must not be empty'],
      ['changePasswordAction', { currentPassword: admin.password, newPassword: 'short' }, 'New password: must be at least 12 characters'],
      ['addStaffMemberAction', { email: 'not an email', role: 'staff' }, 'email: must be an email address'],
      ['addStaffMemberAction', { email: 'someone@example.com', role: 'owner' }, 'role: must be admin or staff'],
      ['addStaffMemberAction', { email: ` ${admin.email.toUpperCase()} `, role: 'staff' }, `email: An account with the email ${admin.email} already exists`],
      ['createEndpointAction', { url: 'https://example.com/hook' }, 'events: choose at least one event'],
    ];
    for (const [name, fields, message] of cases) {
      const page = actions().find((action) => action.name === name)!.page;
      expect((await callAction(freshAdmin, page, name, { kind: 'idle' }, form(fields))).value, `${name} ${JSON.stringify(fields)}`).toEqual({ kind: 'error', message });
    }
  });
});

describe('the set-password actions, open to anyone', () => {
  it('refuse a made-up link as not valid', async () => {
    const notValid = 'This link is not valid: check that it was copied whole, or ask an admin for a new one.';
    const madeUp = 'a'.repeat(43);
    expect((await callAction(browser(sharedServer().url), '/set-password', 'checkPasswordLinkAction', madeUp)).value).toEqual({ usable: false, message: notValid });
    expect((await callAction(browser(sharedServer().url), '/set-password', 'setPasswordAction', madeUp, 'moss grows on the north side')).value).toEqual({
      ok: false,
      message: notValid,
      linkUsable: false,
    });
  });
});

describe('the forgot-password action, open to anyone', () => {
  it('on a server that sends no email, says so and does nothing', async () => {
    const answer = await callAction(browser(sharedServer().url), '/forgot-password', 'requestPasswordEmailAction', { kind: 'idle' }, form({ email: 'someone@example.com' }));
    expect(answer.value).toEqual({
      kind: 'error',
      message: 'This server does not send email. Ask an admin to reset your password: they can give you a link.',
      email: 'someone@example.com',
    });
    expect(await db().mailMessage.count()).toBe(0);
  });
});

describe('the server log, after all of the above', () => {
  it('has no TypeError', () => {
    expect(logSinceStart()).not.toContain('TypeError');
  });
});
