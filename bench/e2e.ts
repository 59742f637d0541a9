// End to end (issue 7): employees created through the API, delivered as signed webhooks, verified by the
// receiver SDK. `npm run bench -- e2e [options]` (scripts/bench.sh); see docs/benchmarks.md, "End to end".
//
// One FerretDB and one RabbitMQ of this run's own (bench/lib/isolated-infra.ts, free ports), the HTTPS
// receiver (bench/lib/receiver-process.ts, test CA) and, per step (one create rate), a fresh isolated
// environment (own vhost and databases, as a test file gets) with, each in its own process:
//   employees           start (its outbox relay publishes the domain events),
//   webhook-dispatcher  start (bench/lib/dispatcher-process.ts),
//   gateway             start, upstreams the two above (bench/lib/api-process.ts for both).
// Production-like settings: OTel off, response validation off (the production default), the spec's retry
// schedule, 10 s webhook time-out, the gateway's rate limit raised out of the way.
// A step: a tenant made the way the system tests make one (createTenant in the employees process), N
// subscriptions to employee.created through the gateway (POST /api/v1/webhooks) on the receiver, whose
// signing secrets go to the receiver so every delivery is verified with @travel/webhook-verify; a
// warm-up at half the rate; then creates (POST /api/v1/employees through the gateway) open loop at the
// rate over C keep-alive clients for the window; then a drain. The ceiling (a bare signing HTTPS client
// against the same receiver) runs at the start and the end of the run.
//
// Options: --rates 25/50/100 (creates/s, default 100), --subscriptions N (10), --clients C (16),
// --window S (20), --warmup S (5), --drain-max S (60), --ceiling-seconds S (3; 0 skips it),
// --employees N (1: employees processes behind the gateway, one list of URLs as the chart's replicas get;
// their CPU is added up under `employees`), --quick (a ~1 min smoke run: 20 creates/s, 5 s window), --monitor (the dispatcher counts and times its
// store commands and broker publishes, as the dispatch benchmark's --profile does; adds to its CPU).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { urlEnv } from '../contracts/src/services';
import { createTestEnv, type TestEnv } from '../packages/testkit/src/env';
import { queueDepth, repoRoot, type Infra } from '../packages/testkit/src/infra/infra';
import { ensureTestTls } from '../packages/testkit/src/tls';
import { ATTEMPT_QUEUE, EVENTS_QUEUE } from '../services/webhook-dispatcher/src/infra/queues';
import {
  ask,
  Dispatcher,
  measureCeiling,
  quiesce,
  Receiver,
  diff,
  startEmployeesReplicas,
  startServiceChild,
  sumBy,
  waitForExit,
  type CeilingResult,
  type ServiceChild,
} from './lib/children';
import { cliOptions, runMain } from './lib/cli';
import { postJson } from './lib/reliability/load';
import { BENCH_SERVICE_ENV, NO_RATE_LIMIT } from './lib/service-settings';
import { writeResultsFile } from './lib/results-file';
import { runInfraOnFreePorts } from './lib/isolated-infra';
import { mongoClient } from './lib/store-probe';
import type { Arrival } from './lib/protocol';
import { CpuMeter, load, machine, percentile, round2 } from './lib/system';

const ROOT = repoRoot();
const STATE = join(ROOT, '.local', 'bench', 'e2e');

// ---- options ----------------------------------------------------------------------------------------
const { flag, opt } = cliOptions();
const QUICK = flag('quick');
const RATES = (opt('rates') ?? (QUICK ? '20' : '100')).split(/[/,]/).filter(Boolean).map(Number);
const SUBSCRIPTIONS = Number(opt('subscriptions') ?? 10);
const CLIENTS = Number(opt('clients') ?? 16);
const WINDOW_S = Number(opt('window') ?? (QUICK ? 5 : 20));
const WARMUP_S = Number(opt('warmup') ?? (QUICK ? 2 : 5));
const DRAIN_MAX_S = Number(opt('drain-max') ?? (QUICK ? 30 : 60));
const CEILING_S = Number(opt('ceiling-seconds') ?? (QUICK ? 2 : 3));
/** The dispatcher counts and times its store commands and broker publishes (adds to its CPU). */
const MONITOR = flag('monitor');
const EMPLOYEES_REPLICAS = Number(opt('employees') ?? 1);
if (!(Number.isInteger(EMPLOYEES_REPLICAS) && EMPLOYEES_REPLICAS >= 1))
  throw new Error('--employees takes a whole number ≥ 1');
