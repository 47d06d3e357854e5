// Webhook endpoints and deliveries in a test's own database, made and read as an operator would.
import { execFile } from 'node:child_process';
import { operatorScript } from './cli';
import type { TestDatabase } from './database';

/** A webhook endpoint in the database at `databaseUrl`, made by `npm run webhook -- create`. */
export async function endpointIn(
  databaseUrl: string,
  url: string,
  options: { events?: string; env?: Record<string, string> } = {},
): Promise<{ id: string; secret: string }> {
  const args = ['create', '--url', url, ...(options.events ? ['--events', options.events] : [])];
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      operatorScript('webhook', ...args),
      { env: { ...process.env, DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE_URLS: '1', ...options.env } },
      (error, out, err) => (error ? reject(new Error(`npm run webhook failed: ${err}`)) : resolve(out)),
    ),
  );
  const id = /Created webhook endpoint (wh_\w+)/.exec(stdout)?.[1];
  const secret = stdout.trim().split('\n').at(-1)!;
  if (!id || !secret.startsWith('whsec_')) throw new Error(`unexpected npm run webhook output:\n${stdout}`);
  return { id, secret };
}

export type DeliveryRow = {
  id: string;
  messageId: string;
  type: string;
  status: string;
  attempts: bigint | number;
  lastStatusCode: bigint | number | null;
  lastError: string | null;
};

/** The deliveries in `database`, oldest event first. */
export async function deliveriesIn(database: TestDatabase): Promise<DeliveryRow[]> {
  return (await database.execute(
    `SELECT d."id", ev."id" AS "messageId", ev."type", d."status", d."attempts", d."lastStatusCode", d."lastError"
     FROM "WebhookDelivery" d JOIN "WebhookEvent" ev ON ev."seq" = d."eventSeq" ORDER BY d."eventSeq"`,
  )) as DeliveryRow[];
}
