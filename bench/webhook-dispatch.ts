// Webhook-dispatch benchmark (issue 3). Run it with `npm run bench` (scripts/bench.sh starts the test
// infrastructure and sets NODE_EXTRA_CA_CERTS); see docs/benchmarks.md for the method and the figures.
//
// Per step: a fresh isolated environment (own vhost and database, like a test file), a dispatcher in
// its own process with the production settings that matter here (spec retry schedule, 10 s time-out),
// N subscriptions on a local HTTPS receiver process (+1 that never answers in the "hang" scenarios), a
// warm-up, then events published open-loop at a fixed rate for a fixed window, exactly as a service's
// outbox relay publishes them. Latency is receiver arrival minus the envelope's createdAt. A step is
// sustainable when the backlog of healthy deliveries at the end of the window is at most one second of
// offered deliveries and everything arrives within the drain bound. The search doubles the rate until a
// step is not sustainable, then bisects.
//
// Options: --quick (short windows, for a smoke test), --profile (one step per scenario with store/broker
// command counts and a CPU profile of the dispatcher), --runs N, --scenarios single,fanout,...,
// --rates single=200,fanout=2 (fixed rates instead of the search), --window S, --max-minutes M,
// --dispatchers 1,2 (each scenario with 1, then with 2 dispatcher processes sharing the vhost and database:
// replicas, each with its share of a subscription's in-flight bound, docs/decisions/0220).
// The `filtered` scenario (docs/decisions/0231): 4 subscriptions with payload filters, events spread over 4
// departments so that 6 of the 16 (department, subscription) pairs match; every matching event must arrive
// verified with the receiver SDK, and none that does not match.
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogger } from '../packages/platform/src/logger';
import { AmqpClient } from '../packages/platform/src/messaging/amqp-client';
import type { DomainEvent } from '../packages/platform/src/messaging/events';
import { DOMAIN_EXCHANGE } from '../packages/platform/src/messaging/topology';
import { createTestEnv, testInfra, type TestEnv } from '../packages/testkit/src/env';
import { managementAuth } from '../packages/testkit/src/infra/rabbitmq';
import { queueDepth, repoRoot } from '../packages/testkit/src/infra/infra';
import { ensureTestTls } from '../packages/testkit/src/tls';
import { employeeEvent } from '../packages/testkit/src/events';
import { BENCH_SERVICE_ENV } from './lib/service-settings';
import { ATTEMPT_QUEUE, DEFER_LABEL, EVENTS_QUEUE, waitQueueOf } from '../services/webhook-dispatcher/src/infra/queues';
import {
  measureCeiling as measureCeilingOf,
  quiesce,
  Receiver,
  Dispatcher,
  diff,
  sumBy,
  type CeilingResult,
} from './lib/children';
import { cliOptions, runMain } from './lib/cli';
import { writeResultsFile } from './lib/results-file';
import { summarizeCpuProfile } from './lib/cpuprofile';
import { mongoClient, storeProbe, type ProbeResult, type ProbeRow } from './lib/store-probe';
import type { OpStat } from './lib/protocol';
import { CpuMeter, commandOf, load, machine, percentile, pidListeningOn, round2 } from './lib/system';

const ROOT = repoRoot();
const STATE = join(ROOT, '.local', 'bench');

// ---- options ----------------------------------------------------------------------------------------
const { flag, opt } = cliOptions();
const QUICK = flag('quick');
const PROFILE = flag('profile');
const STORE_PROBE = flag('store-probe');
/** Publishing window: at least this long, and long enough for MIN_EVENTS events (fan-out rates are low), at most 60 s. */
const WINDOW_S = Number(opt('window') ?? (QUICK ? 6 : PROFILE ? 15 : 20));
const MIN_EVENTS = QUICK ? 2 : 5;
const windowFor = (rate: number) => Math.min(60, Math.max(WINDOW_S, Math.ceil(MIN_EVENTS / rate)));
const WARMUP_S = QUICK ? 2 : 5;
const RUNS = Math.min(5, Math.max(1, Number(opt('runs') ?? 1)));
const DEADLINE = Date.now() + Math.min(180, Number(opt('max-minutes') ?? (QUICK ? 10 : 90))) * 60_000;
const FIXED_RATES = Object.fromEntries(
  (opt('rates') ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string])
    .map(([k, v]) => [k, v.split('/').map(Number)]),
) as Record<string, number[]>;

interface Scenario {
  key: string;
  label: string;
  healthy: number;
  hang: boolean;
  /** Search: first rate (events/s), highest rate tried. */
  start: number;
  max: number;
  /** Rate for --profile when --rates does not give one. */
  profileRate: number;
  /** Subscription i registers with filter FILTERS[i] (healthy = FILTERS.length). */
  filtered?: boolean;
}

