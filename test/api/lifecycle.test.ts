// The standalone server as operators run it, and how it stops.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import { createOn, request, uniqueId } from '../support/api';
import { tokenIn } from '../support/database';
import { test } from '../support/fixtures';

describe('node .next/standalone/server.js', () => {
  test('exits with a failing code and one log line when its port is taken', async ({ ownDatabase: database }) => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const { port } = taken.address() as net.AddressInfo;
    const child = spawn(process.execPath, [path.resolve('.next/standalone/server.js')], {
      env: { ...process.env, PORT: String(port), HOSTNAME: '127.0.0.1', DATABASE_URL: database.url, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(1);
    const lines = output.split('\n').filter((line) => line.includes('could not listen'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'error', msg: 'could not listen', code: 'EADDRINUSE', url: `http://127.0.0.1:${port}` });
    expect(output).not.toMatch(/Uncaught|\n\s+at /);
  });

  test('serves the staff pages with their static assets, and creates a plant', async ({ startOwnServer }) => {
    const server = await startOwnServer();
    const { token } = await tokenIn(server.database.url, 'standalone');

    const login = await request(server, '/login');
    expect(login.status).toBe(200);
    const asset = /\/_next\/static\/[^"']+\.js/.exec(login.text)?.[0];
    expect(asset, 'the login page links a script').toBeDefined();
    const script = await fetch(`${server.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);

    const id = uniqueId();
    const created = await createOn(server, token, `{"id": ${id}, "name": "Standalone", "tag": "node"}`);
    expect(created.status).toBe(200);
    expect(created.text).toBe(`{"id":${id},"name":"Standalone","tag":"node"}`);
  });
});

describe('SIGTERM', () => {
  test('stops accepting, finishes the requests in flight, and exits; every acknowledged plant is stored', async ({ startOwnServer }) => {
    const server = await startOwnServer();
    const { database } = server;
    const { token } = await tokenIn(database.url, 'burst');
    const exit = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));

    const acknowledged: bigint[] = [];
    const failures: string[] = [];
    let stopping = false;
    // Eight clients creating as fast as they can until the server is gone.
    const clients = Array.from({ length: 8 }, async () => {
      for (;;) {
        const id = uniqueId();
        try {
          const response = await createOn(server, token, `{"id": ${id}, "name": "Burst"}`);
          if (response.status === 200) acknowledged.push(id);
          else failures.push(`${response.status} ${response.text}`);
        } catch {
          if (stopping) return; // refused or closed: the server has stopped accepting
          throw new Error('a request failed before SIGTERM was sent');
        }
      }
    });
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(40);
    stopping = true;
    server.child.kill('SIGTERM');
    const started = performance.now();
    await Promise.all(clients);
    process.stdout.write(`clients done after ${Math.round(performance.now() - started)} ms\n`);
    expect(await exit).toBe(143);
    expect(performance.now() - started).toBeLessThan(10_000);

    expect(failures, 'no request accepted before the signal was answered with an error').toEqual([]);
    const rows = (await database.execute('SELECT "id" FROM "Plant"')) as { id: bigint }[];
    const stored = new Set(rows.map((row) => row.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    process.stdout.write(`SIGTERM: ${acknowledged.length} creates acknowledged, all stored\n`);
  });
});
