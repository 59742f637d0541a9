// A flood of unknown API keys through the gateway while a valid caller reads (issue 20, section 5):
//   npx tsx bench/key-flood.ts [--rounds 2] [--keys 10000] [--addresses 16] [--flood-rate 500] [--in-flight 64]
//                              [--rate 50] [--window keys/flood-rate] [--log-level info] [--profile]
// (also `npm run bench -- key-flood ...`). Processes, as in bench/api-reads.ts: the employees service on a
// FerretDB of this run's own and a vhost of the shared test broker, the gateway with its production
// defaults (key cache 5 s, failed authentications 20 per address then 30 a minute; only the per-key rate
// limit is raised, for the valid caller), and the flood (bench/lib/flood-process.ts), each in its own
// process. The valid caller runs here: GET /api/v1/company with one valid key, `rate` a second offered
// (open loop), from 127.0.0.1. Each round has two scenarios, measured in the same run:
//   quiet   the valid caller alone for `window` seconds (the ceiling; by default as long as the flood);
//   flood   the valid caller while `keys` random keys of the issued form (the worst case: past the form
//           check) arrive from `addresses` loopback source addresses 127.0.0.2…, `flood-rate` a second
//           offered, at most `in-flight` outstanding; for at least `window` seconds.
// Per scenario: the valid caller's p50/p99/max and its answers, the flood's answers, the gateway's key
// lookups by answer (its metrics; `known` are the valid key's), CPU by process. Figures are medians over
// the rounds; the ratio is flood p99 / quiet p99. Results: bench/results/<date>-key-flood.json. --profile: a
// V8 CPU profile of the gateway during the first round's flood, summarized in the results.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { repoRoot } from '../packages/testkit/src/infra/infra';
import { startApiBenchEnv } from './lib/api-bench-env';
import { ask, forkTs, waitForExit } from './lib/children';
import { cliOptions, runMain } from './lib/cli';
import { summarizeCpuProfile } from './lib/cpuprofile';
import { revisionOf, writeResultsFile } from './lib/results-file';
import { CpuMeter, load, machine, percentile, pidListeningOn, round2 } from './lib/system';