// ---- filters ----------------------------------------------------------------------------------------
/** Event k carries department DEPARTMENTS[k % 4] (the `filtered` scenario only). */
const DEPARTMENTS = ['dep-0', 'dep-1', 'dep-2', 'dep-3'];
const FILTERS = [
  { 'data.departmentId': 'dep-0' },
  { 'data.departmentId': { $in: ['dep-0', 'dep-1'] } },
  { 'data.departmentId': { $neq: 'dep-3' } },
  // No published employee is archived: this one passes over every event.
  { 'data.isArchived': true },
];
/** The subscriptions each department's events must reach, worked out from the filters above. */
const TAKEN_BY: number[][] = [[0, 1, 2], [1, 2], [2], []];
/** Deliveries per event on average: (3 + 2 + 1 + 0) / 4. */
const FILTERED_PER_EVENT = 1.5;

const ALL_SCENARIOS: Scenario[] = [
  { key: 'single', label: '1 subscription / event', healthy: 1, hang: false, start: 5, max: 3200, profileRate: 10 },
  {
    key: 'fanout',
    label: '100 subscriptions / event',
    healthy: 100,
    hang: false,
    start: 0.05,
    max: 32,
    profileRate: 0.1,
  },
  { key: 'single-hang', label: '1 healthy + 1 hanging', healthy: 1, hang: true, start: 5, max: 3200, profileRate: 5 },
  {
    key: 'fanout-hang',
    label: '100 healthy + 1 hanging',
    healthy: 100,
    hang: true,
    start: 0.05,
    max: 32,
    profileRate: 0.1,
  },
  {
    key: 'filtered',
    label: '4 filtered subscriptions, 1.5 matching / event',
    healthy: FILTERS.length,
    hang: false,
    start: 5,
    max: 3200,
    profileRate: 10,
    filtered: true,
  },
];
const SCENARIOS = opt('scenarios')
  ? ALL_SCENARIOS.filter((s) => opt('scenarios')!.split(',').includes(s.key))
  : // The run of record keeps its four scenarios; `filtered` is asked for by name.
    ALL_SCENARIOS.filter((s) => !s.filtered);

const DISPATCHER_ENV = BENCH_SERVICE_ENV;
/** Dispatcher replicas per step, one search per count (--dispatchers 1,2). */
const DISPATCHER_COUNTS = (opt('dispatchers') ?? '1')
  .split(',')
  .map(Number)
  .filter((n) => n >= 1);
/** A replica joining others sends nothing until they have shrunk their shares: its check and the time-out (0220). */
const JOIN_WAIT_MS = 1000 + Number(BENCH_SERVICE_ENV.WEBHOOK_TIMEOUT_MS) + 1000;

/** The replicas' counters read as one dispatcher's: rows concatenated (sumBy adds them), loop times added. */
async function statsOfAll(dispatchers: Dispatcher[]) {
  const all = await Promise.all(dispatchers.map((d) => d.stats()));
  return {
    ...all[0]!,
    eluActiveMs: all.reduce((t, x) => t + x.eluActiveMs, 0),
    eluIdleMs: all.reduce((t, x) => t + x.eluIdleMs, 0),
    attempts: all.flatMap((x) => x.attempts),
    handled: all.flatMap((x) => x.handled),
  };
}

// ---- helpers ----------------------------------------------------------------------------------------
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));
const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const sig2 = (x: number) => Number(x.toPrecision(2));

// ---- ceiling ----------------------------------------------------------------------------------------
const CEILING_S = Number(opt('ceiling-seconds') ?? (QUICK ? 3 : 5));

/** The issue's ceiling: a bare signing HTTPS client (bench/lib/ceiling-process.ts) against the same receiver. */
const measureCeiling = (receiver: Receiver) => measureCeilingOf(receiver, CEILING_S, log);

// ---- publishing -------------------------------------------------------------------------------------

interface PublishResult {
  published: number;
  failed: number;
  /** How late (ms) the publisher was against its schedule at worst: open loop only if this stays small. */
  maxLagMs: number;
  seconds: number;
}

/**
 * Open loop: event k (k < rate × seconds) is due at start + k/rate; whatever is due is published at
 * once without waiting for earlier confirms (as several relays would), each with the relay's options
 * (confirm, mandatory, persistent, messageId = event id). Returns when the window of `seconds` is over
 * (not at the last publish), so the backlog read then has had the same time to drain at any rate.
 * Bounded by count and by time.
 */
