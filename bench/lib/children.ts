// The benchmarks' child processes, shared by bench/webhook-dispatch.ts and bench/e2e.ts: forking a
// TypeScript file with its output in .local/bench/logs, asking it over IPC, the HTTPS receiver
// (bench/lib/receiver-process.ts) and the ceiling (bench/lib/ceiling-process.ts), and waiting for the
// store to go idle.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../packages/testkit/src/infra/infra';
import type { Arrival, DispatcherStats, ReceiverMessage } from './protocol';
import { load, processCpuSeconds, round2 } from './system';

const ROOT = repoRoot();
const LOGS = join(ROOT, '.local', 'bench', 'logs');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Sends a message to a child and resolves with the first reply of the given type. */
export function ask<T>(child: ChildProcess, message: object, replyType: string, timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`no ${replyType} from child ${child.pid} in ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (m: { type: string }) => {
      if (m.type !== replyType) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** Forks a TypeScript file through tsx, its stdout and stderr in .local/bench/logs/<logName>.log. */
export function forkTs(file: string, env: NodeJS.ProcessEnv, logName: string): ChildProcess {
  mkdirSync(LOGS, { recursive: true });
  const out = openSync(join(LOGS, `${logName}.log`), 'w');
  return fork(file, [], { cwd: ROOT, execArgv: ['--import', 'tsx'], env, stdio: ['ignore', out, out, 'ipc'] });
}

/** A service forked by a benchmark (bench/lib/api-process.ts or dispatcher-process.ts), once it said ready. */
export interface ServiceChild {
  proc: ChildProcess;
  url: string;
  opsUrl?: string;
  pid: number;
}

/** Forks a service's process file and waits for its `ready` (rejects if it exits first). */
export async function startServiceChild(
  file: string,
  env: NodeJS.ProcessEnv,
  logName: string,
  label: string,
  timeoutMs = 60_000,
): Promise<ServiceChild> {
  const proc = forkTs(file, env, logName);
  const exited = new Promise<never>((_, reject) =>
    proc.once('exit', (code) => reject(new Error(`${label} exited (${code}); see .local/bench/logs/${logName}.log`))),
  );
  exited.catch(() => undefined);
  const ready = await Promise.race([
    ask<{ url: string; opsUrl?: string; pid: number }>(proc, { type: 'noop' }, 'ready', timeoutMs),
    exited,
  ]);
  return { proc, url: ready.url, opsUrl: ready.opsUrl, pid: ready.pid };
}

/**
 * `count` employees processes (bench/lib/api-process.ts), as a chart's replicas: `urls` is the list the
 * gateway takes (decision 0214); `pids` names each for a CpuMeter (`employees`, `employees-1`, …).
 */
export async function startEmployeesReplicas(count: number, env: NodeJS.ProcessEnv, logName: string) {
  const replicas: ServiceChild[] = [];
  for (let i = 0; i < count; i++)
    replicas.push(
      await startServiceChild(
        join(ROOT, 'bench', 'lib', 'api-process.ts'),
        { ...env, BENCH_ROLE: 'employees' },
        i ? `${logName}-${i}` : logName,
        'employees',
      ),
    );
  return {
    replicas,
    urls: replicas.map((r) => r.url).join(','),
    pids: Object.fromEntries(replicas.map((r, i) => [i ? `employees-${i}` : 'employees', r.pid])),
  };
}

export function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

// ---- receiver ---------------------------------------------------------------------------------------
export class Receiver {
  healthyPort = 0;
  hangingPort = 0;
  pid = 0;
  private readonly sinks = new Map<number, (row: Arrival) => void>();
  private token = 0;

  constructor(private readonly child: ChildProcess) {
    child.on('message', (m: ReceiverMessage) => {
      if (m.type === 'arrivals') for (const row of m.rows) this.sinks.get(row[0])?.(row);
    });
  }

  static async start(tlsDir: string, env: NodeJS.ProcessEnv = process.env): Promise<Receiver> {
    const child = forkTs(
      join(ROOT, 'bench', 'lib', 'receiver-process.ts'),
      { ...env, BENCH_TLS_DIR: tlsDir },
      'receiver',
    );
    const r = new Receiver(child);
    const ready = await ask<Extract<ReceiverMessage, { type: 'ready' }>>(child, { type: 'noop' }, 'ready', 60_000);
    Object.assign(r, { healthyPort: ready.healthyPort, hangingPort: ready.hangingPort, pid: ready.pid });
    return r;
  }

  route(step: number, sink: ((row: Arrival) => void) | undefined): void {
    if (sink) this.sinks.set(step, sink);
    else this.sinks.delete(step);
  }

  /**
   * From now on, requests of `step` on subscription path n are verified with the receiver SDK
   * (`@travel/webhook-verify`) against secrets[n]; the arrival rows say whether they verified.
   */
  async verifyWith(step: number, secrets: string[]): Promise<void> {
    await ask(this.child, { type: 'secrets', step, secrets }, 'secrets-set');
  }

  /** Resolves once every request the receiver has seen so far has been handed to the sinks. */
  async flush(): Promise<{ healthy: number; hanging: number }> {
    const token = ++this.token;
    return new Promise((resolve) => {
      const on = (m: ReceiverMessage) => {
        if (m.type === 'flushed' && m.token === token) {
          this.child.off('message', on);
          resolve(m.connections);
        }
      };
      this.child.on('message', on);
      this.child.send({ type: 'flush', token });
    });
  }

  async stop(): Promise<void> {
    this.child.send({ type: 'stop' });
    if (!(await waitForExit(this.child, 5000))) this.child.kill('SIGKILL');
  }
}

// ---- dispatcher -------------------------------------------------------------------------------------
/** A webhook-dispatcher in its own process (bench/lib/dispatcher-process.ts), started as the tests start one. */
export class Dispatcher {
  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly pid: number,
  ) {}

  static async start(vars: Record<string, string>, monitor: boolean, logName: string): Promise<Dispatcher> {
    const env = {
      ...process.env,
      ...vars,
      ...(monitor ? { BENCH_MONITOR: '1', MONGO_URL: `${vars.MONGO_URL}/?monitorCommands=true` } : {}),
    };
    const child = forkTs(join(ROOT, 'bench', 'lib', 'dispatcher-process.ts'), env, logName);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) =>
        reject(new Error(`dispatcher exited (${code}); see .local/bench/logs/${logName}.log`)),
      ),
    );
    exited.catch(() => undefined);
    const ready = await Promise.race([
      ask<{ url: string; pid: number }>(child, { type: 'noop' }, 'ready', 60_000),
      exited,
    ]);
    return new Dispatcher(child, ready.url, ready.pid);
  }

  stats(): Promise<DispatcherStats> {
    return ask<DispatcherStats>(this.child, { type: 'stats' }, 'stats');
  }

  async resetStats(): Promise<void> {
    await ask(this.child, { type: 'stats-reset' }, 'stats-reset');
  }

  async profileStart(): Promise<void> {
    await ask(this.child, { type: 'profile-start' }, 'profile-started');
  }

  async profileStop(file: string): Promise<void> {
    await ask(this.child, { type: 'profile-stop', file }, 'profile-stopped', 60_000);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.send({ type: 'stop' });
    if (!(await waitForExit(this.child, 15_000))) {
      this.child.kill('SIGKILL');
      await waitForExit(this.child, 5000);
    }
  }
}

// ---- ceiling ----------------------------------------------------------------------------------------
export interface CeilingResult {
  requests?: number;
  perSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  cpuCores?: number;
  error?: string;
}

/** The issue's ceiling: a bare signing HTTPS client (bench/lib/ceiling-process.ts) against the same receiver. */
export async function measureCeiling(
  receiver: Receiver,
  seconds: number,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CeilingResult> {
  const child = forkTs(join(ROOT, 'bench', 'lib', 'ceiling-process.ts'), env, 'ceiling');
  try {
    await ask(child, { type: 'noop' }, 'ready', 60_000);
    const r = await ask<CeilingResult>(
      child,
      { type: 'run', port: receiver.healthyPort, seconds, concurrency: 64 },
      'ceiling',
      seconds * 1000 + 60_000,
    );
    const { type: _type, ...result } = r as CeilingResult & { type?: string };
    log(
      `ceiling (bare signing HTTPS client, 64 in flight, ${seconds} s): ${result.error ?? `${Math.round(result.perSecond ?? 0)} requests/s, p50 ${result.p50Ms?.toFixed(1)} ms, p99 ${result.p99Ms?.toFixed(1)} ms, ${result.cpuCores?.toFixed(2)} core`}; load ${load().join(' ')}`,
    );
    return result;
  } finally {
    child.kill('SIGTERM');
    await waitForExit(child, 5000);
  }
}

/** Waits (at most 60 s) until the store process uses under 5% of a core over a second; returns the seconds waited. */
export async function quiesce(pid: number | undefined): Promise<number> {
  if (!pid) return 0;
  const started = Date.now();
  for (let prev = processCpuSeconds(pid); Date.now() - started < 60_000;) {
    await sleep(1000);
    const now = processCpuSeconds(pid);
    if (now === undefined || prev === undefined || now - prev < 0.05) break;
    prev = now;
  }
  return round2((Date.now() - started) / 1000);
}

/** The dispatcher's attempt counters summed by one label (bench/lib/dispatcher-process.ts `stats`). */
export function sumBy(rows: DispatcherStats['attempts'], label: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) out[r.labels[label] ?? '?'] = (out[r.labels[label] ?? '?'] ?? 0) + r.value;
  return out;
}

/** What grew between two readings of the same counters (keys that did not move are left out). */
export function diff(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(after)) if (after[k]! - (before[k] ?? 0) !== 0) out[k] = after[k]! - (before[k] ?? 0);
  return out;
}
