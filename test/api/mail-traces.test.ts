// Email on a production server, on each engine: a server with SMTP_URL and tracing on, whose
// forgot-password action (open to anyone) is called as a browser calls it. The answer comes at
// once; the message reaches the test's SMTP server with the link; and its sending is a `mail send`
// client span in the trace of the request that asked, exported to the test's collector.
import { expect } from 'vitest';
import { browser } from '../support/accounts';
import { usingDatabase } from '../support/database';
import { test as base } from '../support/fixtures';
import { SPAN_KIND, startCollector } from '../support/otlp-collector';
import { freePort } from '../support/server';
import { callAction, form } from '../support/server-actions';
import { startSmtpServer } from '../support/smtp';

const test = base
  .extend('collector', { scope: 'file' }, async ({}, { onCleanup }) => {
    const collector = await startCollector();
    onCleanup(collector.close);
    return collector;
  })
  .extend('smtp', { scope: 'file' }, async ({}, { onCleanup }) => {
    const smtp = await startSmtpServer();
    onCleanup(smtp.stop);
    return smtp;
  });

test('forgot password on the production server: answered at once, the link mailed, and the send a span in the request\'s trace', { timeout: 180_000 }, async ({ startOwnServer, collector, smtp }) => {
  const email = `traced-${Date.now()}@example.com`;
  const port = await freePort();
  const server = await startOwnServer({
    port,
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Plant Store <plants@example.com>',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    },
    prepare: (database) =>
      usingDatabase(database.url, async () => {
        const { createUser } = await import('../../lib/auth/accounts/directory');
        await createUser({ email: 'first-admin@example.com', role: 'admin', password: 'the first admin of this store' });
        await createUser({ email, password: 'moss grows on the north side' });
      }),
    readyTimeoutMs: 90_000,
  });

  const answer = await callAction(browser(server.url), '/forgot-password', 'requestPasswordEmailAction', { kind: 'idle' }, form({ email }));
  expect(answer).toEqual({ status: 200, value: { kind: 'sent', email } });

  const [message] = await smtp.waitFor(email);
  expect(message.link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/set-password#[\\w-]{43}$`));
  const [send] = await collector.waitFor((span) => span.name === 'mail send');
  expect(send.kind).toBe(SPAN_KIND.client);
  expect(send.attributes).toMatchObject({ 'plant_store.mail.kind': 'forgot_password', 'plant_store.mail.attempt': 1 });
  // In the trace of the request that asked: its server span is there too.
  expect(collector.spans.some((span) => span.traceId === send.traceId && span.kind === SPAN_KIND.server)).toBe(true);
});