async function publishAtRate(
  client: AmqpClient,
  tenantId: string,
  rate: number,
  seconds: number,
  onEvent: (e: DomainEvent, k: number) => void,
  onTick?: (published: number) => void,
): Promise<PublishResult> {
  const total = Math.max(1, Math.round(rate * seconds));
  const start = performance.now();
  const hardStop = start + seconds * 1000 + 5000;
  const confirms: Array<Promise<void>> = [];
  let failed = 0;
  let maxLagMs = 0;
  let sent = 0;
  let nextTick = start + 1000;
  while (sent < total && performance.now() < hardStop) {
    const now = performance.now();
    const due = Math.min(total, Math.floor(((now - start) / 1000) * rate) + 1);
    if (due > sent) maxLagMs = Math.max(maxLagMs, now - (start + (sent / rate) * 1000));
    while (sent < due) {
      const event = employeeEvent(tenantId, `Novak-${sent}`);
      onEvent(event, sent);
      const { id, type, occurredAt } = event;
      confirms.push(
        client
          .publish(DOMAIN_EXCHANGE, `employees.${type}`, Buffer.from(JSON.stringify(event)), {
            messageId: id,
            type,
            contentType: 'application/json',
            timestamp: Math.floor(Date.parse(occurredAt) / 1000),
            headers: { 'x-tenant-id': tenantId },
          })
          .catch(() => void failed++),
      );
      sent++;
    }
    if (onTick && performance.now() >= nextTick) {
      onTick(sent);
      nextTick += 1000;
    }
    const nextDue = start + (sent / rate) * 1000;
    await sleep(Math.min(nextDue, nextTick) - performance.now());
  }
  while (performance.now() < start + seconds * 1000 && performance.now() < hardStop) {
    if (onTick && performance.now() >= nextTick) {
      onTick(sent);
      nextTick += 1000;
    }
    await sleep(Math.min(nextTick, start + seconds * 1000) - performance.now());
  }
  const seconds_ = (performance.now() - start) / 1000;
  await Promise.race([Promise.all(confirms), sleep(30_000)]);
  return { published: sent, failed, maxLagMs: Math.round(maxLagMs), seconds: round2(seconds_) };
}

// ---- one step ---------------------------------------------------------------------------------------
interface StepResult {
  scenario: string;
  /** Dispatcher replicas (processes) in the step. */
  dispatchers: number;
  eventsPerSec: number;
  offeredDeliveriesPerSec: number;
  windowSeconds: number;
  published: number;
  publishFailures: number;
  publisherMaxLagMs: number;
  expected: number;
  delivered: number;
  /** Healthy deliveries that arrived during the window, per second of window. */
  deliveredPerSecInWindow: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  backlogMid: number;
  backlogEnd: number;
  /** Delivery rows in the step's database at the end (warm-up + window, hanging subscription included). */
  deliveryRows: number;
  drainSeconds: number | null;
  duplicates: number;
  /** Deliveries of an event the subscription's filter should have passed over (`filtered`: must be 0). */
  unwanted: number;
  /** Deliveries the receiver SDK did not verify (`filtered`, whose secrets the receiver has: must be 0). */
  unverified: number;
  /** (event, subscription) pairs of the window the filters passed over (`filtered`). */
  skippedByFilter: number;
  hangingRequests: number;
  /** TLS connections the receiver accepted from the dispatcher during the window and drain (healthy listener). */
  receiverConnections: number;
  sustainable: boolean;
  attemptOutcomes: Record<string, number>;
  handlerOutcomes: Record<string, number>;
  queuesAtWindowEnd: Record<string, number>;
  cpuCores: Record<string, number>;
  machineBusyCores: number;
  dispatcherEventLoopBusy: number;
  load1: number;
  /** The code the step's dispatcher loaded (it is started per step; others may commit meanwhile). */
  code: string;
  profile?: unknown;
}

interface Context {
  receiver: Receiver;
  infra: ReturnType<typeof testInfra>;
  pids: { ferretdb?: number; rabbitmq?: number };
  stepCounter: number;
}

