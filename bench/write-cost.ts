// What one API write costs (issue 36): store commands per `POST /api/v1/employees`, by command name, from the
// driver's command monitoring in the employees process, and CPU per create of the gateway, the employees
// service and the store, over a fixed number of creates through the gateway. Both are figures the machine's
// other load changes little, unlike creates/s. See docs/benchmarks.md, "Write cost".
//
//   npx tsx bench/write-cost.ts [--creates 2000] [--clients 16] [--rate R] [--isolated-infra] [--cpu] [--profile]
//     [--idle S] [--replicas N]
//
// Without --cpu the employees process counts its store commands (the driver then decodes every reply for the
// event, so its CPU is not measured in that run); with --cpu it does not, and the CPU is measured instead.
// --isolated-infra: a FerretDB and a RabbitMQ of this run's own (bench/lib/isolated-infra.ts), so the store's
// CPU is this run's alone; otherwise the shared test servers (commands only mean anything then).
// --profile (with --cpu): V8 CPU profiles of the gateway and the employees process over the counted creates,
// summarized by layer and function (the profiler adds to both processes' CPU).
// --rate R: creates paced at R a second (create k due at start + k/R) instead of as fast as they are
// answered: what a create costs when the services are not saturated and nothing batches across requests.
// --idle S (with --cpu): first S seconds with no request after the warm-up, each process's CPU then in ms a
// second: the part of a paced create's cost that is not the create's (timers, polls, heartbeats).
// --replicas N: N employees processes behind the gateway (one list of URLs, decision 0214), as the chart runs
// them; the output adds the events their relays published per create, and how many of those were a second
// copy (decision 0243). Commands are then counted in the first replica only.
import { mkdirSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { urlEnv } from '../contracts/src/services';
import { createTestEnv } from '../packages/testkit/src/env';
import { repoRoot } from '../packages/testkit/src/infra/infra';
import { ensureTestTls } from '../packages/testkit/src/tls';
import { ask, startEmployeesReplicas, startServiceChild, waitForExit, type ServiceChild } from './lib/children';
import { cliOptions, runMain } from './lib/cli';
import { summarizeCpuProfile } from './lib/cpuprofile';
import { runInfraOnFreePorts } from './lib/isolated-infra';
import { postJson } from './lib/reliability/load';
import { BENCH_SERVICE_ENV, NO_RATE_LIMIT } from './lib/service-settings';
import { CpuMeter, load, metric } from './lib/system';

const ROOT = repoRoot();
const STATE = join(ROOT, '.local', 'bench', 'write-cost');
const { flag, opt } = cliOptions();
const CREATES = Number(opt('creates') ?? 2000);
const CLIENTS = Number(opt('clients') ?? 16);
const CPU = flag('cpu');
const ISOLATED = flag('isolated-infra');
const PROFILE = CPU && flag('profile');
const RATE = opt('rate') === undefined ? undefined : Number(opt('rate'));
const REPLICAS = Number(opt('replicas') ?? 1);
if (!(Number.isInteger(REPLICAS) && REPLICAS >= 1)) throw new Error('--replicas takes a whole number ≥ 1');
const IDLE_SECONDS = CPU && opt('idle') !== undefined ? Number(opt('idle')) : 0;
if (!(IDLE_SECONDS >= 0)) throw new Error('--idle takes a number of seconds');
if (RATE !== undefined && !(RATE > 0)) throw new Error('--rate takes a positive number of creates a second');
const log = (line: string) => process.stdout.write(`[write-cost] ${line}\n`);

const startApi = (role: 'employees' | 'gateway', env: NodeJS.ProcessEnv, logName: string) =>
  startServiceChild(join(ROOT, 'bench', 'lib', 'api-process.ts'), { ...env, BENCH_ROLE: role }, logName, role);

async function stopApi(c: ServiceChild | undefined): Promise<void> {
  if (!c || c.proc.exitCode !== null) return;
  await ask(c.proc, { type: 'stop' }, 'stopped', 15_000).catch(() => c.proc.kill('SIGKILL'));
  await waitForExit(c.proc, 5000);
}

/** `count` creates over `clients` keep-alive connections, each sending the next as soon as it is free. */
async function creates(gatewayUrl: string, apiKey: string, count: number, label: string, rate?: number) {
  const base = new URL(gatewayUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  let next = 0;
  let failed = 0;
  let latencyMs = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let k = next++; k < count; k = next++) {
        if (rate) {
          const due = start + (k * 1000) / rate - performance.now();
          if (due > 0) await new Promise((r) => setTimeout(r, due));
        }
        const body = JSON.stringify({
          firstName: 'Ana',
          lastName: `Cost-${label}-${k}`,
          email: `${label}-${k}@bench.test`,
        });
        const sent = performance.now();
        const res = await postJson(agent, base, apiKey, '/api/v1/employees', body, 60_000);
        latencyMs += performance.now() - sent;
        if (res.status !== 201) failed++;
      }
    }),
  );
  agent.destroy();
  const seconds = (performance.now() - start) / 1000;
  return { seconds, failed, perSecond: count / seconds, meanMs: latencyMs / count };
}

