// Per-diem engine benchmark (issue 14): itineraries per second on one core for a 4-stop itinerary, target
// at least 50,000/s. Pure CPU: no infrastructure. Run it pinned to one core:
//
//   taskset -c 0 npx tsx bench/per-diem.ts            # or: npm run bench:per-diem
//
// Each market gets its own 4-stop itinerary (home → two foreign countries → home, about two days, meals on
// the first row, a PL night claimed). Requests are built before timing, with start times spread over a
// year (one hour apart) so the engine's time-zone memo sees new hours as real traffic would. A run
// computes requests in a tight loop for a fixed time; the figure is the median of the runs, with the
// slowest and fastest. Options: --runs N (default 7), --seconds S per run (default 2), --markets SK,PL.
//
// The services run as esbuild bundles (scripts/build.ts), so the benchmark measures the engine the same
// way: started through tsx, it bundles itself with the build's settings into .local/bench/per-diem.js and
// runs that with plain node (the CPU affinity set by taskset is inherited). --tsx measures under tsx.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { calculatePerDiems, type PerDiemRequest } from '../packages/per-diem/src';
import type { Market } from '../packages/regulations/src';
import { bundleBenchmark } from './lib/bundle';
import { load, machine } from './lib/system';

const argv = process.argv.slice(2);
const ROOT = process.env.PER_DIEM_BENCH_ROOT ?? join(__dirname, '..');
const BUNDLED = process.env.PER_DIEM_BENCH_ROOT !== undefined;
if (!BUNDLED && !argv.includes('--tsx')) {
  const outfile = bundleBenchmark(ROOT, __filename, 'per-diem');
  execFileSync(process.execPath, [outfile, ...argv], {
    stdio: 'inherit',
    env: { ...process.env, PER_DIEM_BENCH_ROOT: ROOT },
  });
  process.exit(0);
}
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const RUNS = Number(option('runs') ?? 7);
const SECONDS = Number(option('seconds') ?? 2);
const MARKETS = (option('markets') ?? 'SK,PL,CZ,HR,SI').split(',') as Market[];
const DISTINCT = 8760; // one request per hour of a year

const HOUR = 3_600_000;
/** Home, two foreign countries, home: the stops' countries and their offsets in hours from the start. */
const ROUTES: Record<Market, { countries: [string, string, string, string]; hours: [number, number, number, number] }> =
  {
    SK: { countries: ['SK', 'CZ', 'PL', 'SK'], hours: [0, 3, 27, 40] },
    PL: { countries: ['PL', 'DE', 'AT', 'PL'], hours: [0, 5, 20, 41] },
    CZ: { countries: ['CZ', 'DE', 'AT', 'CZ'], hours: [0, 4, 26, 38] },
    HR: { countries: ['HR', 'AT', 'CZ', 'HR'], hours: [0, 3, 16, 45] },
    SI: { countries: ['SI', 'HR', 'CZ', 'SI'], hours: [0, 2, 14, 39] },
  };

function requests(market: Market): PerDiemRequest[] {
  const route = ROUTES[market];
  // SI foreign rates are verified through 2025: its trips run in 2025, the others in 2026.
  const base = Date.parse(market === 'SI' ? '2025-01-01T05:00:00Z' : '2026-01-01T05:00:00Z');
  const out: PerDiemRequest[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    const start = base + i * HOUR;
    const time = (h: number) => new Date(start + h * HOUR).toISOString();
    const stops = route.countries.map((countryCode, k) => ({ time: time(route.hours[k]!), countryCode }));
    const request: PerDiemRequest = {
      market,
      stops,
      meals: [{ countryCode: route.countries[0], departureTime: stops[0]!.time, lunchesProvided: 1 }],
    };
    out.push(request);
  }
  if (market === 'PL') {
    // Claim the first night the trip has (computed once, outside the timing).
    for (const r of out) {
      const night = calculatePerDiems(r).nights[0];
      if (night) r.nights = [{ date: night.date, lumpSum: true }];
    }
  }
  return out;
}

/**
 * One timed run. `perSecond` is by the wall clock; `perCpuSecond` by the process's CPU time, which on a
 * process pinned to one core (taskset) is that core's time spent on the engine, GC included: the figure
 * that does not depend on how much of the core other processes took meanwhile.
 */
function run(list: PerDiemRequest[], seconds: number): { perSecond: number; perCpuSecond: number } {
  let count = 0;
  let sink = 0;
  const end = performance.now() + seconds * 1000;
  const cpu0 = process.cpuUsage();
  let now = performance.now();
  const t0 = now;
  while (now < end) {
    for (let k = 0; k < 100; k++) {
      sink += calculatePerDiems(list[count % list.length]!).items.length;
      count++;
    }
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpu0);
  if (sink < 0) console.log(sink); // keep the result alive
  return { perSecond: (count / (now - t0)) * 1000, perCpuSecond: count / ((cpu.user + cpu.system) / 1e6) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function main() {
  const results = [];
  const before = load();
  for (const market of MARKETS) {
    const list = requests(market);
    const sample = calculatePerDiems(list[0]!);
    run(list, 1); // warm-up: JIT and a first pass over the year's hours
    const runs = Array.from({ length: RUNS }, () => run(list, SECONDS));
    const wall = runs.map((r) => Math.round(r.perSecond));
    const cpu = runs.map((r) => Math.round(r.perCpuSecond));
    const row = {
      market,
      stops: ROUTES[market].countries.join(' → '),
      rowsPerItinerary: sample.items.length,
      nightsPerItinerary: sample.nights.length,
      medianPerCpuSecond: median(cpu),
      minPerCpuSecond: Math.min(...cpu),
      maxPerCpuSecond: Math.max(...cpu),
      medianPerSecond: median(wall),
      minPerSecond: Math.min(...wall),
      maxPerSecond: Math.max(...wall),
      runsPerCpuSecond: cpu,
      runsPerSecond: wall,
    };
    results.push(row);
    const n = (x: number) => x.toLocaleString('en');
    console.log(
      `${market} (${row.stops}; ${row.rowsPerItinerary} rows, ${row.nightsPerItinerary} nights): ` +
        `median ${n(row.medianPerCpuSecond)}/CPU-s (min ${n(row.minPerCpuSecond)}, max ${n(row.maxPerCpuSecond)}); ` +
        `wall clock median ${n(row.medianPerSecond)}/s (min ${n(row.minPerSecond)}, max ${n(row.maxPerSecond)})`,
    );
  }
  const date = new Date().toISOString().slice(0, 10);
  const file = join(ROOT, 'bench', 'results', `${date}-per-diem${BUNDLED ? '' : '-tsx'}.json`);
  const out = {
    date: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
    args: process.argv.slice(2),
    script: 'bench/per-diem.ts',
    runAs: BUNDLED ? `node ${relative(ROOT, process.argv[1] ?? '')} (esbuild bundle, as scripts/build.ts)` : 'tsx',
    // The cores this process may run on: `0` when pinned with taskset -c 0, as the figures want.
    cpusAllowed: /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '?',
    machine: machine(),
    loadBefore: before,
    loadAfter: load(),
    runs: RUNS,
    seconds: SECONDS,
    results,
  };
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`written ${file}`);
}

main();
