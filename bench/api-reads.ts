// API reads through the gateway against a bare express answering the same JSON (issue 7):
//   npx tsx bench/api-reads.ts [--seconds 5] [--rounds 2] [--connections 64] [--employees 40] [--profile]
//                              [--log-level info] [--count-commands] [--rate 300] [--paths company,page] [--otel]
// (also `npm run bench -- api ...`). The employees service, the gateway and the bare express each run in
// their own process (bench/lib/api-process.ts); the store is a FerretDB of this run's own (a free port, a
// fresh directory under .local/bench/api); the broker is the shared test-profile RabbitMQ (a vhost of its
// own; the employees service only declares its topology there). Load: autocannon, `connections` keep-alive
// connections, closed loop, from this process. Targets, interleaved in each round:
//   bare       the bare express (the ceiling);
//   gateway    GET /api/v1/... with the API key, through the gateway to the employees service;
//   service    the same request straight to the employees service with the context the gateway would
//              mint (what the gateway's hop costs is gateway − service);
//   gw-bare    a second gateway whose upstream is the bare express (key lookup included): the gateway's
//              own cost, with nothing behind it;
//   proxy-bare the least a Node proxy does (bench/lib/min-proxy.ts: node:http server, keep-alive agent, no
//              express, no checks) in front of the bare express: the ceiling of two Node hops, which
//              gw-bare can approach and no read through a gateway in its own process can pass.
// --profile adds one run per path with V8 CPU profiles of the gateway and the employees service.
// --log-level: the services' LOG_LEVEL, by default `info` as in production (a request line per request in
// the gateway and in the service); each process's stdout goes to a file under .local/bench/api/logs.
// --otel: the gateway and the service load their OpenTelemetry instrumentation as in production (spans
// made, none exported); by default they run without it.
// --rate: requests per second offered (autocannon's overallRate) instead of a closed loop: CPU per request
// compared at the same load, below saturation. --paths: only some of the two paths.
// Issue 25's scenarios (in --paths; all by default), after the rounds, against the same bare ceiling:
//   page304   GET of the employees page with If-None-Match of its current ETag (answered 304), through the
//             gateway and straight to the service;
//   changing  the employees page through the gateway while employees are updated through it
//             (--writes-per-sec, 10 by default): the answers must follow the writes;
//   sync      delta sync: --sync-employees (10,000) employees in a company of their own, --sync-changed (100)
//             of them updated, then `updatedSince` + `nextCursor` pages of 100: the requests it takes.
// --count-commands: the employees service counts its store commands (driver command monitoring); after the
// warm-up, 50 requests one at a time per path give the commands per request. Monitoring decodes every reply
// a second time, so the timed figures of such a run are not comparable with others.
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CONTEXT_HEADER, mintContext } from '../packages/platform/src';
import { repoRoot } from '../packages/testkit/src/infra/infra';
import { startApiBenchEnv } from './lib/api-bench-env';
import { revisionOf } from './lib/results-file';
import { summarizeCpuProfile } from './lib/cpuprofile';
import { CpuMeter, load, machine, pidListeningOn, round2 } from './lib/system';
import { runMain } from './lib/cli';

const autocannon = createRequire(__filename)('autocannon') as (opts: object) => Promise<any>;

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const SECONDS = opt('seconds', 5);
const ROUNDS = opt('rounds', 2);
const CONNECTIONS = opt('connections', 64);
const EMPLOYEES = opt('employees', 40);
/** Requests per second offered in all (autocannon's overallRate); 0: closed loop, as fast as answered. */
const RATE = opt('rate', 0);
const ONLY = argv.includes('--paths')
  ? argv[argv.indexOf('--paths') + 1]!.split(',')
  : ['company', 'page', 'page304', 'changing', 'sync'];
const WRITES_PER_SEC = opt('writes-per-sec', 10);
const SYNC_EMPLOYEES = opt('sync-employees', 10_000);
const SYNC_CHANGED = opt('sync-changed', 100);
const PROFILE = argv.includes('--profile');
const COUNT_COMMANDS = argv.includes('--count-commands');
const OTEL = argv.includes('--otel');
const LOG_LEVEL = argv.includes('--log-level') ? argv[argv.indexOf('--log-level') + 1]! : 'info';
const ROOT = repoRoot();
const STATE = join(ROOT, '.local', 'bench', 'api');
const log = (line: string) => process.stdout.write(`[api-bench] ${line}\n`);

interface Child {
  proc: ChildProcess;
  url: string;
  pid: number;
}