/** The events the replicas' relays published, and those of them another relay had published first. */
async function publishesOf(replicas: ServiceChild[]): Promise<{ published: number; twice: number }> {
  let published = 0;
  let twice = 0;
  for (const r of replicas) {
    // Without a dispatcher no queue is bound: the relay parks each event itself (counted apart).
    published += (await metric(r.opsUrl, 'outbox_published_total')) ?? 0;
    published += (await metric(r.opsUrl, 'outbox_unroutable_parked_by_relay_total')) ?? 0;
    // Absent before decision 0243: then 0, and the duplicates show in the published events per create.
    twice += (await metric(r.opsUrl, 'outbox_published_twice_total')) ?? 0;
  }
  return { published, twice };
}

async function main(): Promise<void> {
  mkdirSync(STATE, { recursive: true });
  const tls = ensureTestTls(join(ROOT, '.local', 'test', 'tls'));
  let stopInfra: (() => Promise<void>) | undefined;
  let storePid: number | undefined;
  if (ISOLATED) {
    const run = await runInfraOnFreePorts(STATE, tls.caFile, {
      root: ROOT,
      rabbitNode: `rabbit-wc-${process.pid}@localhost`,
      label: 'bench/write-cost.ts',
      log,
    });
    storePid = run.storePid;
    stopInfra = () => run.infra.stop();
  }
  let replicas: ServiceChild[] = [];
  let gateway: ServiceChild | undefined;
  try {
    const env = await createTestEnv('write-cost', { ...BENCH_SERVICE_ENV, ...NO_RATE_LIMIT });
    const vars = { ...process.env, ...env.vars, ...(CPU ? {} : { BENCH_COUNT_COMMANDS: 'true' }) };
    const started = await startEmployeesReplicas(REPLICAS, vars, 'write-cost-employees');
    replicas = started.replicas;
    const employees = replicas[0]!;
    gateway = await startApi('gateway', { ...vars, ...urlEnv({ employees: started.urls }) }, 'write-cost-gateway');
    const { apiKey } = await ask<{ apiKey: string }>(employees.proc, { type: 'seed' }, 'seeded', 60_000);
    const warm = await creates(gateway.url, apiKey, Math.min(200, CREATES), 'warm');
    if (warm.failed) throw new Error(`${warm.failed} warm-up creates failed`);
    const counted = () =>
      CPU
        ? Promise.resolve({} as Record<string, number>)
        : ask<{ commands: Record<string, number> }>(employees!.proc, { type: 'commands' }, 'commands').then(
            (m) => m.commands,
          );
    const before = await counted();
    const profiled = { gateway, employees };
    const profileFile = (role: string) => join(STATE, `${role}.cpuprofile`);
    if (PROFILE)
      await Promise.all(Object.values(profiled).map((c) => ask(c.proc, { type: 'profile-start' }, 'profile-started')));
    const meter = new CpuMeter({
      gateway: gateway.pid,
      ...started.pids,
      store: storePid,
    });
    const publishesBefore = await publishesOf(replicas);
    let idleCpuMsPerSecond: Record<string, number> | undefined;
    if (IDLE_SECONDS > 0) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
      const idle = meter.read();
      idleCpuMsPerSecond = Object.fromEntries(
        Object.entries(idle.cores).map(([name, cores]) => [name, Math.round(cores * 1e4) / 10]),
      );
      meter.reset();
    }
    const loadBefore = load();
    const run = await creates(gateway.url, apiKey, CREATES, 'run', RATE);
    const cpu = meter.read();
    const after = await counted();
    const publishesAfter = await publishesOf(replicas);
    if (PROFILE)
      await Promise.all(
        Object.entries(profiled).map(([role, c]) =>
          ask(c.proc, { type: 'profile-stop', file: profileFile(role) }, 'profile-stopped', 60_000),
        ),
      );
    const perCreate: Record<string, number> = {};
    for (const [name, n] of Object.entries(after)) {
      const d = n - (before[name] ?? 0);
      if (d > 0) perCreate[name] = Math.round((d / CREATES) * 100) / 100;
    }
    const total = Object.values(perCreate).reduce((a, b) => a + b, 0);
    const cpuMsPerCreate = Object.fromEntries(
      Object.entries(cpu.cores).map(([name, cores]) => [
        name,
        Math.round(((cores * cpu.wallSeconds) / CREATES) * 1e5) / 100,
      ]),
    );
    const result = {
      creates: CREATES,
      clients: CLIENTS,
      ...(RATE ? { rate: RATE } : {}),
      failed: run.failed,
      createsPerSecond: Math.round(run.perSecond * 10) / 10,
      meanMs: Math.round(run.meanMs),
      ...(CPU
        ? { cpuMsPerCreate, otherCores: cpu.otherCores, ...(idleCpuMsPerSecond ? { idleCpuMsPerSecond } : {}) }
        : { commandsPerCreate: perCreate, total: Math.round(total * 100) / 100 }),
      ...(REPLICAS > 1
        ? {
            replicas: REPLICAS,
            eventsPublishedPerCreate:
              Math.round(((publishesAfter.published - publishesBefore.published) / CREATES) * 1000) / 1000,
            publishedTwicePerCreate:
              Math.round(((publishesAfter.twice - publishesBefore.twice) / CREATES) * 1000) / 1000,
          }
        : {}),
      load: [loadBefore, load()],
      ...(PROFILE
        ? {
            profiles: Object.fromEntries(
              Object.keys(profiled).map((r) => [r, summarizeCpuProfile(profileFile(r), 20)]),
            ),
          }
        : {}),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await stopApi(gateway);
    for (const r of replicas) await stopApi(r);
    await stopInfra?.();
  }
}

runMain(main);
