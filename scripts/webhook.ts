// npm run webhook -- create --url URL [--events plant.created,...] | list | rotate-secret ID | delete ID
import { parseArgs } from 'node:util';
import { OPERATOR_COMMAND } from '../lib/audit/context';
import { db } from '../lib/db/client';
import { ApiError } from '../lib/errors';
import { operatorCommand } from '../lib/shared/operator-commands';
import { WEBHOOK_EVENT_TYPES } from '../lib/webhooks/event-types';
import { createWebhookEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, rotateWebhookSecret } from '../lib/webhooks/endpoints';
import { formatDate, printTable, runCommands, UsageError } from './cli';

const webhook = (args: string) => operatorCommand('webhook', args);
const USAGE = `usage:
  ${webhook(`create --url URL [--events ${WEBHOOK_EVENT_TYPES.join(',')}]`)}
  ${webhook('list')}
  ${webhook('rotate-secret ID')}   (the secret before still signs for WEBHOOK_SECRET_GRACE, default 24h)
  ${webhook('delete ID')}`;

/** A refusal of the input is a usage error (exit 2); anything else a failure (exit 1). */
async function asUsage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) throw new UsageError(error.message.replace(/^(\w+)(?:\.\d+)?: /, '--$1 '));
    throw error;
  }
}

async function create(args: string[]) {
  const { values } = parseArgs({ args, options: { url: { type: 'string' }, events: { type: 'string' } } });
  if (!values.url) throw new UsageError('--url is required');
  const events = values.events?.split(',').map((type) => type.trim()).filter(Boolean);
  const { endpoint, secret } = await asUsage(createWebhookEndpoint({ url: values.url, events }, OPERATOR_COMMAND));
  process.stdout.write(`Created webhook endpoint ${endpoint.id} for ${endpoint.url} (events: ${endpoint.events.join(', ')}).\n`);
  process.stdout.write('Its signing secret is below. Copy it now: it will not be shown again.\n');
  process.stdout.write(`${secret}\n`);
}

async function list() {
  const endpoints = await listWebhookEndpoints();
  if (endpoints.length === 0) {
    process.stdout.write(`No webhook endpoints yet. Create one with: ${webhook('create --url URL')}\n`);
    return;
  }
  const open = await db().webhookDelivery.groupBy({ by: ['endpointId', 'status'], _count: { _all: true }, where: { status: { in: ['pending', 'delivering', 'failed'] } } });
  const count = (id: string, statuses: string[]) =>
    open.filter((row) => row.endpointId === id && statuses.includes(row.status)).reduce((sum, row) => sum + row._count._all, 0);
  const rows = endpoints.map((endpoint) => [
    endpoint.id,
    endpoint.url,
    endpoint.events.join(','),
    endpoint.enabled ? 'enabled' : 'disabled',
    formatDate(endpoint.createdAt),
    String(count(endpoint.id, ['pending', 'delivering'])),
    String(count(endpoint.id, ['failed'])),
  ]);
  printTable(['ID', 'URL', 'EVENTS', 'STATUS', 'CREATED (UTC)', 'PENDING', 'FAILED'], rows);
}

/** The one endpoint ID `command` takes. */
function endpointId(command: string, args: string[]): string {
  const [id, ...rest] = args;
  if (!id || rest.length > 0) throw new UsageError(`${command} takes one endpoint ID (see ${webhook('list')})`);
  return id;
}

/** An endpoint that does not exist is a failure (exit 1), said in the service's words. */
async function onEndpoint<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'webhook_not_found') throw new Error(error.message);
    throw error;
  }
}

async function rotateSecret(args: string[]) {
  const id = endpointId('rotate-secret', args);
  const { endpoint, secret, previousSecretSignsUntil } = await onEndpoint(rotateWebhookSecret(id, OPERATOR_COMMAND));
  process.stdout.write(`Rotated the signing secret of webhook endpoint ${endpoint.id} for ${endpoint.url}.\n`);
  process.stdout.write(
    previousSecretSignsUntil
      ? `Until ${formatDate(previousSecretSignsUntil)} UTC each delivery is signed with the previous secret too, so the receiver can switch in the meantime.\n`
      : 'The previous secret no longer signs.\n',
  );
  process.stdout.write('The new signing secret is below. Copy it now: it will not be shown again.\n');
  process.stdout.write(`${secret}\n`);
}

async function remove(args: string[]) {
  const id = endpointId('delete', args);
  await onEndpoint(deleteWebhookEndpoint(id, OPERATOR_COMMAND));
  process.stdout.write(`Deleted webhook endpoint ${id}. Deliveries still owed to it are dropped.\n`);
}

runCommands(USAGE, { create, list, 'rotate-secret': rotateSecret, delete: remove });
