// The results of a run, as bench/results/<timestamp>.json holds them and the report reads them.
import type autocannon from 'autocannon';
import type { ServerMode, SqliteSynchronous } from './options';
import type { ServerReport } from './servers';

/** autocannon's figures of one run (warm-up or measured), as they are kept. */
export type Summary = {
  reqPerSec: number;
  p50: number;
  p99: number;
  latencyAvg: number;
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: autocannon.Result['statusCodeStats'];
  sent: number;
  completed: number;
  duration: number;
};

/** The one request sent before a target's load. */
export type Preflight = { status: number; ok: true; problem: null } | { status: number; ok: false; problem: string };

/** The webhook target's deliveries, once they have drained (or not within 120 s). */
export type Deliveries = { drainSeconds: number; drained: boolean; delivered: number; failed: number; maxAttempts: number | null; received: number };

type TargetBase = { key: string; label: string; method: string; path: string; preflight: Preflight };

/** A target whose preflight failed: it was not measured. */
export type FailedTarget = TargetBase & { failed: true; failure: string };

/** A measured target; `failed` when any request failed. */
export type MeasuredTarget = TargetBase &
  Summary & {
    failed: boolean;
    failure?: undefined;
    peakRssMb: number | null;
    rssSamples: number;
    processes: number;
    warmup: Summary;
    autocannon: autocannon.Result;
    deliveries?: Deliveries;
  };

export type TargetRecord = FailedTarget | MeasuredTarget;

export const measured = (record: TargetRecord): record is MeasuredTarget => !record.failure;

/** Whether a storing target's database holds the plants its answers say it stored. */
export type StoredCheck = { label: string; stored: number; answered2xx: number; unanswered: number; minId: string; maxId: string; ok: boolean };

type ServerFigures = { reqPerSec: number; p50: number; p99: number; cpuMicrosecondsPerRequest: number };

/** The metrics target: the same server with METRICS on and off, in turns. */
export type MetricsComparison = {
  rounds: { on: ServerFigures; off: ServerFigures; ratio: number; cpuRatio: number }[];
  on: ServerFigures;
  off: ServerFigures;
  ratio: number;
  medianRatio: number;
  cpuRatio: number;
  medianCpuRatio: number;
  failures: number;
  servers: { on: ServerReport; off: ServerReport };
  /** What bench/metrics-record.ts writes (--json): the CPU time of recording one request. */
  record?: { medianNanoseconds: number };
};

// What the bench scripts write with --json, as far as the report reads it.

/** bench/json-parse.ts. */
export type JsonFigures = {
  bodyMb: number;
  exactParse: { ms: number; mbPerSecond: number };
  boundPass: { ms: number; mbPerSecond: number };
  zerosRefusal: { ms: number };
};

/** bench/catalogue.ts: one engine's. */
export type CatalogueFigures = {
  engine: string;
  plants: number;
  batch: { oneClient: number; twoClients: number; inProcess: number };
  search: { p50: number; p99: number };
  exported: { seconds: number; rssBeforeMb: number; rssPeakMb: number };
};

type InstancesLoad = { reqPerSec: number; p50: number; p99: number };

/** bench/instances.ts. */
export type InstancesFigures = { connections: number; one: InstancesLoad; two: InstancesLoad };

export type Ratio = { name: string; value: number };

export type BenchRun = {
  startedAt: string;
  machine: {
    cpu: string;
    cores: number;
    memoryGb: number;
    platform: string;
    node: string;
    loadAverageStart: number[];
    loadAverageEnd: number[];
  };
  serverMode: ServerMode;
  options: { duration: number; warmup: number; connections: number; rounds: number; quick: boolean; build: boolean; sqliteSynchronous: SqliteSynchronous };
  servers: { app?: ServerReport; typical?: ServerReport; next?: ServerReport; floor?: ServerReport; webhook?: ServerReport; metrics?: MetricsComparison['servers'] };
  databases: { app: { journal_mode: string }; floor: { journal_mode: string; synchronous: string } | null; typical?: { journal_mode: string; synchronous: string } };
  /** The typical app's build folder (bench/run/typical-build.ts), and whether it was cached, when its target ran. */
  typicalBuild?: { directory: string; cached: boolean };
  targets: TargetRecord[];
  storedChecks: StoredCheck[];
  ratios: Ratio[];
  failures: string[];
  metrics?: MetricsComparison;
  json?: JsonFigures;
  catalogue?: CatalogueFigures[];
  instances?: InstancesFigures;
};
