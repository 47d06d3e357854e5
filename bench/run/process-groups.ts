// Every process npm run bench starts (servers, and helper commands such as next build and tsx) runs
// in a process group of its own and is tracked here, so that cleanup can always stop it, and
// everything it forked, on success, failure or Ctrl-C; cleanup also removes the temporary folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { say } from './log';
import { ROOT, TMP_DIR, TMP_PARENT } from './paths';

/** A process this run started and must stop. */
export type OwnedProcess = {
  label: string;
  child: ChildProcess;
  pid: number;
  /** Its pid and every descendant's seen while sampling its memory: cleanup stops any still in its group. */
  seenPids: Set<number>;
  exited: Promise<unknown>;
  alive: () => boolean;
};

/** A server: its exit status, and the end of its stderr for error messages. */
export type ServerProcess = OwnedProcess & {
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
};

/** Thrown by checkInterrupted once a signal asked the run to stop. */
export class Interrupted extends Error {}

const servers = new Set<OwnedProcess>();
const helpers = new Set<OwnedProcess>();
let currentLoad: { stop(): void } | null = null;
let interrupted = false;

export const wasInterrupted = () => interrupted;

export function checkInterrupted() {
  if (interrupted) throw new Interrupted('interrupted');
}

/** The load running now (autocannon), stopped by cleanup; null once it is done. */
export function trackLoad(load: { stop(): void } | null) {
  currentLoad = load;
}

/** What tracking `child` needs, or null if it has no pid: it did not start (spawn says why later, as 'error'). */
function trackable(label: string, child: ChildProcess) {
  const pid = child.pid;
  if (pid === undefined) return null;
  return { label, child, pid, seenPids: new Set([pid]), alive: () => child.exitCode === null && child.signalCode === null };
}

/**
 * Runs a helper command (next build, tsx) to completion; rejects with its output when it fails.
 * It gets its own process group, like the servers, so stopping it reaches the process tsx starts.
 */
export function runCommand(
  label: string,
  command: string,
  args: string[],
  { env = process.env, capture = false }: { env?: NodeJS.ProcessEnv; capture?: boolean } = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
      detached: true,
    });
    const tracked = trackable(label, child);
    if (tracked) {
      const helper: OwnedProcess = { ...tracked, exited: new Promise((done) => child.once('exit', done)) };
      helpers.add(helper);
      helper.exited.then(() => helpers.delete(helper));
    }
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${label} failed (${signal ?? `exit ${code}`})${capture ? `:\n${stderr || stdout}` : ''}`));
    });
  });
}

/**
 * Starts a server in its own process group (so a stray worker could be signalled with it, and the
 * terminal's Ctrl-C reaches us, not it). Its stdout, one access-log line per request, goes to
 * /dev/null ('ignore'): the write still happens, as in production, but nobody has to read it.
 * stderr is kept (the last 16 KiB) for error messages.
 */
export function spawnServer(label: string, args: string[], env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-16384)));
  child.on('error', (error) => (stderr += `\n${error.message}`));
  const tracked = trackable(label, child);
  if (!tracked) throw new Error(`${label}: ${process.execPath} did not start`);
  const server: ServerProcess = {
    ...tracked,
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
    stderr: () => stderr,
  };
  servers.add(server);
  return server;
}

function signalGroup(owned: OwnedProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-owned.pid, signal);
  } catch {
    try {
      owned.child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function processGroupOf(pid: number): number | null {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may contain spaces, so split after ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return null;
  }
}

/** SIGTERM, then SIGKILL after 5 s; then any process it forked that is still in its group. */
export async function stopProcess(owned: OwnedProcess) {
  if (owned.alive()) {
    signalGroup(owned, 'SIGTERM');
    const stopped = await Promise.race([owned.exited.then(() => true), sleep(5000).then(() => false)]);
    if (!stopped) {
      say(`${owned.label} (pid ${owned.pid}) ignored SIGTERM for 5 s: SIGKILL`);
      signalGroup(owned, 'SIGKILL');
      await owned.exited;
    }
  }
  for (const pid of owned.seenPids) {
    if (pid !== owned.pid && processGroupOf(pid) === owned.pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }
  servers.delete(owned);
  helpers.delete(owned);
}

let cleaning: Promise<void> | null = null;

/** Stops the load and every process still running, and removes the temporary folder; once. */
export function cleanup(): Promise<void> {
  return (cleaning ??= (async () => {
    currentLoad?.stop();
    // Helpers first: a migration still running would create the database folder again.
    await Promise.all([...helpers, ...servers].map((owned) => stopProcess(owned)));
    removeTemporaryFiles();
  })());
}

function removeTemporaryFiles() {
  rmSync(TMP_DIR, { recursive: true, force: true });
  try {
    rmdirSync(TMP_PARENT); // only if nothing else lives there
  } catch {
    // not empty, or already gone
  }
}

/** Call first: from then on, no exit and no signal leaves a process or the temporary folder behind. */
export function stopEverythingOnExit() {
  // Last resort if we exit without cleanup (an uncaught error): nothing may outlive us.
  process.on('exit', () => {
    for (const server of servers) if (server.alive()) signalGroup(server, 'SIGKILL');
    for (const helper of helpers) if (helper.alive()) signalGroup(helper, 'SIGKILL');
    removeTemporaryFiles();
  });

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      process.stderr.write(`\n[bench] ${signal}: stopping servers and removing ${path.relative(ROOT, TMP_DIR)}\n`);
      cleanup().finally(() => process.exit(130));
    });
  }
}
