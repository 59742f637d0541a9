// What one webhook delivery costs (issue 36, the delivery half): store commands per delivery, by command
// name, from the driver's command monitoring in the dispatcher process, and CPU per delivery of the
// dispatcher and the store, for a fixed number of events fanned out to N subscriptions on a real HTTPS
// receiver. The events are published on the broker as a service's outbox relay publishes them, paced at a
// fixed rate, so the write half (bench/write-cost.ts) is not in the figures. Event → receipt latency is
// reported too, but it is the figure the machine's other load moves most. See docs/benchmarks.md,
// "Dispatch cost".
//
//   npx tsx bench/dispatch-cost.ts [--events 400] [--subscriptions 10] [--rate 50] [--isolated-infra] [--cpu]
//     [--profile]
//
// Without --cpu the dispatcher counts its store commands (the driver then decodes every reply for the
// event, so its CPU is not measured in that run); with --cpu it does not, and the CPU is measured instead.
// --isolated-infra: a FerretDB and a RabbitMQ of this run's own (bench/lib/isolated-infra.ts), so the store's
// CPU is this run's alone; otherwise the shared test servers (commands only mean anything then).
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogger } from '../packages/platform/src/logger';
import { AmqpClient } from '../packages/platform/src/messaging/amqp-client';
import { DOMAIN_EXCHANGE } from '../packages/platform/src/messaging/topology';
import { createTestEnv, type TestEnv } from '../packages/testkit/src/env';
import { employeeEvent } from '../packages/testkit/src/events';
import { repoRoot } from '../packages/testkit/src/infra/infra';
import { ensureTestTls } from '../packages/testkit/src/tls';
import { Dispatcher, Receiver } from './lib/children';
import { cliOptions, runMain } from './lib/cli';
import { runInfraOnFreePorts } from './lib/isolated-infra';
import { summarizeCpuProfile } from './lib/cpuprofile';
import { BENCH_SERVICE_ENV } from './lib/service-settings';
import { load, percentile, processCpuSeconds } from './lib/system';