if (RATES.some((r) => !(r > 0)) || !(SUBSCRIPTIONS >= 1) || !(CLIENTS >= 1) || !(WINDOW_S > 0))
  throw new Error('--rates, --subscriptions, --clients and --window take positive numbers');

/** The end-to-end targets. */
const TARGET = { deliveriesPerSec: 1000, p99Ms: 250, missingOneSecondAfter: 0 };

/** What the three services run with: the benchmarks' production-like settings (docs/benchmarks.md). */
const SERVICE_ENV = { ...BENCH_SERVICE_ENV, ...NO_RATE_LIMIT };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));
const log = (line: string) => process.stdout.write(`[e2e] ${line}\n`);

// ---- the services -----------------------------------------------------------------------------------
type ApiChild = ServiceChild;

/** The employees service or the gateway in its own process (bench/lib/api-process.ts). */
const startApi = (role: 'employees' | 'gateway', env: NodeJS.ProcessEnv, logName: string): Promise<ApiChild> =>
  startServiceChild(join(ROOT, 'bench', 'lib', 'api-process.ts'), { ...env, BENCH_ROLE: role }, logName, role);

async function stopApi(c: ApiChild | undefined): Promise<void> {
  if (!c || c.proc.exitCode !== null) return;
  await ask(c.proc, { type: 'stop' }, 'stopped', 15_000).catch(() => c.proc.kill('SIGKILL'));
  await waitForExit(c.proc, 5000);
}

// ---- load -------------------------------------------------------------------------------------------
interface Create {
  /** performance.now() at which it was due, sent and answered. */
  dueAt: number;
  sentAt: number;
  doneAt: number;
  /** Date.now() at the answer. */
  answeredAt: number;
  status: number;
  employeeId?: string;
}

/**
 * Open loop over `clients` keep-alive connections: create k is due at start + k/rate; each client takes
 * the next create when it is free and sends it at its due time (late if every client was busy: the lag
 * is recorded). Resolves when every create of the window has been answered.
 */
async function createAtRate(
  gatewayUrl: string,
  apiKey: string,
  rate: number,
  seconds: number,
  label: string,
  onCreate: (c: Create) => void,
): Promise<{ creates: Create[]; startedAt: number; endsAt: number; maxLagMs: number }> {
  const base = new URL(gatewayUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const total = Math.max(1, Math.round(rate * seconds));
  const start = performance.now();
  const startedAt = Date.now();
  const creates: Create[] = [];
  let next = 0;
  let maxLagMs = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let k = next++; k < total; k = next++) {
        const dueAt = start + (k / rate) * 1000;
        await sleep(dueAt - performance.now());
        const sentAt = performance.now();
        maxLagMs = Math.max(maxLagMs, sentAt - dueAt);
        const body = JSON.stringify({
          firstName: 'Ana',
          lastName: `E2e-${label}-${k}`,
          email: `${label}-${k}@bench.test`,
        });
        const res = await postJson(agent, base, apiKey, '/api/v1/employees', body, 30_000);
        let employeeId: string | undefined;
        if (res.status === 201) employeeId = (JSON.parse(res.body) as { id: string }).id;
        const c = { dueAt, sentAt, doneAt: performance.now(), answeredAt: Date.now(), status: res.status, employeeId };
        creates.push(c);
        onCreate(c);
      }
    }),
  );
  agent.destroy();
  return { creates, startedAt, endsAt: startedAt + seconds * 1000, maxLagMs: Math.round(maxLagMs) };
}

