// The SSRF guard: an endpoint must be https:// and reach only public addresses, checked when it is
// saved and again at every connection. WEBHOOK_ALLOW_PRIVATE_URLS=1 lifts it (the other webhook
// tests run with it, against a receiver on 127.0.0.1).
import dns from 'node:dns';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { ApiError } from '../../lib/errors';
import { createWebhookEndpoint } from '../../lib/webhooks/endpoints';
import { checkDestination, checkingLookup, parseWebhookUrl, RefusedAddressError } from '../../lib/webhooks/guard';
import { createOn, uniqueId } from '../support/api';
import { tokenIn } from '../support/database';
import { test } from '../support/fixtures';
import { startReceiver } from '../support/receiver';
import { deliveriesIn, endpointIn } from '../support/webhooks';

async function refusal(url: string): Promise<{ code: number; message: string }> {
  try {
    await createWebhookEndpoint({ url }, OPERATOR_COMMAND);
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

describe('saving an endpoint', () => {
  it.each([
    ['https://127.0.0.1/hooks', '127.0.0.1 is a loopback address'],
    ['https://127.8.9.10:8443/hooks', '127.8.9.10 is a loopback address'],
    ['https://[::1]/hooks', '::1 is a loopback address'],
    ['https://10.0.0.8/hooks', '10.0.0.8 is a private address'],
    ['https://172.16.5.4/hooks', '172.16.5.4 is a private address'],
    ['https://192.168.1.1/hooks', '192.168.1.1 is a private address'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address (cloud metadata services live there)'],
    ['https://[fd00:ec2::254]/', 'fd00:ec2::254 is a unique-local (private) address'],
    ['https://[fe80::1]/', 'fe80::1 is a link-local address'],
    ['https://100.100.100.200/', '100.100.100.200 is a carrier-grade NAT address'],
    ['https://0.0.0.0/hooks', '0.0.0.0 is an unspecified address'],
    ['https://[::]/hooks', ':: is an unspecified address'],
    ['https://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1 is an IPv4-mapped address'],
    ['https://[::ffff:a9fe:a9fe]/hooks', '::ffff:a9fe:a9fe is an IPv4-mapped address'],
    // IPv4-compatible (::/96, deprecated by RFC 4291): the URL parser writes the IPv4 part in hex.
    ['https://[::127.0.0.1]/hooks', '::7f00:1 is an IPv4-compatible address'],
    ['https://[::7f00:1]/hooks', '::7f00:1 is an IPv4-compatible address'],
    ['https://[::10.0.0.1]/hooks', '::a00:1 is an IPv4-compatible address'],
    ['https://[::a00:1]/hooks', '::a00:1 is an IPv4-compatible address'],
    ['https://[::1.2.3.4]/hooks', '::102:304 is an IPv4-compatible address'],
    ['https://[0:0:0:0:0:0:8.8.8.8]/hooks', '::808:808 is an IPv4-compatible address'],
    ['https://[::2]/hooks', '::2 is an IPv4-compatible address'],
    // The other ways of carrying an IPv4 address inside IPv6: NAT64, IPv4-translated, 6to4, Teredo.
    ['https://[64:ff9b::127.0.0.1]/hooks', '64:ff9b::7f00:1 is a special-purpose address (rfc6052)'],
    ['https://[64:ff9b:1::a00:1]/hooks', '64:ff9b:1::a00:1 is a special-purpose address (rfc6052)'],
    ['https://[::ffff:0:127.0.0.1]/hooks', '::ffff:0:7f00:1 is a special-purpose address (rfc6145)'],
    ['https://[2002:7f00:1::1]/hooks', '2002:7f00:1::1 is a special-purpose address (6to4)'],
    ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks', '2001:0:4136:e378:8000:63bf:80ff:fffe is a special-purpose address (teredo)'],
    ['https://2130706433/hooks', '127.0.0.1 is a loopback address'],
    ['https://0x7f.1/hooks', '127.0.0.1 is a loopback address'],
    ['https://224.0.0.1/hooks', '224.0.0.1 is a multicast address'],
    ['https://localhost/hooks', 'it resolves to'],
  ])('refuses %s (40011)', async (url, why) => {
    const { code, message } = await refusal(url);
    expect(code).toBe(40011);
    expect(message).toContain(why);
  });

  it.each([
    ['http://93.184.215.14/hooks', 'url: must start with https://'],
    ['ftp://93.184.215.14/hooks', 'url: must start with https://'],
    ['https://user:secret@93.184.215.14/hooks', 'url: must not contain a user name or password'],
    ['not a url', 'url: must be an absolute URL'],
    ['', 'url: is required'],
    [`https://93.184.215.14/${'x'.repeat(2048)}`, 'url: must be at most 2048 characters'],
  ])('refuses %j as malformed (40010)', async (url, why) => {
    const { code, message } = await refusal(url);
    expect(code).toBe(40010);
    expect(message).toContain(why);
  });

  // Checked without saving: nothing here may ever send a request off this machine.
  it.each(['https://93.184.215.14/hooks', 'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hooks'])('accepts a public address: %s', async (text) => {
    const url = parseWebhookUrl(text);
    await expect(checkDestination(url)).resolves.toBeUndefined();
  });
});

// What a name resolves to, as dns.lookup gives it (libuv writes an IPv4-compatible address as
// ::127.0.0.1, but a resolver may give any spelling): checkingLookup refuses what saving refuses.
describe('the addresses a name resolves to, at connection time', () => {
  afterEach(() => vi.restoreAllMocks());

  function lookupAnswering(address: string): Promise<NodeJS.ErrnoException | null> {
    vi.spyOn(dns, 'lookup').mockImplementation(((_hostname: string, _options: unknown, callback: (error: null, addresses: dns.LookupAddress[]) => void) =>
      callback(null, [{ address, family: 6 }])) as unknown as typeof dns.lookup);
    return new Promise((resolve) => checkingLookup('hooks.example.com', { all: true }, (error) => resolve(error)));
  }

  it.each([
    ['::127.0.0.1', 'an IPv4-compatible address'],
    ['::7f00:1', 'an IPv4-compatible address'],
    ['::10.0.0.1', 'an IPv4-compatible address'],
    ['::a00:1', 'an IPv4-compatible address'],
    ['::1.2.3.4', 'an IPv4-compatible address'],
    ['0:0:0:0:0:0:8.8.8.8', 'an IPv4-compatible address'],
    ['::102', 'an IPv4-compatible address'],
    ['::1', 'a loopback address'],
    ['::ffff:127.0.0.1', 'an IPv4-mapped address'],
    ['64:ff9b::7f00:1', 'a special-purpose address (rfc6052)'],
  ])('refuses %s, %s', async (address, why) => {
    const error = await lookupAnswering(address);
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect(error?.message).toBe(`hooks.example.com resolves to ${address}, ${why}`);
  });

  it('answers with a public address', async () => {
    expect(await lookupAnswering('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBeNull();
  });
});

describe('connecting', () => {
  test('refuses an endpoint whose name resolves to a loopback address now, and sends it nothing', async ({ ownDatabase: database, startOwnServer }) => {
    const receiver = await startReceiver();
    onTestFinished(receiver.close);
    // Saved while the guard was lifted: as if the name had resolved to a public address then.
    await endpointIn(database.url, `https://localhost:${receiver.port}/hooks`);
    await endpointIn(database.url, `https://127.0.0.1:${receiver.port}/hooks`);
    const server = await startOwnServer({ database, env: { WEBHOOK_RETRY_SCHEDULE: 'none' } });
    const { token } = await tokenIn(database.url);
    expect((await createOn(server, token, `{"id": ${uniqueId()}, "name": "Bait"}`)).status).toBe(200);

    await expect.poll(async () => (await deliveriesIn(database)).map((row) => row.status)).toEqual(['failed', 'failed']);
    const errors = (await deliveriesIn(database)).map((row) => row.lastError).sort();
    expect(errors[0]).toBe('refused: 127.0.0.1 is a loopback address');
    expect(errors[1]).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
    expect(receiver.attempts).toEqual([]);
  });
});
