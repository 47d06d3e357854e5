// Memory: VmRSS of a server process and every descendant, from /proc (ps where /proc has no
// children lists), sampled while a target runs.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths';
import type { OwnedProcess } from './process-groups';

function readRssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

const procChildrenAvailable = existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

function childPids(pid: number): number[] {
  if (procChildrenAvailable) {
    try {
      return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
        try {
          return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
        } catch {
          return [];
        }
      });
    } catch {
      return [];
    }
  }
  return psChildren(pid);
}

/** The pids whose parent is `pid`, as ps sees them. */
export function psChildren(pid: number): number[] {
  try {
    return execFileSync('ps', ['--ppid', String(pid), '-o', 'pid='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter(Boolean);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** `pid` and all its descendants, `pid` first. */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let index = 0; index < all.length; index++) all.push(...childPids(all[index]));
  return all;
}

/** The RSS of the process and its descendants now; each pid seen is remembered for cleanup. */
export function treeRssKb(owned: OwnedProcess): { kb: number; processes: number } {
  const pids = processTree(owned.pid);
  pids.forEach((pid) => owned.seenPids.add(pid));
  return { kb: pids.reduce((sum, pid) => sum + readRssKb(pid), 0), processes: pids.length };
}

export type RssSamples = { peakMb: number | null; samples: number; processes: number };

/** Samples the server's RSS ten times a second until the returned function is called. */
export function sampleRss(owned: OwnedProcess): () => RssSamples {
  let peakKb = 0;
  let samples = 0;
  let processes = 0;
  const tick = () => {
    const now = treeRssKb(owned);
    peakKb = Math.max(peakKb, now.kb);
    processes = Math.max(processes, now.processes);
    samples++;
  };
  tick();
  const timer = setInterval(tick, 100);
  return () => {
    clearInterval(timer);
    tick();
    return { peakMb: peakKb ? peakKb / 1024 : null, samples, processes };
  };
}

/** The command line of `pid`, with this repository's paths relative to it. */
export function describeProcess(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((part) => (part.startsWith(`${ROOT}${path.sep}`) ? path.relative(ROOT, part) : part))
      .join(' ');
  } catch {
    return '?';
  }
}