// ---- one step ---------------------------------------------------------------------------------------
interface StepResult {
  step: number;
  createsPerSecOffered: number;
  subscriptions: number;
  clients: number;
  windowSeconds: number;
  /** From the first create of the window to the last answer (≥ the window when the clients fell behind). */
  loadSeconds: number;
  creates: {
    sent: number;
    accepted: number;
    acceptedPerSec: number;
    byStatus: Record<string, number>;
    latencyMs: { p50: number; p99: number; max: number };
    maxLagMs: number;
  };
  deliveriesOfferedPerSec: number;
  expected: number;
  /** Distinct (subscription, event) deliveries of the window's creates that verified. */
  received: number;
  /** Deliveries received and verified while the load ran, per second of it. */
  receivedPerSecInWindow: number;
  unverified: number;
  duplicates: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  /** Seconds from the window's scheduled end to the last create's answer (the load has stopped then). */
  loadStopSeconds: number;
  missingAtLoadStop: number;
  missingOneSecondAfterLoadStop: number;
  /** Seconds from the load's stop until the last delivery of the window arrived; null: not all in the bound. */
  drainSeconds: number | null;
  missingAtEnd: number;
  /** Per second of the load: accepted creates × N − deliveries received, so far. */
  backlogBySecond: number[];
  queuesAtLoadStop: Record<string, number>;
  attemptOutcomes: Record<string, number>;
  cpuCores: Record<string, number>;
  /** CPU milliseconds per received delivery, per process (cores ÷ deliveries/s in the window). */
  cpuMsPerDelivery: Record<string, number>;
  machineBusyCores: number;
  /** Share of the load time the dispatcher's event loop was busy. */
  dispatcherEventLoopBusy: number;
  /** Where the event→receipt time goes, per delivery of the window (from the dispatcher's delivery rows). */
  stagesMs?: Record<string, { p50: number; p95: number; p99: number }>;
  /** --monitor: the dispatcher's store commands and broker publishes over the window and the drain. */
  dispatcherOps?: Record<string, { perDelivery: number; count: number; p50Ms: number; p95Ms: number }>;
  load1AtStart: number;
  load1AtEnd: number;
  verdict: { deliveries: boolean; p99: boolean; backlog: boolean };
}

interface Context {
  infra: Infra;
  receiver: Receiver;
  pids: { ferretdb?: number; rabbitmq?: number };
}