const ROOT = repoRoot();
const STATE = join(ROOT, '.local', 'bench', 'dispatch-cost');
const { flag, opt } = cliOptions();
const EVENTS = Number(opt('events') ?? 400);
const SUBSCRIPTIONS = Number(opt('subscriptions') ?? 10);
const RATE = Number(opt('rate') ?? 50);
const CPU = flag('cpu');
/** A V8 CPU profile of the dispatcher over the measured events (with --cpu: its summary in the output). */
const PROFILE = flag('profile');
const ISOLATED = flag('isolated-infra');
const log = (line: string) => process.stdout.write(`[dispatch-cost] ${line}\n`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

async function register(env: TestEnv, dispatcherUrl: string, tenantId: string, url: string): Promise<void> {
  const res = await fetch(`${dispatcherUrl}/api/v1/webhooks`, {
    method: 'POST',
    headers: env.callerHeaders({ tenantId, permissions: ['ManageCompanyData'] }),
    body: JSON.stringify({ url, eventTypes: ['employee.created'] }),
  });
  if (res.status !== 201) throw new Error(`registering ${url}: ${res.status} ${await res.text()}`);
}

/** `count` events at `rate` a second, each published as the outbox relay publishes one (confirmed). */
async function publish(
  client: AmqpClient,
  tenantId: string,
  count: number,
  rate: number,
  onEvent: (id: string) => void,
) {
  const start = performance.now();
  const confirms: Promise<void>[] = [];
  for (let k = 0; k < count; k++) {
    await sleep(start + (k / rate) * 1000 - performance.now());
    const event = employeeEvent(tenantId, `Cost-${k}`);
    onEvent(event.id);
    confirms.push(
      client.publish(DOMAIN_EXCHANGE, `employees.${event.type}`, Buffer.from(JSON.stringify(event)), {
        messageId: event.id,
        type: event.type,
        contentType: 'application/json',
        timestamp: Math.floor(Date.parse(event.occurredAt) / 1000),
        headers: { 'x-tenant-id': tenantId },
      }),
    );
  }
  await Promise.all(confirms);
}

async function main(): Promise<void> {
  mkdirSync(STATE, { recursive: true });
  const tlsDir = join(ROOT, '.local', 'test', 'tls');
  const tls = ensureTestTls(tlsDir);
  let stopInfra: (() => Promise<void>) | undefined;
  let storePid: number | undefined;
  let brokerPid: number | undefined;
  if (ISOLATED) {
    const run = await runInfraOnFreePorts(STATE, tls.caFile, {
      root: ROOT,
      rabbitNode: `rabbit-dc-${process.pid}@localhost`,
      label: 'bench/dispatch-cost.ts',
      log,
    });
    ({ storePid, brokerPid } = run);
    stopInfra = () => run.infra.stop();
  }
  let receiver: Receiver | undefined;
  let dispatcher: Dispatcher | undefined;
  let publisher: AmqpClient | undefined;
  try {
    receiver = await Receiver.start(tlsDir);
    const env = await createTestEnv('dispatch-cost', BENCH_SERVICE_ENV);
    dispatcher = await Dispatcher.start(env.vars, !CPU, 'dispatch-cost-dispatcher');
    const tenantId = randomUUID();
    const step = 1;
    for (let i = 0; i < SUBSCRIPTIONS; i++)
      await register(env, dispatcher.url, tenantId, `https://localhost:${receiver.healthyPort}/b/${step}/${i}`);
    publisher = new AmqpClient(env.amqpUrl, createLogger('bench-publisher', 'warn'), 'bench-publisher');
    await publisher.start();

    const measured = new Set<string>();
    const seen = new Set<string>();
    const latencies: number[] = [];
    let arrived = 0;
    let duplicates = 0;
    receiver.route(step, ([, sub, eventId, at, createdAt]) => {
      const key = `${sub}:${eventId}`;
      if (seen.has(key)) return void duplicates++;
      seen.add(key);
      arrived++;
      if (measured.has(eventId)) latencies.push(at - createdAt);
    });
    const waitFor = async (deliveries: number, ms: number) => {
      const deadline = Date.now() + ms;
      while (arrived < deliveries && Date.now() < deadline) {
        await sleep(100);
        await receiver!.flush();
      }
      if (arrived < deliveries) throw new Error(`${deliveries - arrived} deliveries missing after ${ms / 1000} s`);
    };

    const warm = Math.min(100, EVENTS);
    await publish(publisher, tenantId, warm, RATE / 2, () => undefined);
    await waitFor(warm * SUBSCRIPTIONS, 60_000);
    await sleep(500);

    await dispatcher.resetStats();
    const pids = { dispatcher: dispatcher.pid, store: storePid, broker: brokerPid };
    const cpuAt = () =>
      Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, pid ? processCpuSeconds(pid) : 0]));
    const cpuBefore = cpuAt();
    const loadBefore = load();
    if (PROFILE) await dispatcher.profileStart();
    const started = performance.now();
    await publish(publisher, tenantId, EVENTS, RATE, (id) => measured.add(id));
    const deliveries = EVENTS * SUBSCRIPTIONS;
    await waitFor((warm + EVENTS) * SUBSCRIPTIONS, 120_000);
    // The outcome writes of the last deliveries follow their arrival: let them land before reading.
    await sleep(1000);
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = cpuAt();
    const profileFile = join(STATE, 'dispatcher.cpuprofile');
    if (PROFILE) await dispatcher.profileStop(profileFile);
    const stats = await dispatcher.stats();
    const perDelivery = (n: number) => Math.round((n / deliveries) * 1000) / 1000;
    const commands: Record<string, number> = {};
    for (const [name, s] of Object.entries(stats.store ?? {})) commands[name] = perDelivery(s.count);
    const cpuMsPerDelivery = Object.fromEntries(
      Object.keys(pids).map((k) => [
        k,
        Math.round((((cpuAfter[k] ?? 0) - (cpuBefore[k] ?? 0)) / deliveries) * 1e5) / 100,
      ]),
    );
    latencies.sort((a, b) => a - b);
    const result = {
      events: EVENTS,
      subscriptions: SUBSCRIPTIONS,
      offeredDeliveriesPerSecond: RATE * SUBSCRIPTIONS,
      deliveries,
      duplicates,
      seconds: Math.round(seconds * 10) / 10,
      latencyMs: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
      ...(CPU
        ? { cpuMsPerDelivery }
        : {
            commandsPerDelivery: commands,
            total: Math.round(Object.values(commands).reduce((a, b) => a + b, 0) * 1000) / 1000,
          }),
      load: [loadBefore, load()],
      ...(PROFILE ? { profile: summarizeCpuProfile(profileFile, 25) } : {}),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await publisher?.stop().catch(() => undefined);
    await dispatcher?.stop();
    await receiver?.stop();
    await stopInfra?.();
  }
}

runMain(main);
