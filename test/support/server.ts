// Starts the real production server (the standalone build `npm start` runs) on its own port and
// database, for tests. `npm run build` must have run.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { pathToFileURL } from 'node:url';
import { HEAP_LIMIT_FLAG } from '../../server/heap-limit';
import { clockAt, type ServerClock } from './clock';

/** The servers' AUTH_SECRET; tests that mint session tokens sign with the same one. */
export const TEST_AUTH_SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

const thisBuild = path.resolve('.next/standalone');
// Lets the test move the server's clock (lib/shared/clock.ts); see test/support/clock.ts.
const clockControl = path.resolve('test/support/clock-control.mjs');

/** The node flag that preloads test/support/dispatch-hold.mjs: the server's dispatcher leaves each event `ms` before delivering it. */
export const dispatchHold = (ms: number) => `--import=${pathToFileURL(path.resolve('test/support/dispatch-hold.mjs')).href}?ms=${ms}`;

export type RunningServer = {
  url: string;
  port: number;
  child: ChildProcess;
  /** The server's clock, which the test moves forward instead of waiting. */
  clock: ServerClock;
  clockPort: number;
  /** Everything the server printed so far, stdout and stderr. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export type ServerOptions = {
  databaseUrl: string;
  port?: number;
  env?: Record<string, string>;
  /** Wait for a healthy answer (default), or for any answer at all. */
  waitFor?: 'healthy' | 'listening';
  /** Another copy of the standalone build to run (default: this checkout's). */
  standaloneDir?: string;
  /**
   * What to run: the server alone (`server.js`, the default), or the start steps first, as npm start
   * and the Docker image run them (`start.mjs`: the settings' check, migrations, AUTH_SECRET, the
   * stored webhook secrets), then the server in the same process.
   */
  entry?: 'server' | 'start';
  /** Flags for node itself, before the script (a benchmark's --cpu-prof, say). */
  nodeFlags?: string[];
  /** How long it may take to answer (default 90 s: a server starting beside the other suites is slow). */
  readyTimeoutMs?: number;
};

// Attempts at a port of its own for a server given none: another suite's server may bind the port
// freePort() found free before this one does (it starts for a second or more first).
const PORT_ATTEMPTS = 3;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || options.port !== undefined || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startServerOnce(options: ServerOptions): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const script = path.join(options.standaloneDir ?? thisBuild, options.entry === 'start' ? 'start.mjs' : 'server.js');
  if (!existsSync(script)) throw new Error('No production build: run `npm run build` first');
  // With the heap cap production runs with (server/heap-limit.ts), as npm start and the image pass it.
  const child = spawn(process.execPath, [HEAP_LIMIT_FLAG, ...(options.nodeFlags ?? []), '--import', clockControl, script], {
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      AUTH_SECRET: TEST_AUTH_SECRET,
      DATABASE_URL: options.databaseUrl,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  // Generous by default: a server starting beside other CPU-heavy work (the other suites, a build) is slow to start.
  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) {
      const message = `the server exited with ${child.exitCode}:\n${output}`;
      throw /"msg":"could not listen".*"code":"EADDRINUSE"/.test(output) ? new PortTakenError(message) : new Error(message);
    }
    // Only once this server says it listens: until then an answer on its port may be another's.
    if (output.includes('"msg":"listening"')) {
      try {
        const response = await fetch(`${url}/api/health`);
        if (options.waitFor === 'listening' || response.ok) break;
      } catch {
        // not answering yet
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const clockPort = /\[test clock\] control port (\d+)/.exec(output)?.[1];
  if (!clockPort) throw new Error(`the server did not open its test clock:\n${output}`);

  return {
    url,
    port,
    child,
    clock: clockAt(Number(clockPort)),
    clockPort: Number(clockPort),
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