const { flag, opt } = cliOptions();
const PROFILE = flag('profile');
const ROUNDS = Number(opt('rounds') ?? 2);
const KEYS = Number(opt('keys') ?? 10_000);
const ADDRESSES = Number(opt('addresses') ?? 16);
const FLOOD_RATE = Number(opt('flood-rate') ?? 500);
const IN_FLIGHT = Number(opt('in-flight') ?? 64);
const RATE = Number(opt('rate') ?? 50);
/** The quiet scenario lasts as long as the flood is meant to (keys / flood rate), so both see as much of the machine's noise. */
const WINDOW_S = Number(opt('window') ?? Math.max(5, KEYS / FLOOD_RATE));
const LOG_LEVEL = opt('log-level') ?? 'info';
const ROOT = repoRoot();
const STATE = join(ROOT, '.local', 'bench', 'key-flood');
const log = (line: string) => process.stdout.write(`[key-flood] ${line}\n`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

interface Child {
  proc: ChildProcess;
  url: string;
  /** Its /metrics, /readyz and /healthz (OPS_PORT; never on the API port, decision 0097). */
  opsUrl?: string;
  pid: number;
}

/** A child of bench/lib/api-process.ts (employees or gateway), once it listens. */
async function startRole(role: string, env: NodeJS.ProcessEnv): Promise<Child> {
  const proc = forkTs(join(ROOT, 'bench', 'lib', 'api-process.ts'), { ...env, BENCH_ROLE: role }, `key-flood-${role}`);
  const ready = await new Promise<{ url: string; opsUrl?: string; pid: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start`)), 60_000);
    proc.on('message', (m: { type: string; url: string; opsUrl?: string; pid: number }) => {
      if (m.type !== 'ready') return;
      clearTimeout(timer);
      resolve(m);
    });
  });
  return { proc, url: ready.url, opsUrl: ready.opsUrl, pid: ready.pid };
}

/** The valid caller: GET `url` at `rate` a second, open loop, until `until()` says stop; latencies in ms. */
async function validCaller(url: string, key: string, until: () => boolean) {
  const agent = new Agent({ keepAlive: true, localAddress: '127.0.0.1', maxSockets: 64 });
  const latencies: number[] = [];
  const timeline: Array<[number, number]> = [];
  const statuses: Record<string, number> = {};
  const pending: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; !until(); i++) {
    await sleep(started + (i * 1000) / RATE - performance.now());
    pending.push(
      new Promise<void>((resolve) => {
        const sent = performance.now();
        const req = request(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - sent);
            timeline.push([Math.round(sent - started), Math.round(performance.now() - sent)]);
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            resolve();
          });
        });
        req.on('error', () => {
          statuses.error = (statuses.error ?? 0) + 1;
          resolve();
        });
        req.end();
      }),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    statuses,
    p50Ms: round2(percentile(latencies, 0.5)),
    p99Ms: round2(percentile(latencies, 0.99)),
    maxMs: round2(latencies[latencies.length - 1] ?? NaN),
    /** The slowest 1 %: [ms after the scenario started, latency ms], where in the window they fell. */
    slowest: timeline.sort((a, b) => b[1] - a[1]).slice(0, Math.ceil(timeline.length / 100)),
  };
}

/** The gateway's key lookups so far, by answer, and its key checks by outcome (its /metrics, on the ops port). */
async function keyCounters(gatewayOpsUrl: string) {
  const res = await fetch(`${gatewayOpsUrl}/metrics`);
  if (!res.ok) throw new Error(`gateway /metrics answered ${res.status}`);
  const text = await res.text();
  const read = (metric: string, label: string) => {
    const out: Record<string, number> = {};
    for (const m of text.matchAll(new RegExp(`^${metric}\\{[^}]*${label}="([^"]+)"[^}]*\\} (\\S+)$`, 'gm')))
      out[m[1]!] = Number(m[2]);
    return out;
  };
  return {
    lookups: read('gateway_api_key_lookups_total', 'answer'),
    checks: read('gateway_api_key_checks_total', 'outcome'),
  };
}

