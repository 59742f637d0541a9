// Store benchmark: the three reads the issue names, on the stock FerretDB v1.24.2 build and on ours
// (tools/ferretdb/sqlite-pushdown.patch), at two collection sizes. Each size's data directory is written
// once by the STOCK build and then served in turn by both builds (so it also shows that the patched
// build works on a directory made by upstream). Sequential commands from one client, timed by the
// client; the figure is the median, next to p95 and the stock/patched ratio.
//
//   npm run bench -- store [--sizes 10000,100000,1000000] [--samples 200] [--stock-samples 3]
//                          [--stock-max-rows 100000] [--builds patched,stock] [--tag name] [--keep]
//                          [--previous path/to/ferretdb-local]
//
// --previous measures a third build (its samples as the patched one's) beside the two: an earlier
// ferretdb-local, e.g. one built from main before a change of the patch, for a before/after in one run.
//
// The stock build scans: one stock delivery-log page over 1,000,000 rows would take many minutes here,
// so the stock build is measured only up to --stock-max-rows.
//
// The collection is shaped as the dispatcher's `deliveries` (same indexes), with the outbox counter and
// its index that services with an outbox declare (`outboxSchemaFields`); rows belong to 10 tenants and
// to subscriptions of 1,000 rows each, so a subscription's delivery log is the same size at every
// collection size. The three operations:
//   read by id       findOne({_id, tenantId}) of a random existing row (and the bare {_id} for reference);
//   delivery-log page the deliveries route's query: count + find({tenantId, subscriptionId})
//                    .sort({createdAt: -1, _id: 1}).limit(20) (packages/platform paginate); and
//                    its two halves alone, and the find of the last page (skip 980);
//   idle outbox pass find({outboxCount: {$gt: 0}}, {outbox: 1}).limit(100) when nothing is pending
//                    (packages/platform outbox relay).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mongoClient } from './lib/store-probe';
import { machine, percentile, round2 } from './lib/system';
import { portOpen, waitFor } from '../packages/testkit/src/infra/wait';
import { repoRoot } from '../packages/testkit/src/infra/infra';

const PORT = 27057;
const TENANTS = 10;
const ROWS_PER_SUBSCRIPTION = 1000;
const DB = 'bench_store';
const COLL = 'deliveries';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const root = repoRoot();
const sizes = arg('sizes', '10000,100000,1000000').split(',').map(Number);
const samples = Number(arg('samples', '200'));
const stockSamples = Number(arg('stock-samples', '3'));
const stockMaxRows = Number(arg('stock-max-rows', '100000'));
const keep = process.argv.includes('--keep');
const builds = arg('builds', 'patched,stock').split(',');
const tag = arg('tag', '');
const previous = arg('previous', '');
type Build = 'stock' | 'patched' | 'previous';
const work = join(root, '.local', 'bench', 'store');