async function subscribe(gatewayUrl: string, apiKey: string, url: string): Promise<{ id: string; secret: string }> {
  const res = await fetch(`${gatewayUrl}/api/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, eventTypes: ['employee.created'] }),
  });
  const body = (await res.json()) as { id?: string; signingSecret?: string };
  if (res.status !== 201 || !body.signingSecret || !body.id)
    throw new Error(`registering ${url}: ${res.status} ${JSON.stringify(body)}`);
  return { id: body.id, secret: body.signingSecret };
}

async function runStep(ctx: Context, step: number, rate: number): Promise<StepResult> {
  const env: TestEnv = await createTestEnv(`e2e-${step}`, SERVICE_ENV);
  const vars = { ...process.env, ...env.vars };
  let replicas: ApiChild[] = [];
  let gateway: ApiChild | undefined;
  let dispatcher: Dispatcher | undefined;
  try {
    const started = await startEmployeesReplicas(EMPLOYEES_REPLICAS, vars, `e2e-${step}-employees`);
    replicas = started.replicas;
    const employees = replicas[0]!;
    dispatcher = await Dispatcher.start(env.vars, MONITOR, `e2e-${step}-dispatcher`);
    gateway = await startApi(
      'gateway',
      { ...vars, ...urlEnv({ employees: started.urls, 'webhook-dispatcher': dispatcher.url }) },
      `e2e-${step}-gateway`,
    );
    const { apiKey, tenantId } = await ask<{ apiKey: string; tenantId: string }>(
      employees.proc,
      { type: 'seed' },
      'seeded',
      60_000,
    );
    const subscriptions: Array<{ id: string; secret: string }> = [];
    for (let i = 0; i < SUBSCRIPTIONS; i++)
      subscriptions.push(
        await subscribe(gateway.url, apiKey, `https://localhost:${ctx.receiver.healthyPort}/b/${step}/${i}`),
      );
    const subscriptionIds = subscriptions.map((x) => x.id);
    await ctx.receiver.verifyWith(
      step,
      subscriptions.map((x) => x.secret),
    );

    // Every row of this step; the phase of an event is that of the create its data.id names.
    const rows: Arrival[] = [];
    const phaseOf = new Map<string, 'warm' | 'measure'>();
    let warmArrived = 0;
    let measureArrived = 0;
    ctx.receiver.route(step, (row) => void rows.push(row));
    // An event may arrive before the bench has read its create's answer: counted once the answer is in.
    const recount = () => {
      warmArrived = 0;
      measureArrived = 0;
      const done = new Set<string>();
      for (const [, sub, eventId, , , verified, subject] of rows) {
        const key = `${sub}:${eventId}`;
        if (verified !== 1 || done.has(key)) continue;
        done.add(key);
        const p = phaseOf.get(subject ?? '');
        if (p === 'warm') warmArrived++;
        else if (p === 'measure') measureArrived++;
      }
    };

    // Warm-up at half the rate; its deliveries arrive before the window starts.
    const warm = await createAtRate(gateway.url, apiKey, Math.max(1, rate / 2), WARMUP_S, `w${step}`, (c) => {
      if (c.employeeId) phaseOf.set(c.employeeId, 'warm');
    });
    const warmAccepted = warm.creates.filter((c) => c.status === 201).length;
    const warmDeadline = Date.now() + 30_000;
    for (recount(); warmArrived < warmAccepted * SUBSCRIPTIONS && Date.now() < warmDeadline; recount()) {
      await sleep(200);
      await ctx.receiver.flush();
    }
    if (warmArrived < warmAccepted * SUBSCRIPTIONS)
      log(`step ${step}: warm-up not drained (${warmArrived}/${warmAccepted * SUBSCRIPTIONS}); measuring anyway`);
    await sleep(500);

    // The window.
    const cpu = new CpuMeter({
      gateway: gateway.pid,
      ...started.pids,
      dispatcher: dispatcher.pid,
      ferretdb: ctx.pids.ferretdb,
      rabbitmq: ctx.pids.rabbitmq,
      receiver: ctx.receiver.pid,
      bench: process.pid,
    });
    if (MONITOR) await dispatcher.resetStats();
    const before = await dispatcher.stats();
    const load1AtStart = load()[0]!;
    cpu.reset();
    const windowRun = await createAtRate(gateway.url, apiKey, rate, WINDOW_S, `m${step}`, (c) => {
      if (c.employeeId) phaseOf.set(c.employeeId, 'measure');
    });
    const loadStop = Math.max(windowRun.endsAt, ...windowRun.creates.map((c) => c.answeredAt));
    const cpuRead = cpu.read();
    const elu = await dispatcher.stats();
    const load1AtEnd = load()[0]!;
    const queuesAtLoadStop: Record<string, number> = {};
    for (const [name, q] of [
      ['dispatcher events', EVENTS_QUEUE],
      ['dispatcher attempts', ATTEMPT_QUEUE],
    ] as const)
      queuesAtLoadStop[name] = await queueDepth(ctx.infra, env.vhost, q);

    // Drain: every delivery of the window's accepted creates, bounded.
    const accepted = windowRun.creates.filter((c) => c.status === 201);
    const expected = accepted.length * SUBSCRIPTIONS;
    for (recount(); measureArrived < expected && Date.now() - loadStop < DRAIN_MAX_S * 1000; recount()) {
      await sleep(200);
      await ctx.receiver.flush();
    }
    await ctx.receiver.flush();
    recount();
    const after = await dispatcher.stats();
    ctx.receiver.route(step, undefined);

    // Analysis, from the rows.
    const firsts = new Map<string, Arrival>();
    let duplicates = 0;
    let unverified = 0;
    for (const row of rows) {
      if (row[5] !== 1) {
        unverified++;
        continue;
      }
      const key = `${row[1]}:${row[2]}`;
      if (firsts.has(key)) duplicates++;
      else firsts.set(key, row);
    }
    const measured = [...firsts.values()].filter((r) => phaseOf.get(r[6] ?? '') === 'measure');
    const latencies = measured.map((r) => r[3] - r[4]).sort((a, b) => a - b);
    const arrivals = measured.map((r) => r[3]);
    // The load lasts from the first create to the last answer: longer than the window when the clients
    // could not keep the schedule (every one busy), so rates are per second of that time.
    const loadSeconds = (loadStop - windowRun.startedAt) / 1000;
    const inWindow = arrivals.filter((t) => t >= windowRun.startedAt && t <= loadStop).length;
    const lastArrival = arrivals.reduce((a, b) => Math.max(a, b), 0);
    const received = measured.length;
    const backlogBySecond: number[] = [];
    for (let t = windowRun.startedAt + 1000; t <= loadStop; t += 1000)
      backlogBySecond.push(
        accepted.filter((c) => c.answeredAt <= t).length * SUBSCRIPTIONS - arrivals.filter((a) => a <= t).length,
      );
    const apiLatencies = windowRun.creates.map((c) => c.doneAt - c.sentAt).sort((a, b) => a - b);
    const byStatus: Record<string, number> = {};
    for (const c of windowRun.creates) byStatus[c.status] = (byStatus[c.status] ?? 0) + 1;
    const receivedPerSec = round2(inWindow / loadSeconds);
    const ms = (cores: number) => (receivedPerSec > 0 ? round2((cores * 1000) / receivedPerSec) : NaN);
    const cores: Record<string, number> = { ...cpuRead.cores, other: cpuRead.otherCores };
    // The replicas of the employees service count as one service in the tables.
    for (const name of Object.keys(cores))
      if (name.startsWith('employees-')) {
        cores.employees = round2((cores.employees ?? 0) + cores[name]!);
        delete cores[name];
      }
    const missingOneSecondAfter = expected - arrivals.filter((a) => a <= loadStop + 1000).length;
    const result: StepResult = {
      step,
      createsPerSecOffered: rate,
      subscriptions: SUBSCRIPTIONS,
      clients: CLIENTS,
      windowSeconds: WINDOW_S,
      loadSeconds: round2(loadSeconds),
      creates: {
        sent: windowRun.creates.length,
        accepted: accepted.length,
        acceptedPerSec: round2(accepted.length / loadSeconds),
        byStatus,
        latencyMs: {
          p50: round2(percentile(apiLatencies, 0.5)),
          p99: round2(percentile(apiLatencies, 0.99)),
          max: round2(apiLatencies[apiLatencies.length - 1] ?? NaN),
        },
        maxLagMs: windowRun.maxLagMs,
      },
      deliveriesOfferedPerSec: rate * SUBSCRIPTIONS,
      expected,
      received,
      receivedPerSecInWindow: receivedPerSec,
      unverified,
      duplicates,
      latencyMs: {
        p50: percentile(latencies, 0.5),
        p95: percentile(latencies, 0.95),
        p99: percentile(latencies, 0.99),
        max: latencies[latencies.length - 1] ?? NaN,
      },
      loadStopSeconds: round2((loadStop - windowRun.endsAt) / 1000),
      missingAtLoadStop: expected - arrivals.filter((a) => a <= loadStop).length,
      missingOneSecondAfterLoadStop: missingOneSecondAfter,
      drainSeconds: received >= expected ? round2(Math.max(0, lastArrival - loadStop) / 1000) : null,
      missingAtEnd: expected - received,
      backlogBySecond,
      queuesAtLoadStop,
      attemptOutcomes: diff(sumBy(after.attempts, 'outcome'), sumBy(before.attempts, 'outcome')),
      cpuCores: cores,
      cpuMsPerDelivery: Object.fromEntries(Object.entries(cores).map(([k, v]) => [k, ms(v)])),
      machineBusyCores: cpuRead.machineBusyCores,
      dispatcherEventLoopBusy: round2(
        (elu.eluActiveMs - before.eluActiveMs) /
          (elu.eluActiveMs - before.eluActiveMs + elu.eluIdleMs - before.eluIdleMs),
      ),
      ...(MONITOR
        ? {
            dispatcherOps: Object.fromEntries(
              Object.entries({ ...after.store, ...after.broker })
                .sort((a, b) => b[1].count - a[1].count)
                .map(([k, v]) => [
                  k,
                  {
                    perDelivery: round2(v.count / Math.max(1, received)),
                    count: v.count,
                    p50Ms: round2(v.p50Ms),
                    p95Ms: round2(v.p95Ms),
                  },
                ]),
            ),
          }
        : {}),
      stagesMs: await stages(env, tenantId, subscriptionIds, measured).catch((err) => {
        log(`stages: ${(err as Error).message}`);
        return undefined;
      }),
      load1AtStart,
      load1AtEnd,
      verdict: {
        deliveries: receivedPerSec >= TARGET.deliveriesPerSec,
        p99: latencies.length > 0 && percentile(latencies, 0.99) < TARGET.p99Ms,
        backlog: missingOneSecondAfter <= TARGET.missingOneSecondAfter,
      },
    };
    return result;
  } finally {
    await stopApi(gateway).catch(() => undefined);
    await dispatcher?.stop().catch(() => undefined);
    for (const r of replicas) await stopApi(r).catch(() => undefined);
    const waited = await quiesce(ctx.pids.ferretdb);
    if (waited > 2) log(`store busy for ${waited} s after the step`);
    await env.cleanup().catch((err) => log(`cleanup of ${env.vhost}: ${(err as Error).message}`));
  }
}