/** Registers a subscription; returns its signing secret. */
async function register(
  env: TestEnv,
  dispatcherUrl: string,
  tenantId: string,
  url: string,
  filter?: unknown,
): Promise<string> {
  const res = await fetch(`${dispatcherUrl}/api/v1/webhooks`, {
    method: 'POST',
    headers: env.callerHeaders({ tenantId, permissions: ['ManageCompanyData'] }),
    body: JSON.stringify({ url, eventTypes: ['employee.created'], ...(filter ? { filter } : {}) }),
  });
  if (res.status !== 201) throw new Error(`registering ${url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { signingSecret: string }).signingSecret;
}

async function runStep(
  ctx: Context,
  s: Scenario,
  rate: number,
  profile: boolean,
  replicas: number,
): Promise<StepResult> {
  const step = ++ctx.stepCounter;
  const env = await createTestEnv(`bench-${s.key}`, DISPATCHER_ENV);
  const dispatchers: Dispatcher[] = [];
  let publisher: AmqpClient | undefined;
  try {
    const code = codeLabel();
    for (let i = 0; i < replicas; i++)
      dispatchers.push(await Dispatcher.start(env.vars, profile, `dispatcher-${step}-${s.key}${i ? `-${i + 1}` : ''}`));
    const dispatcher = dispatchers[0]!;
    // The later replicas take their shares once the first has shrunk its own (before the warm-up).
    if (replicas > 1) await sleep(JOIN_WAIT_MS);
    const tenantId = randomUUID();
    const secrets: string[] = [];
    for (let i = 0; i < s.healthy; i++)
      secrets.push(
        await register(
          env,
          dispatcher.url,
          tenantId,
          `https://localhost:${ctx.receiver.healthyPort}/b/${step}/${i}`,
          s.filtered ? FILTERS[i] : undefined,
        ),
      );
    // Filtered: every delivery is verified with the receiver SDK (the others keep the cheaper path).
    if (s.filtered) await ctx.receiver.verifyWith(step, secrets);
    if (s.hang)
      await register(env, dispatcher.url, tenantId, `https://localhost:${ctx.receiver.hangingPort}/hang/${step}`);
    publisher = new AmqpClient(env.amqpUrl, createLogger('bench-publisher', 'warn'), 'bench-publisher');
    await publisher.start();

    // Arrivals of this step's events, by phase.
    const phase = new Map<string, 'warm' | 'measure'>();
    /** Filtered: each event's department (index into DEPARTMENTS). */
    const departmentOf = new Map<string, number>();
    /** The deliveries an event must make: all healthy subscriptions, or those whose filter takes it. */
    const deliveriesOf = (k: number) => (s.filtered ? TAKEN_BY[k % DEPARTMENTS.length]!.length : s.healthy);
    const decorate = (e: DomainEvent, k: number) => {
      if (!s.filtered) return;
      (e.data as { departmentId: string | null }).departmentId = DEPARTMENTS[k % DEPARTMENTS.length]!;
      departmentOf.set(e.id, k % DEPARTMENTS.length);
    };
    let warmExpected = 0;
    let expected = 0;
    let unwanted = 0;
    let unverified = 0;
    const seen = new Set<string>();
    const latencies: number[] = [];
    const arrivalTimes: number[] = [];
    let warmArrived = 0;
    let duplicates = 0;
    let hangingRequests = 0;
    ctx.receiver.route(step, ([, sub, eventId, at, createdAt, verified]) => {
      if (sub < 0) return void hangingRequests++;
      if (s.filtered) {
        if (verified !== 1) unverified++;
        const department = departmentOf.get(eventId);
        if (department === undefined || !TAKEN_BY[department]!.includes(sub)) return void unwanted++;
      }
      const key = `${sub}:${eventId}`;
      if (seen.has(key)) return void duplicates++;
      seen.add(key);
      const p = phase.get(eventId);
      if (p === 'warm') warmArrived++;
      else if (p === 'measure') {
        latencies.push(at - createdAt);
        arrivalTimes.push(at);
      }
    });

    // Warm-up: half the rate, then let it drain.
    const warm = await publishAtRate(publisher, tenantId, Math.max(rate / 2, 1 / WARMUP_S), WARMUP_S, (e, k) => {
      decorate(e, k);
      warmExpected += deliveriesOf(k);
      phase.set(e.id, 'warm');
    });
    const warmDeadline = Date.now() + 20_000;
    while (warmArrived < warmExpected && Date.now() < warmDeadline) {
      await sleep(200);
      await ctx.receiver.flush();
    }
    await sleep(500);

    // The measured window.
    const expectedPerEvent = s.filtered ? FILTERED_PER_EVENT : s.healthy;
    const cpu = new CpuMeter({
      dispatcher: dispatcher.pid,
      'dispatcher:main': dispatcher.pid,
      ...Object.fromEntries(dispatchers.slice(1).map((d, i) => [`dispatcher${i + 2}`, d.pid])),
      receiver: ctx.receiver.pid,
      bench: process.pid,
      ferretdb: ctx.pids.ferretdb,
      rabbitmq: ctx.pids.rabbitmq,
    });
    const before = await statsOfAll(dispatchers);
    const connectionsBefore = (await ctx.receiver.flush()).healthy;
    if (profile) {
      await dispatcher.resetStats();
      await dispatcher.profileStart();
    }
    const load1 = load()[0]!;
    const backlog: number[] = [];
    let measuredPublished = 0;
    cpu.reset();
    const windowStart = Date.now();
    const windowS = windowFor(rate);
    const pub = await publishAtRate(
      publisher,
      tenantId,
      rate,
      windowS,
      (e, k) => {
        decorate(e, k);
        expected += deliveriesOf(k);
        phase.set(e.id, 'measure');
      },
      (published) => {
        measuredPublished = published;
        backlog.push(expected - latencies.length);
      },
    );
    measuredPublished = pub.published;
    const windowEnd = Date.now();
    const cpuRead = cpu.read();
    await ctx.receiver.flush();
    const backlogEnd = expected - latencies.length;
    const after = await statsOfAll(dispatchers);
    const queues: Record<string, number> = {};
    for (const [name, q] of [
      ['events', EVENTS_QUEUE],
      ['attempts', ATTEMPT_QUEUE],
      ['defer', waitQueueOf(DEFER_LABEL)],
    ] as const) {
      queues[name] = await queueDepth(ctx.infra, env.vhost, q);
    }

    // Drain: every healthy delivery of the window must arrive (bounded).
    const drainBound = Math.min(60_000, Math.max(15_000, windowS * 1000));
    while (latencies.length < expected && Date.now() - windowEnd < drainBound) {
      await sleep(100);
      await ctx.receiver.flush();
    }
    const drained = latencies.length >= expected;
    const lastArrival = arrivalTimes.reduce((a, b) => (b > a ? b : a), windowEnd);
    const drainSeconds = drained ? round2((lastArrival - windowEnd) / 1000) : null;
    const final = await statsOfAll(dispatchers);
    const connectionsAfter = (await ctx.receiver.flush()).healthy;
    // The profile covers the window and the drain: every command the measured events caused.
    const profileFile = join(STATE, `dispatcher-${step}-${s.key}.cpuprofile`);
    if (profile) await dispatcher.profileStop(profileFile);
    ctx.receiver.route(step, undefined);

    const sorted = [...latencies].sort((a, b) => a - b);
    const inWindow = arrivalTimes.filter((t) => t >= windowStart && t <= windowEnd).length;
    const offered = rate * expectedPerEvent;
    const eluActive = after.eluActiveMs - before.eluActiveMs;
    const eluIdle = after.eluIdleMs - before.eluIdleMs;
    const cores: Record<string, number> = { ...cpuRead.cores, other: cpuRead.otherCores };
    // All replicas' CPU under `dispatcher`, each one's beside it.
    if (replicas > 1)
      cores.dispatcher = round2(
        Object.entries(cpuRead.cores)
          .filter(([k]) => /^dispatcher\d*$/.test(k))
          .reduce((t, [, v]) => t + v, 0),
      );
    const result: StepResult = {
      scenario: s.key,
      dispatchers: replicas,
      eventsPerSec: rate,
      offeredDeliveriesPerSec: round2(offered),
      windowSeconds: pub.seconds,
      published: measuredPublished,
      publishFailures: pub.failed,
      publisherMaxLagMs: pub.maxLagMs,
      expected,
      delivered: latencies.length,
      deliveredPerSecInWindow: round2(inWindow / ((windowEnd - windowStart) / 1000)),
      latencyMs: {
        p50: percentile(sorted, 0.5),
        p95: percentile(sorted, 0.95),
        p99: percentile(sorted, 0.99),
        max: sorted[sorted.length - 1] ?? NaN,
      },
      backlogMid: backlog[Math.floor(backlog.length / 2)] ?? 0,
      backlogEnd,
      deliveryRows: s.filtered
        ? warmExpected + expected
        : (warm.published + measuredPublished) * (s.healthy + (s.hang ? 1 : 0)),
      drainSeconds,
      duplicates,
      unwanted,
      unverified,
      skippedByFilter: s.filtered ? measuredPublished * s.healthy - expected : 0,
      hangingRequests,
      receiverConnections: connectionsAfter - connectionsBefore,
      // Keeping up: at the end of the window at most one second of offered deliveries is outstanding
      // (for fan-out, the last event had 1/rate seconds to go out), and all of it arrives in the bound.
      // Filtered: no loss and nothing extra (every matching event arrived verified, no other one).
      sustainable:
        drained && pub.failed === 0 && backlogEnd <= Math.max(offered, 10) && unwanted === 0 && unverified === 0,
      attemptOutcomes: diff(sumBy(final.attempts, 'outcome'), sumBy(before.attempts, 'outcome')),
      handlerOutcomes: diff(sumBy(final.handled, 'outcome'), sumBy(before.handled, 'outcome')),
      queuesAtWindowEnd: queues,
      cpuCores: cores,
      machineBusyCores: cpuRead.machineBusyCores,
      dispatcherEventLoopBusy: round2(eluActive / (eluActive + eluIdle)),
      load1,
      code,
    };
    if (profile) {
      const deliveries = latencies.length;
      const perDelivery = (ops: Record<string, OpStat> | undefined) =>
        Object.fromEntries(
          Object.entries(ops ?? {})
            .sort((a, b) => b[1].count - a[1].count)
            .map(([k, v]) => [
              k,
              {
                perDelivery: round2(v.count / Math.max(1, deliveries)),
                count: v.count,
                p50Ms: round2(v.p50Ms),
                p95Ms: round2(v.p95Ms),
                totalMs: v.totalMs,
              },
            ]),
        );
      result.profile = {
        measuredDeliveries: deliveries,
        store: perDelivery(final.store),
        broker: perDelivery(final.broker),
        cpu: summarizeCpuProfile(profileFile, 20),
        cpuProfileFile: profileFile.slice(ROOT.length + 1),
      };
    }
    return result;
  } finally {
    await publisher?.stop().catch(() => undefined);
    await Promise.all(dispatchers.map((d) => d.stop().catch(() => undefined)));
    // Writes queued in the FerretDB front still run after the dispatcher has gone (and would recreate a
    // dropped database); the next step must not start while the store is still busy with this one.
    const waited = await quiesce(ctx.pids.ferretdb);
    if (waited > 2) log(`store busy for ${waited} s after the step`);
    await env.cleanup().catch((err) => log(`cleanup of ${env.vhost}: ${(err as Error).message}`));
  }
}