/** The two builds: ours as the bootstrap makes it, and upstream built from the same module (cached). */
function binaries(): Record<'stock' | 'patched', string> {
  const patched = join(root, '.tools', 'bin', 'ferretdb-local');
  if (!existsSync(patched)) throw new Error(`${patched} is missing: run scripts/bootstrap.sh`);
  const stock = join(root, '.tools', 'bin', 'ferretdb-stock');
  const src = ['go.mod', 'go.sum', 'main.go']
    .map((f) => readFileSync(join(root, 'tools', 'ferretdb', f), 'utf8'))
    .join();
  const stamp = `${stock}.src`;
  if (!existsSync(stock) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== src) {
    console.log('[store] building the stock FerretDB v1.24.2 (tools/ferretdb/build.sh --stock)');
    const r = spawnSync('bash', [join(root, 'tools', 'ferretdb', 'build.sh'), '--stock', stock], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('stock build failed');
    writeFileSync(stamp, src);
  }
  return { stock, patched };
}

async function startServer(binary: string, dataDir: string): Promise<ChildProcess> {
  if (await portOpen(PORT)) throw new Error(`port ${PORT} is in use`);
  const proc = spawn(binary, ['-listen', `127.0.0.1:${PORT}`, '-data', dataDir], { stdio: 'ignore' });
  await waitFor('FerretDB', () => portOpen(PORT), 30_000);
  return proc;
}

async function stopServer(proc: ChildProcess): Promise<void> {
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
  for (let i = 0; i < 50 && (await portOpen(PORT)); i++) await new Promise((r) => setTimeout(r, 100));
}

const payload = JSON.stringify({
  id: randomUUID(),
  type: 'employee.created',
  createdAt: new Date().toISOString(),
  data: { x: 'y'.repeat(330) },
});

function subscriptionOf(n: number) {
  const sub = Math.floor(n / ROWS_PER_SUBSCRIPTION);
  return { tenantId: `tenant-${sub % TENANTS}`, subscriptionId: `sub-${sub}` };
}

function row(n: number) {
  const at = new Date(1_790_000_000_000 + n * 1000);
  return {
    _id: `d-${n}`,
    ...subscriptionOf(n),
    eventId: randomUUID(),
    eventType: 'employee.created',
    occurredAt: at,
    payload,
    status: ['Succeeded', 'Failed', 'Pending'][n % 3],
    series: 1,
    attemptsMade: 1,
    totalAttempts: 1,
    attemptLog: [],
    lastStatusCode: 204,
    responseBody: null,
    nextAttemptAt: null,
    createdAt: at,
    updatedAt: at,
    outboxCount: 0,
  };
}

/** Writes `size` rows with the stock build (once; reused while the `.complete` marker is there). */
async function load(stock: string, size: number): Promise<string> {
  const dir = join(work, `data-${size}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await startServer(stock, dir);
  const client = mongoClient(root, `mongodb://127.0.0.1:${PORT}`);
  await client.connect();
  try {
    const c = client.db(DB).collection(COLL);
    await c.createIndex({ tenantId: 1, subscriptionId: 1, eventId: 1 }, { unique: true });
    await c.createIndex({ tenantId: 1, subscriptionId: 1, createdAt: -1 });
    await c.createIndex({ createdAt: 1 });
    await c.createIndex({ outboxCount: 1 });
    const t0 = performance.now();
    const batch = 1000;
    for (let n = 0; n < size; n += batch) {
      await c.insertMany(
        Array.from({ length: Math.min(batch, size - n) }, (_, i) => row(n + i)),
        { ordered: false },
      );
      if ((n / batch) % 100 === 99) console.log(`[store] ${n + batch} rows loaded`);
    }
    const s = (performance.now() - t0) / 1000;
    console.log(`[store] ${size} rows loaded in ${s.toFixed(0)} s (${Math.round(size / s)} rows/s)`);
    writeFileSync(join(dir, '.complete'), JSON.stringify({ rows: size, loadSeconds: round2(s) }));
  } finally {
    await client.close();
    await stopServer(server);
  }
  return dir;
}

interface Figure {
  build: Build;
  rows: number;
  op: string;
  samples: number;
  p50Ms: number;
  p95Ms: number;
}

async function measure(build: Build, binary: string, dir: string, size: number): Promise<Figure[]> {
  const server = await startServer(binary, dir);
  const client = mongoClient(root, `mongodb://127.0.0.1:${PORT}`);
  await client.connect();
  const db = client.db(DB);
  const c = db.collection(COLL) as unknown as {
    findOne(f: object): Promise<{ tenantId: string } | null>;
    countDocuments(f: object): Promise<number>;
    find(
      f: object,
      o?: object,
    ): {
      sort(s: object): { skip(n: number): { limit(n: number): { toArray(): Promise<unknown[]> } } };
      limit(n: number): { toArray(): Promise<unknown[]> };
    };
  };
  const n = build === 'stock' ? stockSamples : samples;
  // Rows spread evenly over the collection (insertion order), shuffled: with a scan the cost depends on
  // where the row is, and n samples see every part of the collection equally (the median is the middle).
  const pick = (i: number) => Math.floor((((i * 37) % n) + 0.5) * (size / n));
  const ops: Array<[string, (i: number) => Promise<void>]> = [
    [
      'read by id {_id, tenantId}',
      async (i) => {
        const k = pick(i);
        const d = await c.findOne({ _id: `d-${k}`, tenantId: subscriptionOf(k).tenantId });
        if (!d) throw new Error('row not found');
      },
    ],
    [
      'read by id {_id}',
      async (i) => {
        if (!(await c.findOne({ _id: `d-${pick(i)}` }))) throw new Error('row not found');
      },
    ],
    [
      'delivery-log page (count + 20 newest)',
      async (i) => {
        const filter = subscriptionOf(pick(i));
        const [total, docs] = await Promise.all([
          c.countDocuments(filter),
          c.find(filter).sort({ createdAt: -1, _id: 1 }).skip(0).limit(20).toArray(),
        ]);
        if (total !== ROWS_PER_SUBSCRIPTION || docs.length !== 20) throw new Error(`page: ${total} / ${docs.length}`);
      },
    ],
    [
      'delivery-log count alone',
      async (i) => {
        const total = await c.countDocuments(subscriptionOf(pick(i)));
        if (total !== ROWS_PER_SUBSCRIPTION) throw new Error(`count: ${total}`);
      },
    ],
    [
      'delivery-log find alone (20 newest)',
      async (i) => {
        const docs = await c
          .find(subscriptionOf(pick(i)))
          .sort({ createdAt: -1, _id: 1 })
          .skip(0)
          .limit(20)
          .toArray();
        if (docs.length !== 20) throw new Error(`find: ${docs.length}`);
      },
    ],
    [
      'delivery-log find, last page (skip 980)',
      async (i) => {
        const docs = await c
          .find(subscriptionOf(pick(i)))
          .sort({ createdAt: -1, _id: 1 })
          .skip(ROWS_PER_SUBSCRIPTION - 20)
          .limit(20)
          .toArray();
        if (docs.length !== 20) throw new Error(`find: ${docs.length}`);
      },
    ],
    [
      'idle outbox pass',
      async () => {
        const docs = await c
          .find({ outboxCount: { $gt: 0 } }, { projection: { outbox: 1 } })
          .limit(100)
          .toArray();
        if (docs.length !== 0) throw new Error('outbox not idle');
      },
    ],
  ];
  const out: Figure[] = [];
  try {
    for (const [op, run] of ops) {
      if (n > 3) await run(0); // warm-up, not counted (not for the few slow stock samples)
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await run(i);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const f = {
        build,
        rows: size,
        op,
        samples: n,
        p50Ms: round2(percentile(times, 0.5)),
        p95Ms: round2(percentile(times, 0.95)),
      };
      console.log(`[store] ${build} ${size} rows: ${op}: p50 ${f.p50Ms} ms, p95 ${f.p95Ms} ms (${n} samples)`);
      out.push(f);
    }
    const explain = await db.command({
      explain: { find: COLL, filter: subscriptionOf(0), sort: { createdAt: -1, _id: 1 }, limit: 20 },
    });
    console.log(
      `[store] ${build} plan of the page (sortPushdown ${String(explain.sortPushdown)}): ${JSON.stringify((explain.queryPlanner as { Plan?: unknown }).Plan)}`,
    );
  } finally {
    await client.close();
    await stopServer(server);
  }
  return out;
}

async function main() {
  const bins = binaries();
  const figures: Figure[] = [];
  for (const size of sizes) {
    const dir = await load(bins.stock, size);
    if (builds.includes('patched')) figures.push(...(await measure('patched', bins.patched, dir, size)));
    if (previous) figures.push(...(await measure('previous', previous, dir, size)));
    if (builds.includes('stock') && size <= stockMaxRows)
      figures.push(...(await measure('stock', bins.stock, dir, size)));
    if (!keep && size >= 100_000) rmSync(dir, { recursive: true, force: true });
  }
  const lines = [
    `| operation | rows | stock p50 (ms) |${previous ? ' previous p50 (ms) |' : ''} patched p50 (ms) | patched p95 (ms) | stock / patched |${previous ? ' previous / patched |' : ''}`,
    `| --- | ---: | ---: |${previous ? ' ---: |' : ''} ---: | ---: | ---: |${previous ? ' ---: |' : ''}`,
  ];
  const ops = [...new Set(figures.map((f) => f.op))];
  for (const op of ops)
    for (const size of sizes) {
      const s = figures.find((f) => f.op === op && f.rows === size && f.build === 'stock');
      const p = figures.find((f) => f.op === op && f.rows === size && f.build === 'patched');
      const v = figures.find((f) => f.op === op && f.rows === size && f.build === 'previous');
      const ratio = s && p ? String(round2(s.p50Ms / p.p50Ms)) : 'not measured';
      const prev = previous ? ` ${v ? v.p50Ms : '-'} |` : '';
      const prevRatio = previous ? ` ${v && p ? round2(v.p50Ms / p.p50Ms) : '-'} |` : '';
      lines.push(
        `| ${op} | ${size} | ${s ? s.p50Ms : 'not measured'} |${prev} ${p ? p.p50Ms : '-'} | ${p ? p.p95Ms : '-'} | ${ratio} |${prevRatio}`,
      );
    }
  for (const op of ops) {
    const [small, large] = [sizes[0], sizes[sizes.length - 1]].map(
      (size) => figures.find((f) => f.op === op && f.rows === size && f.build === 'patched')?.p50Ms,
    );
    if (small && large && sizes.length > 1)
      lines.push(`- patched, ${op}: ${sizes[sizes.length - 1]} rows / ${sizes[0]} rows = ${round2(large / small)}`);
  }
  console.log(lines.join('\n'));
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  const file = join(
    root,
    'bench',
    'results',
    `store-${new Date().toISOString().slice(0, 10)}${tag ? `-${tag}` : ''}.json`,
  );
  writeFileSync(
    file,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        machine: machine(),
        loadAverage: loadavg(),
        sizes,
        samples,
        stockSamples,
        stockMaxRows,
        previous: previous || undefined,
        figures,
      },
      null,
      2,
    ),
  );
  console.log(`[store] figures written to ${file}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