interface DeliveryRow {
  subscriptionId: string;
  eventId: string;
  occurredAt: Date;
  createdAt: Date;
  attemptLog?: Array<{ at: Date; durationMs: number }>;
}

/**
 * Where the time of each measured delivery went, from the dispatcher's delivery rows (read after the
 * drain, so not during the measurement): raised → fanned out (the row's createdAt: the employees
 * outbox relay, the broker and the dispatcher's event consumer), fanned out → the first attempt's send
 * started (the attempt queue, the envelope, the destination check), send started → arrival at the
 * receiver (TLS and HTTP). Clocks: one machine, so the differences hold to the millisecond.
 */
async function stages(env: TestEnv, tenantId: string, subscriptionIds: string[], measured: Arrival[]) {
  const client = mongoClient(ROOT, env.infra.mongoUrl) as unknown as {
    connect(): Promise<unknown>;
    db(name: string): {
      collection(name: string): {
        find(filter: object, options: object): { toArray(): Promise<DeliveryRow[]> };
      };
    };
    close(): Promise<void>;
  };
  await client.connect();
  try {
    const rows = await client
      .db(`${env.dbPrefix}webhook_dispatcher`)
      .collection('deliveries')
      .find(
        { tenantId },
        {
          projection: {
            subscriptionId: 1,
            eventId: 1,
            occurredAt: 1,
            createdAt: 1,
            'attemptLog.at': 1,
            'attemptLog.durationMs': 1,
          },
        },
      )
      .toArray();
    const byKey = new Map(
      rows.map((r) => [`${subscriptionIds.indexOf(r.subscriptionId)}:${r.eventId.toLowerCase()}`, r]),
    );
    const fanout: number[] = [];
    const queued: number[] = [];
    const send: number[] = [];
    for (const [, sub, eventId, arrivedAt] of measured) {
      const r = byKey.get(`${sub}:${eventId.toLowerCase()}`);
      if (!r) continue;
      fanout.push(r.createdAt.getTime() - r.occurredAt.getTime());
      // An attempt row is written when the send ended: it started durationMs before `at`.
      const first = r.attemptLog?.[0];
      if (first) {
        const started = first.at.getTime() - first.durationMs;
        queued.push(started - r.createdAt.getTime());
        send.push(arrivedAt - started);
      }
    }
    const q = (xs: number[]) => {
      xs.sort((a, b) => a - b);
      return { p50: percentile(xs, 0.5), p95: percentile(xs, 0.95), p99: percentile(xs, 0.99), n: xs.length };
    };
    return {
      'raised → fanned out': q(fanout),
      'fanned out → send started': q(queued),
      'send started → arrival': q(send),
    };
  } finally {
    await client.close();
  }
}

