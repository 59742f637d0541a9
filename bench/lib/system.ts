// What the benchmark reads from the machine: CPU time of processes and of the whole machine from /proc,
// which process listens on a port, load average, and the versions of what runs.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * User + system CPU seconds a process (all its threads) has used so far, or with `thread`, one thread of
 * it (the main thread's id is the pid); undefined once it is gone.
 */
export function processCpuSeconds(pid: number, thread?: number): number | undefined {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Busy and total CPU seconds of the whole machine (all cores) so far. */
export function machineCpuSeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

/** The pid listening on a loopback TCP port (via `ss`), if it can be found. */
export function pidListeningOn(port: number): number | undefined {
  try {
    const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
    const m = /pid=(\d+)/.exec(out);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 2).join(' ');
  } catch {
    return '?';
  }
}

export const load = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);

export function machine() {
  const memInfo = readFileSync('/proc/meminfo', 'utf8');
  const available = Number(/MemAvailable:\s+(\d+)/.exec(memInfo)?.[1] ?? 0) * 1024;
  return {
    nproc: cpus().length,
    cpuModel: cpus()[0]?.model ?? '?',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    memoryAvailableGiB: Math.round((available / 2 ** 30) * 10) / 10,
    node: process.version,
    kernel: readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim(),
  };
}

/**
 * CPU seconds of a set of named processes between two points in time. A name ending in `:main` counts
 * only the main thread of its pid (Node: the event loop, without GC helpers and the libuv pool), and is
 * not added to the machine's total twice.
 */
export class CpuMeter {
  private start = new Map<string, number>();
  private machineStart = machineCpuSeconds();
  private wallStart = Date.now();

  constructor(private readonly pids: Record<string, number | undefined>) {
    this.reset();
  }

  reset(): void {
    this.start = new Map();
    for (const [name, pid] of Object.entries(this.pids)) {
      const s = this.sample(name, pid);
      if (s !== undefined) this.start.set(name, s);
    }
    this.machineStart = machineCpuSeconds();
    this.wallStart = Date.now();
  }

  private sample(name: string, pid: number | undefined): number | undefined {
    if (pid === undefined) return undefined;
    return name.endsWith(':main') ? processCpuSeconds(pid, pid) : processCpuSeconds(pid);
  }

  /** Per process: cores used on average (1.0 = one core fully busy) since reset(); plus the machine. */
  read(): { wallSeconds: number; cores: Record<string, number>; machineBusyCores: number; otherCores: number } {
    const wall = (Date.now() - this.wallStart) / 1000;
    const cores: Record<string, number> = {};
    let ours = 0;
    for (const [name, pid] of Object.entries(this.pids)) {
      const before = this.start.get(name);
      const now = this.sample(name, pid);
      if (before === undefined || now === undefined) continue;
      cores[name] = round2((now - before) / wall);
      if (!name.endsWith(':main')) ours += now - before;
    }
    const m = machineCpuSeconds();
    const machineBusy = (m.busy - this.machineStart.busy) / wall;
    return {
      wallSeconds: round2(wall),
      cores,
      machineBusyCores: round2(machineBusy),
      otherCores: round2(Math.max(0, machineBusy - ours / wall)),
    };
  }
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** One gauge or counter of a service's /metrics, summed over its label sets. */
export async function metric(opsUrl: string | undefined, name: string): Promise<number | undefined> {
  if (!opsUrl) return undefined;
  try {
    const text = await (await fetch(`${opsUrl}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
    const lines = text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
    return lines.reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
  } catch {
    return undefined;
  }
}