// ---- search -----------------------------------------------------------------------------------------
function describe(r: StepResult): string {
  const l = r.latencyMs;
  return (
    `${r.scenario} ×${r.dispatchers} ${r.eventsPerSec} ev/s (${r.offeredDeliveriesPerSec} deliveries/s): delivered ${r.deliveredPerSecInWindow}/s, ` +
    `p50 ${l.p50} p95 ${l.p95} p99 ${l.p99} max ${l.max} ms, backlog end ${r.backlogEnd}, ` +
    `drain ${r.drainSeconds ?? 'NOT DRAINED'} s, dup ${r.duplicates}, hang ${r.hangingRequests}, ` +
    `unwanted ${r.unwanted}, unverified ${r.unverified}, skipped ${r.skippedByFilter}, lag ${r.publisherMaxLagMs} ms, ` +
    `cpu ${JSON.stringify(r.cpuCores)}, ELU ${r.dispatcherEventLoopBusy}, load ${r.load1}, code ${r.code} → ${r.sustainable ? 'sustainable' : 'NOT sustainable'}`
  );
}

async function searchScenario(ctx: Context, s: Scenario, replicas: number): Promise<StepResult[]> {
  const results: StepResult[] = [];
  const run = async (rate: number) => {
    if (Date.now() > DEADLINE) throw new Error('time budget (--max-minutes) used up');
    if (stopping) throw new Error('stopped by a signal');
    const r = await runStep(ctx, s, rate, PROFILE, replicas);
    log(describe(r));
    results.push(r);
    return r.sustainable;
  };
  const fixed = FIXED_RATES[s.key] ?? (PROFILE ? [s.profileRate] : undefined);
  if (fixed) {
    for (const rate of fixed) await run(rate);
    return results;
  }
  let good: number | undefined;
  let bad: number | undefined;
  let rate = s.start;
  for (let i = 0; i < 10 && bad === undefined && rate <= s.max; i++) {
    if (await run(rate)) good = rate;
    else bad = rate;
    rate *= 2;
  }
  for (let i = 0; i < 2 && good === undefined && bad !== undefined; i++) {
    rate = sig2(bad / 3);
    if (await run(rate)) good = rate;
    else bad = rate;
  }
  for (let i = 0; i < (QUICK ? 1 : 2) && good !== undefined && bad !== undefined; i++) {
    const mid = sig2(Math.sqrt(good * bad));
    if (mid <= good * 1.1 || mid >= bad) break;
    if (await run(mid)) good = mid;
    else bad = mid;
  }
  return results;
}