function describe(r: StepResult): string {
  const l = r.latencyMs;
  return (
    `${r.createsPerSecOffered} creates/s offered: ${r.creates.acceptedPerSec}/s accepted (API p50 ${r.creates.latencyMs.p50} p99 ${r.creates.latencyMs.p99} ms, lag ${r.creates.maxLagMs} ms, ${JSON.stringify(r.creates.byStatus)}); ` +
    `deliveries ${r.receivedPerSecInWindow}/s received+verified of ${r.deliveriesOfferedPerSec}/s offered, p50 ${l.p50} p95 ${l.p95} p99 ${l.p99} max ${l.max} ms; ` +
    `missing at load stop ${r.missingAtLoadStop}, 1 s after ${r.missingOneSecondAfterLoadStop}, drain ${r.drainSeconds ?? 'NOT DRAINED'} s; ` +
    `dup ${r.duplicates}, unverified ${r.unverified}; cpu ${JSON.stringify(r.cpuCores)}, dispatcher ELU ${r.dispatcherEventLoopBusy}; ` +
    `stages ${JSON.stringify(r.stagesMs)}; load ${r.load1AtStart}→${r.load1AtEnd}` +
    (r.dispatcherOps ? `\n  dispatcher ops: ${JSON.stringify(r.dispatcherOps)}` : '')
  );
}