const delta = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(b).map((k) => [k, b[k]! - (a[k] ?? 0)]));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const { vars, storePort, stop: stopEnv } = await startApiBenchEnv(ROOT, STATE, 'keyflood', LOG_LEVEL);
  const children: ChildProcess[] = [];
  try {
    const employees = await startRole('employees', vars);
    children.push(employees.proc);
    const gateway = await startRole('gateway', { ...vars, EMPLOYEES_URL: employees.url });
    children.push(gateway.proc);
    const flooder = forkTs(join(ROOT, 'bench', 'lib', 'flood-process.ts'), process.env, 'key-flood-flood');
    children.push(flooder);
    await new Promise<void>((resolve) => flooder.once('message', () => resolve()));
    const seeded = await ask<{ apiKey: string }>(employees.proc, { type: 'seed' }, 'seeded', 60_000);
    const url = `${gateway.url}/api/v1/company`;
    const addresses = Array.from({ length: ADDRESSES }, (_, i) => `127.0.0.${i + 2}`);
    const pids = {
      gateway: gateway.pid,
      employees: employees.pid,
      ferretdb: pidListeningOn(storePort),
      flood: flooder.pid,
      bench: process.pid,
    };

    log(`warm-up (2 s); load ${load().join(' ')}`);
    const warmUntil = Date.now() + 2000;
    await validCaller(url, seeded.apiKey, () => Date.now() > warmUntil);

    let profile: unknown;
    const runs: Array<Record<string, unknown> & { scenario: string; p99Ms: number; p50Ms: number }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const scenario of ['quiet', 'flood'] as const) {
        await sleep(2000); // requests of the previous scenario drain
        const profiled = PROFILE && round === 1 && scenario === 'flood';
        if (profiled) await ask(gateway.proc, { type: 'profile-start' }, 'profile-started');
        const before = await keyCounters(gateway.opsUrl!);
        const meter = new CpuMeter(pids);
        const windowEnd = Date.now() + WINDOW_S * 1000;
        let flooding = scenario === 'flood';
        const flooded =
          scenario === 'flood'
            ? ask<{ statuses: Record<string, number>; seconds: number }>(
                flooder,
                { type: 'run', url, keys: KEYS, addresses, rate: FLOOD_RATE, inFlight: IN_FLIGHT },
                'flooded',
                300_000,
              ).finally(() => (flooding = false))
            : undefined;
        const caller = await validCaller(url, seeded.apiKey, () => Date.now() > windowEnd && !flooding);
        const flood = flooded ? await flooded : undefined;
        const cpu = meter.read();
        const after = await keyCounters(gateway.opsUrl!);
        if (profiled) {
          const file = join(STATE, 'gateway-flood.cpuprofile');
          await ask(gateway.proc, { type: 'profile-stop', file }, 'profile-stopped');
          profile = summarizeCpuProfile(file, 20);
          log(`gateway profile during the flood: ${JSON.stringify(profile, null, 1)}`);
        }
        const run = {
          round,
          scenario,
          seconds: cpu.wallSeconds,
          ...caller,
          ...(flood
            ? {
                flood: {
                  statuses: flood.statuses,
                  seconds: round2(flood.seconds),
                  perSecond: Math.round(KEYS / flood.seconds),
                },
              }
            : {}),
          lookups: delta(before.lookups, after.lookups),
          checks: delta(before.checks, after.checks),
          cores: cpu.cores,
          otherCores: cpu.otherCores,
          load: load()[0],
        };
        runs.push(run);
        log(
          `round ${round} ${scenario}: valid p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, max ${run.maxMs} ms, ${JSON.stringify(run.statuses)}` +
            `${flood ? `; flood ${JSON.stringify(flood.statuses)} in ${round2(flood.seconds)} s` : ''}; lookups ${JSON.stringify(run.lookups)}` +
            `; cores ${JSON.stringify(run.cores)} other ${run.otherCores}; load ${run.load}`,
        );
      }
    }

    const of = (scenario: string) => runs.filter((r) => r.scenario === scenario);
    // The valid key is looked up once per cache window (API_KEY_CACHE_MS, 5 s by default): more than
    // that in a scenario would mean the flood pushed it out of the cache.
    const cacheWindowS = Number(vars.API_KEY_CACHE_MS ?? 5000) / 1000;
    const summarize = (scenario: string) => ({
      p50Ms: median(of(scenario).map((r) => r.p50Ms)),
      p99Ms: median(of(scenario).map((r) => r.p99Ms)),
      validKeyLookups: of(scenario).map((r) => (r.lookups as Record<string, number>).known ?? 0),
      validKeyLookupsAtMost: of(scenario).map((r) => Math.ceil((r.seconds as number) / cacheWindowS) + 1),
    });
    const quiet = summarize('quiet');
    const flood = summarize('flood');
    const summary = {
      quiet,
      flood,
      p99Ratio: round2(flood.p99Ms / quiet.p99Ms),
      p99RatioPerRound: of('flood').map((f, i) => round2(f.p99Ms / of('quiet')[i]!.p99Ms)),
    };
    log(`summary: ${JSON.stringify(summary)}`);

    const file = join(ROOT, 'bench', 'results', `${new Date().toISOString().slice(0, 10)}-key-flood.json`);
    const doc = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { runs: [] };
    doc.runs.push({
      startedAt: new Date().toISOString(),
      commit: revisionOf(ROOT),
      machine: machine(),
      settings: {
        rounds: ROUNDS,
        keys: KEYS,
        addresses: ADDRESSES,
        floodRate: FLOOD_RATE,
        inFlight: IN_FLIGHT,
        rate: RATE,
        windowSeconds: WINDOW_S,
        logLevel: LOG_LEVEL,
      },
      summary,
      runs,
      ...(profile ? { gatewayProfile: profile } : {}),
    });
    writeResultsFile(ROOT, file, doc);
    log(`results written to ${file}`);
  } finally {
    for (const c of children.reverse()) {
      if (c.connected) await ask(c, { type: 'stop' }, 'stopped', 10_000).catch(() => undefined);
      if (!(await waitForExit(c, 2000))) c.kill();
    }
    await stopEnv();
  }
}

runMain(main);