function ask<T>(child: ChildProcess, message: object, reply: string, timeoutMs = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${reply} from ${child.pid}`)), timeoutMs);
    const on = (m: { type: string }) => {
      if (m.type !== reply) return;
      clearTimeout(timer);
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    if (Object.keys(message).length > 0) child.send(message);
  });
}

let started = 0;
async function start(role: string, env: NodeJS.ProcessEnv): Promise<Child> {
  mkdirSync(join(STATE, 'logs'), { recursive: true });
  // The request log goes where production sends it, out of the process (a file here, a pipe there).
  const out = openSync(join(STATE, 'logs', `${role}-${++started}.log`), 'w');
  const proc = fork(join(ROOT, 'bench', 'lib', 'api-process.ts'), [], {
    cwd: ROOT,
    // --otel: the services' OpenTelemetry instrumentation, loaded first as their main.ts does (no exporter).
    execArgv: [
      '--import',
      'tsx',
      ...(OTEL && role !== 'bare' ? ['--import', join(ROOT, 'packages', 'platform', 'src', 'telemetry.ts')] : []),
    ],
    env: {
      ...env,
      BENCH_ROLE: role,
      ...(OTEL ? { OTEL_SDK_DISABLED: 'false', OTEL_SERVICE_NAME: role } : {}),
      ...(COUNT_COMMANDS ? { BENCH_COUNT_COMMANDS: 'true' } : {}),
    },
    stdio: ['ignore', out, 'inherit', 'ipc'],
  });
  const ready = await ask<{ url: string; pid: number }>(proc, {}, 'ready');
  return { proc, url: ready.url, pid: ready.pid };
}

interface Run {
  target: string;
  path: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  cores: Record<string, number>;
  otherCores: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const { env, vars, storePort, stop: stopEnv } = await startApiBenchEnv(ROOT, STATE, 'apibench', LOG_LEVEL);
  const children: Child[] = [];
  try {
    const employees = await start('employees', vars);
    children.push(employees);
    const gateway = await start('gateway', { ...vars, EMPLOYEES_URL: employees.url });
    children.push(gateway);
    const seeded = await ask<{ apiKey: string; tenantId: string }>(employees.proc, { type: 'seed' }, 'seeded');
    const auth = { authorization: `Bearer ${seeded.apiKey}` };
    for (let i = 0; i < EMPLOYEES; i += 4) {
      await Promise.all(
        Array.from({ length: Math.min(4, EMPLOYEES - i) }, async (_, j) => {
          const res = await fetch(`${gateway.url}/api/v1/employees`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ firstName: `Ann${i + j}`, lastName: 'Bench', email: `ann${i + j}@bench.test` }),
          });
          if (res.status !== 201) throw new Error(`create employee: ${res.status} ${await res.text()}`);
        }),
      );
    }
    // The caller context the gateway mints for this key (for the direct runs).
    const resolved = await fetch(`${employees.url}/internal/api-keys/resolve`, {
      method: 'POST',
      headers: env.serviceHeaders('gateway', 'employees'),
      body: JSON.stringify({ key: seeded.apiKey }),
    }).then((r) => r.json() as Promise<Record<string, unknown>>);
    // Minted afresh for each run: a context is valid for a short time only.
    const direct = () => ({
      [CONTEXT_HEADER]: mintContext({ kind: 'caller', ...resolved, requestId: randomUUID() } as never, env.signingKey),
    });
    const paths = [
      ...(ONLY.includes('company') ? ['/api/v1/company'] : []),
      ...(ONLY.includes('page') ? ['/api/v1/employees?page=1&pageSize=20'] : []),
    ];
    const bodies: Record<string, string> = {};
    for (const p of paths) {
      const res = await fetch(`${gateway.url}${p}`, { headers: auth });
      if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
      bodies[p.split('?')[0]!] = await res.text();
    }
    log(`bodies: ${paths.map((p) => `${p} ${bodies[p.split('?')[0]!]!.length} bytes`).join(', ')}`);
    const bare = await start('bare', {
      ...process.env,
      BENCH_BODIES: JSON.stringify(bodies),
      BENCH_CALLER: JSON.stringify(resolved),
    });
    children.push(bare);
    const gatewayOverBare = await start('gateway', { ...vars, EMPLOYEES_URL: bare.url });
    children.push(gatewayOverBare);
    const proxyOverBare = await start('min-proxy', { ...process.env, UPSTREAM_URL: bare.url });
    children.push(proxyOverBare);
    const pids = {
      gateway: gateway.pid,
      employees: employees.pid,
      bare: bare.pid,
      'gw-bare': gatewayOverBare.pid,
      'proxy-bare': proxyOverBare.pid,
      ferretdb: pidListeningOn(storePort),
    };
    const targets = [
      { target: 'bare', base: bare.url, headers: () => ({}) },
      { target: 'gateway', base: gateway.url, headers: () => auth },
      { target: 'service', base: employees.url, headers: direct },
      { target: 'gw-bare', base: gatewayOverBare.url, headers: () => auth },
      { target: 'proxy-bare', base: proxyOverBare.url, headers: () => auth },
    ];

    async function run(target: (typeof targets)[number], path: string, seconds: number): Promise<Run> {
      const meter = new CpuMeter(pids);
      const r = await autocannon({
        url: `${target.base}${path}`,
        connections: CONNECTIONS,
        ...(RATE ? { overallRate: RATE } : {}),
        duration: seconds,
        headers: target.headers(),
      });
      const cpu = meter.read();
      return {
        target: target.target,
        path,
        requestsPerSec: Math.round(r.requests.average),
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
        cores: cpu.cores,
        otherCores: cpu.otherCores,
      };
    }

    log(`warm-up (1 s per target and path); load ${load().join(' ')}`);
    for (const path of paths) for (const t of targets) await run(t, path, 1);

    // Store commands per request, exactly: requests one at a time, less what the service sends while idle
    // over the same time (the outbox relay's poll).
    const storeCommands: Record<string, Record<string, number>> = {};
    if (COUNT_COMMANDS) {
      const counts = () =>
        ask<{ commands: Record<string, number> }>(employees.proc, { type: 'commands' }, 'commands').then(
          (m) => m.commands,
        );
      const delta = (a: Record<string, number>, b: Record<string, number>) =>
        Object.fromEntries(Object.keys(b).map((k) => [k, b[k]! - (a[k] ?? 0)]));
      const N = 50;
      for (const path of paths)
        for (const t of targets.filter((x) => x.target === 'gateway' || x.target === 'service')) {
          // The previous requests (a page run leaves dozens in flight for seconds) must be done first: wait
          // for a second in which the service sends no more than the relay's polls.
          for (let quiet = 0, last = await counts(); quiet < 2;) {
            await new Promise((resolve) => setTimeout(resolve, 500));
            const now = await counts();
            const sent = Object.values(delta(last, now)).reduce((a, b) => a + b, 0);
            quiet = sent <= 1 ? quiet + 1 : 0;
            last = now;
          }
          const before = await counts();
          const started = Date.now();
          for (let i = 0; i < N; i++) {
            const res = await fetch(`${t.base}${path}`, { headers: t.headers() });
            if (res.status !== 200) throw new Error(`${t.target} ${path}: ${res.status} ${await res.text()}`);
            await res.arrayBuffer();
          }
          const busy = delta(before, await counts());
          const took = Date.now() - started;
          const idleFrom = await counts();
          await new Promise((resolve) => setTimeout(resolve, took));
          const idle = delta(idleFrom, await counts());
          storeCommands[`${t.target} ${path}`] = Object.fromEntries(
            Object.entries(busy)
              .map(([k, n]) => [k, round2((n - (idle[k] ?? 0)) / N)] as const)
              .filter(([, n]) => n !== 0),
          );
        }
      log(`store commands per request (${N} requests one at a time): ${JSON.stringify(storeCommands)}`);
    }
    const runs: Run[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const path of paths)
        for (const t of targets) {
          // Requests still in flight from the previous target (seconds each under load) drain first.
          await new Promise((resolve) => setTimeout(resolve, 2000));
          const r = await run(t, path, SECONDS);
          runs.push(r);
          log(
            `round ${round} ${path} ${t.target}: ${r.requestsPerSec} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, non-2xx ${r.non2xx}, errors ${r.errors}; cores ${JSON.stringify(r.cores)} other ${r.otherCores}; load ${load()[0]}`,
          );
        }
    }
    const summary = paths.map((path) => {
      const of = (target: string) => runs.filter((r) => r.path === path && r.target === target);
      const med = (target: string, k: 'requestsPerSec' | 'p50Ms' | 'p99Ms') => median(of(target).map((r) => r[k]));
      const ceiling = med('bare', 'requestsPerSec');
      const figures = (target: string) => ({
        requestsPerSec: med(target, 'requestsPerSec'),
        p50Ms: med(target, 'p50Ms'),
        p99Ms: med(target, 'p99Ms'),
        ratioToBare: round2(med(target, 'requestsPerSec') / ceiling),
      });
      return { path, ...Object.fromEntries(targets.map((t) => [t.target, figures(t.target)])) } as {
        path: string;
      } & Record<string, ReturnType<typeof figures>>;
    });
    console.table(summary.flatMap((s) => targets.map(({ target }) => ({ path: s.path, target, ...s[target] }))));

    const scenarios = await issue25Scenarios({
      gateway,
      employees,
      auth,
      direct,
      bareOf: (path: string) => summary.find((x) => x.path === path)?.bare?.requestsPerSec,
      run,
    });

    // The gateway alone (over the bare express), profiled during a gw-bare run.
    async function profileGatewayOverBare(path: string) {
      const file = join(STATE, `gw-bare-${paths.indexOf(path)}.cpuprofile`);
      await ask(gatewayOverBare.proc, { type: 'profile-start' }, 'profile-started');
      const r = await run(targets[3]!, path, SECONDS);
      await ask(gatewayOverBare.proc, { type: 'profile-stop', file }, 'profile-stopped');
      return { run: r, profile: summarizeCpuProfile(file, 15) };
    }
    const profiles: Record<string, unknown> = {};
    if (PROFILE) {
      for (const path of paths) {
        const files = {
          gateway: join(STATE, `gateway-${paths.indexOf(path)}.cpuprofile`),
          employees: join(STATE, `employees-${paths.indexOf(path)}.cpuprofile`),
        };
        await Promise.all([gateway, employees].map((c) => ask(c.proc, { type: 'profile-start' }, 'profile-started')));
        const r = await run(targets[1]!, path, SECONDS);
        await ask(gateway.proc, { type: 'profile-stop', file: files.gateway }, 'profile-stopped');
        await ask(employees.proc, { type: 'profile-stop', file: files.employees }, 'profile-stopped');
        profiles[path] = {
          run: r,
          gateway: summarizeCpuProfile(files.gateway, 12),
          employees: summarizeCpuProfile(files.employees, 12),
          gatewayOverBare: await profileGatewayOverBare(path),
        };
        log(`profile ${path}: ${JSON.stringify(profiles[path], null, 1)}`);
      }
    }

    const date = new Date().toISOString().slice(0, 10);
    const file = join(ROOT, 'bench', 'results', `${date}-api-reads.json`);
    const previous = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { runs: [] };
    previous.runs.push({
      startedAt: new Date().toISOString(),
      commit: revisionOf(ROOT),
      machine: machine(),
      load: load(),
      settings: {
        seconds: SECONDS,
        rounds: ROUNDS,
        connections: CONNECTIONS,
        rate: RATE,
        paths: ONLY,
        employees: EMPLOYEES,
        logLevel: LOG_LEVEL,
        countCommands: COUNT_COMMANDS,
        otel: OTEL,
        writesPerSec: WRITES_PER_SEC,
        syncEmployees: SYNC_EMPLOYEES,
        syncChanged: SYNC_CHANGED,
      },
      summary,
      scenarios,
      ...(COUNT_COMMANDS ? { storeCommandsPerRequest: storeCommands } : {}),
      runs,
      profiles,
    });
    writeFileSync(file, `${JSON.stringify(previous, null, 1)}\n`);
    log(`results written to ${file}`);
  } finally {
    for (const c of children.reverse())
      await ask(c.proc, { type: 'stop' }, 'stopped', 10_000).catch(() => c.proc.kill());
    await stopEnv();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PAGE = '/api/v1/employees?page=1&pageSize=20';

interface Scenarios {
  gateway: Child;
  employees: Child;
  auth: Record<string, string>;
  direct: () => Record<string, string>;
  bareOf: (path: string) => number | undefined;
  run: (
    target: { target: string; base: string; headers: () => Record<string, string> },
    path: string,
    seconds: number,
  ) => Promise<Run>;
}

/** Issue 25: conditional reads answered 304, reads of a changing collection, and a delta sync. */
async function issue25Scenarios({ gateway, employees, auth, direct, bareOf, run }: Scenarios) {
  const out: Record<string, unknown> = {};
  const bare = bareOf(PAGE);
  const rounds = async (target: Parameters<Scenarios['run']>[0], during?: () => () => Promise<number>) => {
    const runs: Array<Run & { writes?: number }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await sleep(2000);
      const stop = during?.();
      const r: Run & { writes?: number } = await run(target, PAGE, SECONDS);
      if (stop) r.writes = await stop();
      runs.push(r);
      log(
        `round ${round} ${PAGE} ${target.target}: ${r.requestsPerSec} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, non-2xx ${r.non2xx}, errors ${r.errors}${r.writes !== undefined ? `, writes ${r.writes}` : ''}; load ${load()[0]}`,
      );
    }
    const rps = median(runs.map((r) => r.requestsPerSec));
    return {
      requestsPerSec: rps,
      p50Ms: median(runs.map((r) => r.p50Ms)),
      p99Ms: median(runs.map((r) => r.p99Ms)),
      ratioToBare: bare ? round2(rps / bare) : null,
      runs,
    };
  };
  if (ONLY.includes('page304')) {
    const tagged = await fetch(`${gateway.url}${PAGE}`, { headers: auth });
    const etag = tagged.headers.get('etag') ?? '';
    await tagged.arrayBuffer();
    const check = await fetch(`${gateway.url}${PAGE}`, { headers: { ...auth, 'if-none-match': etag } });
    if (check.status !== 304) throw new Error(`page304: expected 304, got ${check.status}`);
    out.page304 = {
      gateway: await rounds({
        target: 'gateway-304',
        base: gateway.url,
        headers: () => ({ ...auth, 'if-none-match': etag }),
      }),
      service: await rounds({
        target: 'service-304',
        base: employees.url,
        headers: () => ({ ...direct(), 'if-none-match': etag }),
      }),
    };
  }
  if (ONLY.includes('changing')) {
    const list = (await (await fetch(`${gateway.url}/api/v1/employees?pageSize=100`, { headers: auth })).json()) as {
      items: Array<{ id: string; firstName: string; lastName: string; email: string | null }>;
    };
    const writer = () => {
      let stopped = false;
      let writes = 0;
      const loop = (async () => {
        for (let n = 0; !stopped; n++) {
          const started = Date.now();
          const e = list.items[n % list.items.length]!;
          const res = await fetch(`${gateway.url}/api/v1/employees/${e.id}`, {
            method: 'PUT',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ firstName: e.firstName, lastName: e.lastName, email: e.email, position: `p${n}` }),
          });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`changing: PUT ${res.status}`);
          writes++;
          await sleep(Math.max(0, 1000 / WRITES_PER_SEC - (Date.now() - started)));
        }
      })();
      return async () => {
        stopped = true;
        await loop;
        return writes;
      };
    };
    out.changing = {
      writesPerSec: WRITES_PER_SEC,
      gateway: await rounds({ target: 'gateway-changing', base: gateway.url, headers: () => auth }, writer),
    };
  }
  if (ONLY.includes('sync')) out.sync = await deltaSync(gateway, employees);
  log(`issue 25 scenarios: ${JSON.stringify(out, (k, v) => (k === 'runs' ? undefined : v))}`);
  return out;
}

/** A partner's copy of SYNC_EMPLOYEES employees brought up to date after SYNC_CHANGED changes. */
async function deltaSync(gateway: Child, employees: Child) {
  const tenant = await ask<{ apiKey: string; tenantId: string }>(employees.proc, { type: 'seed' }, 'seeded');
  const auth = { authorization: `Bearer ${tenant.apiKey}` };
  const seededAt = Date.now();
  const { ids } = await ask<{ ids: string[] }>(
    employees.proc,
    { type: 'seed-employees', tenantId: tenant.tenantId, count: SYNC_EMPLOYEES },
    'seeded-employees',
    600_000,
  );
  log(`sync: ${ids.length} employees inserted in ${Date.now() - seededAt} ms`);
  await sleep(5);
  const since = new Date().toISOString();
  const changed = ids.filter((_, i) => i % Math.floor(ids.length / SYNC_CHANGED) === 0).slice(0, SYNC_CHANGED);
  for (const [n, id] of changed.entries()) {
    const res = await fetch(`${gateway.url}/api/v1/employees/${id}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: `Sync${n}`, lastName: 'Changed' }),
    });
    if (res.status !== 200) throw new Error(`sync: PUT ${res.status} ${await res.text()}`);
  }
  const started = performance.now();
  const seen = new Set<string>();
  let requests = 0;
  for (let cursor: string | null = null; ;) {
    const url: string = `${gateway.url}/api/v1/employees?updatedSince=${since}&pageSize=100${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await fetch(url, { headers: auth });
    requests++;
    if (res.status !== 200) throw new Error(`sync: GET ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { items: Array<{ id: string }>; nextCursor: string | null };
    for (const item of page.items) seen.add(item.id);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  const missing = changed.filter((id) => !seen.has(id)).length;
  return {
    employees: ids.length,
    changed: changed.length,
    requests,
    received: seen.size,
    missing,
    ms: Math.round(performance.now() - started),
  };
}

runMain(main);