// ---- report -----------------------------------------------------------------------------------------
const ratio = (x: number, of: number | undefined) => (of && of > 0 ? round2(x / of) : NaN);

function markdown(steps: StepResult[], ceiling: { atStart?: CeilingResult; atEnd?: CeilingResult }): string {
  const ceilingRate = [ceiling.atStart?.perSecond, ceiling.atEnd?.perSecond].filter((x): x is number => !!x);
  const ceil = ceilingRate.length ? Math.min(...ceilingRate) : undefined;
  const head = [
    'creates/s offered',
    'load s',
    'accepted/s',
    'API p50 / p99 ms',
    'deliveries/s offered',
    'received + verified/s',
    'vs 1,000/s',
    'vs ceiling',
    'event→receipt p50 / p95 / p99 / max ms',
    'missing 1 s after load stop',
    'drain s',
    'dup',
    'unverified',
    'load1',
  ];
  const rows = steps.map((r) => [
    r.createsPerSecOffered,
    r.loadSeconds,
    r.creates.acceptedPerSec,
    `${Math.round(r.creates.latencyMs.p50)} / ${Math.round(r.creates.latencyMs.p99)}`,
    r.deliveriesOfferedPerSec,
    r.receivedPerSecInWindow,
    ratio(r.receivedPerSecInWindow, TARGET.deliveriesPerSec),
    ratio(r.receivedPerSecInWindow, ceil),
    `${r.latencyMs.p50} / ${r.latencyMs.p95} / ${r.latencyMs.p99} / ${r.latencyMs.max}`,
    `${r.missingOneSecondAfterLoadStop} of ${r.expected}`,
    r.drainSeconds ?? `not drained (${r.missingAtEnd} missing)`,
    r.duplicates,
    r.unverified,
    `${r.load1AtStart}→${r.load1AtEnd}`,
  ]);
  const procs = ['gateway', 'employees', 'dispatcher', 'ferretdb', 'rabbitmq', 'receiver', 'bench', 'other'];
  const cpuHead = [
    'creates/s offered',
    ...procs.map((p) => `${p} cores (ms/delivery)`),
    'machine busy cores',
    'dispatcher event loop busy',
  ];
  const cpuRows = steps.map((r) => [
    r.createsPerSecOffered,
    ...procs.map((p) => `${r.cpuCores[p] ?? '-'} (${r.cpuMsPerDelivery[p] ?? '-'})`),
    r.machineBusyCores,
    r.dispatcherEventLoopBusy,
  ]);
  const stageNames = [...new Set(steps.flatMap((r) => Object.keys(r.stagesMs ?? {})))];
  const stageRows = steps.map((r) => [
    r.createsPerSecOffered,
    ...stageNames.map((n) => {
      const x = r.stagesMs?.[n];
      return x ? `${x.p50} / ${x.p95} / ${x.p99}` : '-';
    }),
  ]);
  const table = (h: unknown[], rs: unknown[][]) =>
    [`| ${h.join(' | ')} |`, `|${h.map(() => '---').join('|')}|`, ...rs.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  const c = (x?: CeilingResult) =>
    x
      ? (x.error ?? `${Math.round(x.perSecond ?? 0)}/s (p50 ${x.p50Ms?.toFixed(1)} ms, p99 ${x.p99Ms?.toFixed(1)} ms)`)
      : '-';
  return [
    `${SUBSCRIPTIONS} subscriptions per event, ${CLIENTS} clients, window ${WINDOW_S} s; ceiling (bare signing HTTPS client, 64 in flight): start ${c(ceiling.atStart)}, end ${c(ceiling.atEnd)}`,
    '',
    table(head, rows),
    '',
    'CPU over the window:',
    '',
    table(cpuHead, cpuRows),
    '',
    'Where the event→receipt time goes (ms, p50 / p95 / p99 per delivery, from the delivery rows):',
    '',
    table(['creates/s offered', ...stageNames], stageRows),
  ].join('\n');
}

// ---- main -------------------------------------------------------------------------------------------
let stopping = false;
process.once('SIGINT', () => (stopping = true));
process.once('SIGTERM', () => (stopping = true));

async function main(): Promise<void> {
  const tlsDir = join(ROOT, '.local', 'test', 'tls');
  const tls = ensureTestTls(tlsDir);
  mkdirSync(STATE, { recursive: true });
  // createTestEnv reads the TEST_* URLs; the dispatcher (and the ceiling) trust the test CA.
  const run = await runInfraOnFreePorts(STATE, tls.caFile, {
    root: ROOT,
    rabbitNode: `rabbit-e2e-${process.pid}@localhost`,
    label: 'bench/e2e.ts',
  });
  const { infra } = run;
  const pids = { ferretdb: run.storePid, rabbitmq: run.brokerPid };
  let receiver: Receiver | undefined;
  const startedAt = new Date().toISOString();
  const steps: StepResult[] = [];
  const ceiling: { atStart?: CeilingResult; atEnd?: CeilingResult } = {};
  const loadAtStart = load();
  let error: string | undefined;
  try {
    receiver = await Receiver.start(tlsDir);
    const ctx: Context = { infra, receiver, pids };
    log(
      `machine ${JSON.stringify(machine())}; FerretDB pid ${pids.ferretdb ?? '?'}, RabbitMQ pid ${pids.rabbitmq ?? '?'}; load ${loadAtStart.join(' ')}`,
    );
    if (CEILING_S > 0) ceiling.atStart = await measureCeiling(receiver, CEILING_S, log);
    for (const [i, rate] of RATES.entries()) {
      if (stopping) break;
      log(
        `step ${i + 1}: ${rate} creates/s × ${SUBSCRIPTIONS} subscriptions, ${CLIENTS} clients, window ${WINDOW_S} s`,
      );
      try {
        const r = await runStep(ctx, i + 1, rate);
        steps.push(r);
        log(describe(r));
      } catch (err) {
        error = (err as Error).message;
        log(`step ${i + 1} failed: ${error}`);
        break;
      }
    }
    if (CEILING_S > 0 && !stopping) ceiling.atEnd = await measureCeiling(receiver, CEILING_S, log);
  } finally {
    await receiver?.stop();
    await infra.stop();
    // Nothing of the store or the broker is kept (a new RabbitMQ node name each run: its own directory).
    for (const dir of ['ferretdb', 'rabbitmq']) rmSync(join(STATE, dir), { recursive: true, force: true });
  }

  console.log(`\n${markdown(steps, ceiling)}\n`);
  const date = startedAt.slice(0, 10);
  const file = join(ROOT, 'bench', 'results', `${date}-e2e${QUICK ? '-quick' : ''}.json`);
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { runs: unknown[] }) : { runs: [] };
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      return '?';
    }
  };
  const doc = {
    benchmark: 'e2e',
    target: TARGET,
    settings: { services: SERVICE_ENV },
    runs: [
      ...previous.runs,
      {
        startedAt,
        argv: process.argv.slice(2),
        // Dispatcher settings given in the shell (e.g. WEBHOOK_ATTEMPT_PREFETCH=256 npm run bench -- e2e ...).
        shellEnv: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('WEBHOOK_'))),
        code: {
          head: git('rev-parse', '--short', 'HEAD'),
          dirty: git('status', '--porcelain', '--', 'services', 'packages', 'tools') !== '',
        },
        machine: machine(),
        loadAtStart,
        loadAtEnd: load(),
        settings: {
          rates: RATES,
          subscriptions: SUBSCRIPTIONS,
          clients: CLIENTS,
          windowSeconds: WINDOW_S,
          warmupSeconds: WARMUP_S,
          drainMaxSeconds: DRAIN_MAX_S,
          ceilingSeconds: CEILING_S,
        },
        ceiling,
        steps,
        ...(error ? { error } : {}),
      },
    ],
  };
  writeResultsFile(ROOT, file, doc);
  log(`results written to ${file.slice(ROOT.length + 1)}`);
  if (error) throw new Error(error);
}

runMain(main);