/** Set by SIGINT/SIGTERM: the current step finishes and cleans up, then the run ends and writes its results. */
let stopping = false;
process.once('SIGINT', () => (stopping = true));
process.once('SIGTERM', () => (stopping = true));

/** Databases of benchmark steps still there (a step's clean-up failed, or a run was killed): dropped. */
async function dropLeftovers(mongoUrl: string): Promise<void> {
  const client = mongoClient(ROOT, mongoUrl);
  try {
    await client.connect();
    const { databases } = await client.db('admin').admin().listDatabases();
    for (const { name } of databases.filter((d) => /^(t_bench|bench_probe_)/.test(d.name))) {
      log(`dropping left-over database ${name}`);
      await client.db(name).dropDatabase();
    }
  } catch (err) {
    log(`left-over check failed: ${(err as Error).message}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

// ---- report -----------------------------------------------------------------------------------------
const pad = (v: unknown, n: number) => String(v).padStart(n);

function table(results: StepResult[], title: string): string {
  const head = [
    'scenario',
    'ev/s',
    'deliv/s offered',
    'deliv/s achieved',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'max ms',
    'backlog end',
    'dup',
    'ok',
    'disp CPU',
    'ferret CPU',
    'rabbit CPU',
    'recv CPU',
    'other CPU',
    'load1',
  ];
  const rows = results.map((r) => [
    `${r.scenario} ×${r.dispatchers}`,
    r.eventsPerSec,
    r.offeredDeliveriesPerSec,
    r.deliveredPerSecInWindow,
    r.latencyMs.p50,
    r.latencyMs.p95,
    r.latencyMs.p99,
    r.latencyMs.max,
    r.backlogEnd,
    r.duplicates,
    r.sustainable ? 'yes' : 'NO',
    r.cpuCores.dispatcher ?? '-',
    r.cpuCores.ferretdb ?? '-',
    r.cpuCores.rabbitmq ?? '-',
    r.cpuCores.receiver ?? '-',
    r.cpuCores.other ?? '-',
    r.load1,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: unknown[]) =>
    `| ${cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : pad(c, widths[i]!))).join(' | ')} |`;
  return [title, line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function probeTable(rows: ProbeRow[]): string {
  const ops = [...new Set(rows.map((r) => r.op))];
  const sizes = [...new Set(rows.map((r) => r.rows))];
  const cell = (op: string, n: number) => {
    const r = rows.find((x) => x.op === op && x.rows === n);
    return r ? `${r.p50Ms} ms (cpu ${r.serverCpuMsPerOp ?? '?'})` : '-';
  };
  return [
    'store probe: p50 per command (server CPU ms per command), by rows in the collection',
    `| command | ${sizes.map((n) => `${n} rows`).join(' | ')} |`,
    `|---|${sizes.map(() => '---').join('|')}|`,
    ...ops.map((op) => `| ${op} | ${sizes.map((n) => cell(op, n)).join(' | ')} |`),
  ].join('\n');
}

/** The issue's latency target: p99 under 250 ms. */
const P99_TARGET_MS = 250;

function bestOf(results: StepResult[], p99Target = false): StepResult | undefined {
  return results
    .filter((r) => r.sustainable && (!p99Target || r.latencyMs.p99 < P99_TARGET_MS))
    .sort((a, b) => b.eventsPerSec - a.eventsPerSec)[0];
}

async function versions(managementUrl: string | undefined) {
  let rabbitmq = '?';
  let erlang = '?';
  try {
    const res = await fetch(`${managementUrl}/api/overview`, { headers: { authorization: managementAuth() } });
    const o = (await res.json()) as { rabbitmq_version?: string; erlang_version?: string };
    rabbitmq = o.rabbitmq_version ?? '?';
    erlang = o.erlang_version ?? '?';
  } catch {
    /* unknown */
  }
  const gomod = readFileSync(join(ROOT, 'tools', 'ferretdb', 'go.mod'), 'utf8');
  const ferret = /FerretDB\/FerretDB (v[\d.]+)/.exec(gomod)?.[1] ?? '?';
  const sqlite = /modernc\.org\/sqlite (v[\d.]+)/.exec(gomod)?.[1] ?? '?';
  return {
    node: process.version,
    rabbitmq,
    erlang,
    ferretdb: `${ferret} (SQLite handler, modernc.org/sqlite ${sqlite}) behind tools/ferretdb's write-serializing front`,
  };
}

