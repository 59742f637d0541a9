// The reliability harness (issue 21, sections 2 and 3), one stack and one write stream in two modes:
//   npm run faults [-- --rounds N --rate R --down S ...]   each fault of the issue under writes, counted
//   npm run soak -- --minutes 30 [--rate R]                 a long run: memory, backlog, errors
//   npm run rollout [-- --rounds N --replicas 2 --phases kills,rolling --only gateway,entries --rate R ...]
//                       kills and rolling restarts of every replica under writes (issue 38, decision 0217)
// Results: printed as markdown and appended to bench/results/<date>-<mode>.json; the
// figures of record are in docs/reliability.md. The stack is a FerretDB and a RabbitMQ of the run's own
// (never the shared test servers: this harness kills them) and every service in its own process.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../packages/testkit/src/infra/infra';
import { cliOptions, runMain } from './lib/cli';
import { faultsMarkdown, runFaults } from './lib/reliability/faults';
import { rolloutMarkdown, runRollout, type Phase } from './lib/reliability/rollout';
import { runSoak, soakMarkdown } from './lib/reliability/soak';
import type { ServiceName } from './lib/reliability/stack';
import { writeResultsFile } from './lib/results-file';
import { load, machine } from './lib/system';

const ROOT = repoRoot();
const mode = process.argv[2];
const { opt } = cliOptions(process.argv.slice(3));
const num = (name: string, fallback: number) => {
  const v = Number(opt(name) ?? fallback);
  if (!(v >= 0)) throw new Error(`--${name} takes a number`);
  return v;
};
const log = (line: string) => process.stdout.write(`[${mode}] ${line}\n`);

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
}

function record(name: string, run: object): void {
  const file = join(ROOT, 'bench', 'results', `${new Date().toISOString().slice(0, 10)}-${name}.json`);
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { runs: unknown[] }) : { runs: [] };
  const head = git('rev-parse', '--short', 'HEAD');
  const dirty = git('status', '--porcelain', '--', 'services', 'packages') !== '';
  writeResultsFile(ROOT, file, {
    benchmark: name,
    runs: [...previous.runs, { argv: process.argv.slice(2), code: { head, dirty }, machine: machine(), ...run }],
  });
  log(`results written to ${file.slice(ROOT.length + 1)}`);
}

async function main(): Promise<number> {
  const subscriptions = {
    fastSubscriptions: num('subscriptions', mode === 'soak' ? 8 : 4),
    slowSubscriptions: num('slow-subscriptions', 2),
    // The soak's slow subscriptions run at half their own capacity too (decision 0122).
    slowMs: num('slow-ms', mode === 'soak' ? 150 : 250),
    log,
  };
  const loadAtStart = load();
  if (mode === 'faults') {
    const r = await runFaults({
      ...subscriptions,
      ratePerSecond: num('rate', 20),
      connections: num('connections', 32),
      warmupS: num('warmup', 15),
      downS: num('down', 10),
      recoverMaxS: num('recover-max', 300),
      steadyS: num('steady', 10),
      rounds: num('rounds', 1),
    });
    console.log(`\n${faultsMarkdown(r)}\n`);
    record('faults', { ...r, loadAtStart, loadAtEnd: load() });
    return r.failures.length ? 1 : 0;
  }
  if (mode === 'soak') {
    const r = await runSoak({
      ...subscriptions,
      minutes: num('minutes', 30),
      ratePerSecond: num('rate', 25),
      connections: num('connections', 32),
      sampleS: num('sample', 10),
    });
    console.log(`\n${soakMarkdown(r)}\n`);
    record('soak', { ...r, loadAtStart, loadAtEnd: load() });
    return r.failures.length ? 1 : 0;
  }
  if (mode === 'rollout') {
    const r = await runRollout({
      ...subscriptions,
      phases: (opt('phases') ?? 'kills,rolling').split(',') as Phase[],
      replicas: num('replicas', 2),
      ratePerSecond: num('rate', 10),
      connections: num('connections', 32),
      warmupS: num('warmup', 10),
      settleS: num('settle', 5),
      recoverMaxS: num('recover-max', 300),
      rounds: num('rounds', 1),
      // Production's shutdown times (decision 0216) unless given.
      readinessPauseMs: num('readiness-pause-ms', 5000),
      drainTimeoutMs: num('drain-timeout-ms', 15000),
      probeMs: num('probe-ms', 1000),
      // The test servers (kills neither): `--infra shared`.
      infra: opt('infra') === 'shared' ? 'shared' : 'isolated',
      only: opt('only')?.split(',') as ServiceName[] | undefined,
    });
    console.log(`\n${rolloutMarkdown(r)}\n`);
    record('rollout', { ...r, loadAtStart, loadAtEnd: load() });
    return r.failures.length ? 1 : 0;
  }
  throw new Error(
    'usage: tsx bench/reliability.ts faults|soak|rollout [options] (see the header of bench/reliability.ts)',
  );
}

runMain(main);