/** `<commit>` or `<commit>+<hash of the uncommitted diff>` of the dispatcher's code path. */
function codeLabel(): string {
  const { commit, uncommittedChanges } = codeUnderTest();
  if (uncommittedChanges.length === 0) return commit;
  const diff = execFileSync('git', ['diff', 'HEAD', '--', ...CODE_PATHS], { cwd: ROOT, encoding: 'utf8' });
  return `${commit}+${createHash('sha256').update(diff).update(uncommittedChanges.join()).digest('hex').slice(0, 8)}`;
}

const CODE_PATHS = [
  'services/webhook-dispatcher/src',
  'packages/platform/src',
  'packages/webhook-verify/src',
  'tools/ferretdb',
];

/** What code was measured: the commit, and files of the dispatcher's code path changed on top of it. */
function codeUnderTest() {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    const dirty = git('status', '--porcelain', '--', ...CODE_PATHS);
    return {
      // The last commit that touched the measured code: later commits elsewhere do not change what runs.
      commit: git('log', '-1', '--format=%h', '--', ...CODE_PATHS),
      head: git('rev-parse', '--short', 'HEAD'),
      uncommittedChanges: dirty ? dirty.split('\n').map((l) => l.trim()) : [],
    };
  } catch {
    return { commit: '?', head: '?', uncommittedChanges: [] };
  }
}

// ---- main -------------------------------------------------------------------------------------------
async function main(): Promise<void> {
  const infra = testInfra();
  const tlsDir = join(ROOT, '.local', 'test', 'tls');
  ensureTestTls(tlsDir);
  if (!process.env.NODE_EXTRA_CA_CERTS?.endsWith('ca.crt'))
    log('warning: NODE_EXTRA_CA_CERTS does not name the test CA; run through `npm run bench`');
  const mongoPort = Number(new URL(infra.mongoUrl).port);
  const amqpPort = Number(new URL(infra.amqpUrl).port);
  const pids = { ferretdb: pidListeningOn(mongoPort), rabbitmq: pidListeningOn(amqpPort) };
  log(
    `FerretDB pid ${pids.ferretdb ?? '?'} (${pids.ferretdb ? commandOf(pids.ferretdb) : 'not found'}), RabbitMQ pid ${pids.rabbitmq ?? '?'}`,
  );
  const receiver = await Receiver.start(tlsDir);
  const ctx: Context = { receiver, infra, pids, stepCounter: 0 };
  const info = {
    machine: machine(),
    versions: await versions(infra.managementUrl),
    infraSource: process.env.BENCH_INFRA_SOURCE ?? 'recorded',
    code: codeUnderTest(),
  };
  log(`machine ${JSON.stringify(info.machine)}; ${JSON.stringify(info.versions)}; load ${load().join(' ')}`);

  const runs: Array<{
    startedAt: string;
    code: ReturnType<typeof codeUnderTest>;
    infraSource: string;
    mode: string;
    loadAtStart: number[];
    loadAtEnd: number[];
    best: StepResult[];
    bestUnderP99Target: StepResult[];
    steps: StepResult[];
    storeProbe?: ProbeResult;
    codeVersions?: string[];
    ceiling?: { atStart: CeilingResult; atEnd?: CeilingResult };
    error?: string;
  }> = [];
  try {
    for (let run = 1; run <= RUNS && !stopping; run++) {
      const record = {
        startedAt: new Date().toISOString(),
        code: info.code,
        infraSource: info.infraSource,
        mode: PROFILE ? 'profile' : QUICK ? 'quick' : 'full',
        loadAtStart: load(),
        loadAtEnd: [] as number[],
        best: [] as StepResult[],
        bestUnderP99Target: [] as StepResult[],
        steps: [] as StepResult[],
      } as (typeof runs)[number];
      runs.push(record);
      log(
        `run ${run}/${RUNS} (${record.mode}, window ${WINDOW_S} s, warm-up ${WARMUP_S} s), load ${record.loadAtStart.join(' ')}`,
      );
      try {
        if (CEILING_S > 0) record.ceiling = { atStart: await measureCeiling(receiver) };
        if (STORE_PROBE) {
          const sizes = QUICK ? [100, 1000] : [100, 1000, 3000, 10_000];
          log(`store probe: sequential commands against collections of ${sizes.join(', ')} rows`);
          record.storeProbe = await storeProbe(ROOT, infra.mongoUrl, pids.ferretdb, sizes, QUICK ? 10 : 25);
          console.log(`${probeTable(record.storeProbe.rows)}\nplans: ${JSON.stringify(record.storeProbe.plans)}`);
        }
        for (const [s, replicas] of SCENARIOS.flatMap((sc) => DISPATCHER_COUNTS.map((n) => [sc, n] as const))) {
          if (stopping) break;
          const steps = await searchScenario(ctx, s, replicas).catch((err) => {
            record.error = (err as Error).message;
            return [] as StepResult[];
          });
          record.steps.push(...steps);
          const best = bestOf(steps);
          if (best) record.best.push(best);
          const underTarget = bestOf(steps, true);
          if (underTarget) record.bestUnderP99Target.push(underTarget);
          if (record.error) break;
        }
      } finally {
        if (record.ceiling && !stopping) record.ceiling.atEnd = await measureCeiling(receiver).catch(() => undefined);
        record.loadAtEnd = load();
        record.codeVersions = [...new Set(record.steps.map((st) => st.code))];
        if (record.codeVersions.length > 1)
          log(
            `WARNING: the code changed during this run (${record.codeVersions.join(', ')}); compare steps by their code`,
          );
      }
      if (record.steps.length) {
        console.log(`\nrun ${run}: ${table(record.best, 'highest sustainable step per scenario:')}\n`);
        console.log(
          `${table(record.bestUnderP99Target, `highest sustainable step with p99 < ${P99_TARGET_MS} ms:`)}\n`,
        );
        console.log(`${table(record.steps, 'every step:')}\n`);
      }
      if (record.error) log(`run ${run} stopped early: ${record.error}`);
      if (PROFILE)
        for (const st of record.steps)
          console.log(`profile ${st.scenario} @ ${st.eventsPerSec} ev/s:\n${JSON.stringify(st.profile, null, 1)}\n`);
    }
  } finally {
    await receiver.stop();
    await dropLeftovers(infra.mongoUrl);
  }

  // Small JSON: one file per date, each invocation appended as an entry of `runs`.
  const date = new Date().toISOString().slice(0, 10);
  const file = join(ROOT, 'bench', 'results', `${date}${PROFILE ? '-profile' : QUICK ? '-quick' : ''}.json`);
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { runs: unknown[] }) : { runs: [] };
  const slim = (r: StepResult) => (PROFILE ? r : { ...r, profile: undefined });
  // The best steps are in `steps` already: referenced by scenario and rate.
  const ref = (r: StepResult) => ({ scenario: r.scenario, eventsPerSec: r.eventsPerSec });
  const doc = {
    benchmark: 'webhook-dispatch',
    date,
    ...info,
    settings: {
      windowSeconds: WINDOW_S,
      warmupSeconds: WARMUP_S,
      dispatcher: DISPATCHER_ENV,
      dispatcherReplicas: DISPATCHER_COUNTS,
      attemptPrefetch: 64,
      maxInFlightPerSubscription: 8,
    },
    runs: [
      ...previous.runs,
      ...runs.map((r) => ({
        ...r,
        best: r.best.map(ref),
        bestUnderP99Target: r.bestUnderP99Target.map(ref),
        steps: r.steps.map(slim),
      })),
    ],
  };
  writeResultsFile(ROOT, file, doc);
  log(`results written to ${file.slice(ROOT.length + 1)}`);
}

runMain(main);
