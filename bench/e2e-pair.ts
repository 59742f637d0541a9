// Before and after in one run (issue 36): the end-to-end benchmark (bench/e2e.ts) from a base commit's tree
// and from this one, alternated base, after, base, after, …, with the same arguments, then each step's
// medians, the ratios after ÷ base, and the issue's targets against the after tree's medians.
// See docs/benchmarks.md, "End to end, paired".
//
//   npx tsx bench/e2e-pair.ts --base <commit> [--rounds 2] [e2e.ts options, e.g. --rates 250/50 --window 10]
//
// The base tree is a detached `git worktree` under .local/bench/e2e-pair/ (made once per commit, its
// packages installed offline from the store). It uses this tree's .tools (a link): both sides run on the
// same store and broker binaries, so the pair compares the services' code alone.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../packages/testkit/src/infra/infra';
import { cliOptions, runMain } from './lib/cli';
import { writeResultsFile } from './lib/results-file';
import { load, machine, round2 } from './lib/system';

const ROOT = repoRoot();
const { opt } = cliOptions();
const BASE = opt('base');
const ROUNDS = Number(opt('rounds') ?? 2);
if (!BASE || !(ROUNDS >= 1)) throw new Error('usage: bench/e2e-pair.ts --base <commit> [--rounds N] [e2e.ts options]');
/** What goes on to bench/e2e.ts: every argument but this script's own. */
const E2E_ARGS = (() => {
  const args = process.argv.slice(2);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--base' || args[i] === '--rounds') i++;
    else if (!/^--(base|rounds)=/.test(args[i]!)) out.push(args[i]!);
  }
  return out;
})();

/**
 * Issue 36's targets: at full rate (the step offering the most creates/s), creates/s accepted from 16
 * writers and verified deliveries/s; at 500 deliveries/s offered (50 creates/s × 10 subscriptions), p99
 * event → receipt.
 */
export const ISSUE_36_TARGETS = { fullRateCreatesPerSec: 180, fullRateDeliveriesPerSec: 1500, p99MsAt500: 100 };

const log = (line: string) => process.stdout.write(`[e2e-pair] ${line}\n`);
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** The base commit's tree, ready to run the benchmark. */
function baseTree(commit: string): string {
  const dir = join(ROOT, '.local', 'bench', 'e2e-pair', `base-${commit.slice(0, 12)}`);
  if (!existsSync(join(dir, '.git'))) {
    mkdirSync(join(ROOT, '.local', 'bench', 'e2e-pair'), { recursive: true });
    git(ROOT, 'worktree', 'add', '--detach', dir, commit);
  }
  if (!existsSync(join(dir, '.tools'))) symlinkSync(join(ROOT, '.tools'), join(dir, '.tools'));
  if (!existsSync(join(dir, 'node_modules'))) {
    log(`installing the base tree's packages (offline, from the store) in ${dir.slice(ROOT.length + 1)}`);
    const pnpm = join(ROOT, '.tools', 'bin', 'pnpm');
    execFileSync(pnpm, ['install', '--frozen-lockfile', '--prefer-offline'], { cwd: dir, stdio: 'inherit' });
  }
  return dir;
}

interface Step {
  createsPerSecOffered: number;
  creates: { acceptedPerSec: number; latencyMs: { p50: number; p99: number } };
  receivedPerSecInWindow: number;
  latencyMs: { p50: number; p95: number; p99: number };
  missingOneSecondAfterLoadStop: number;
  duplicates: number;
  unverified: number;
  cpuMsPerDelivery: Record<string, number>;
}

/** One run of bench/e2e.ts in `tree`; answers the steps of the run it appended to its results file. */
function runE2e(tree: string): Step[] {
  const file = join(tree, 'bench', 'results', `${new Date().toISOString().slice(0, 10)}-e2e.json`);
  const runsBefore = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { runs: unknown[] }).runs.length : 0;
  const r = spawnSync(join(tree, 'node_modules', '.bin', 'tsx'), ['bench/e2e.ts', ...E2E_ARGS], {
    cwd: tree,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`bench/e2e.ts in ${tree} exited with ${r.status ?? r.signal}`);
  const { runs } = JSON.parse(readFileSync(file, 'utf8')) as { runs: Array<{ steps: Step[] }> };
  if (runs.length <= runsBefore) throw new Error(`bench/e2e.ts in ${tree} wrote no run to ${file}`);
  return runs[runs.length - 1]!.steps;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The figures compared, per step. */
const FIGURES: Record<string, (s: Step) => number> = {
  'accepted creates/s': (s) => s.creates.acceptedPerSec,
  'API p99 ms': (s) => s.creates.latencyMs.p99,
  'verified deliveries/s': (s) => s.receivedPerSecInWindow,
  'event→receipt p50 ms': (s) => s.latencyMs.p50,
  'event→receipt p99 ms': (s) => s.latencyMs.p99,
  'CPU ms/delivery, all': (s) => Object.values(s.cpuMsPerDelivery).reduce((a, b) => a + b, 0),
  'CPU ms/delivery, store': (s) => s.cpuMsPerDelivery.ferretdb ?? 0,
};

async function main(): Promise<void> {
  const baseCommit = git(ROOT, 'rev-parse', BASE!);
  const base = baseTree(baseCommit);
  const after = git(ROOT, 'rev-parse', '--short', 'HEAD');
  log(`base ${baseCommit.slice(0, 7)}, after ${after}; ${ROUNDS} rounds of: tsx bench/e2e.ts ${E2E_ARGS.join(' ')}`);
  const runs: Array<{ tree: 'base' | 'after'; round: number; load: number[][]; steps: Step[] }> = [];
  for (let round = 1; round <= ROUNDS; round++)
    for (const [tree, dir] of [
      ['base', base],
      ['after', ROOT],
    ] as const) {
      log(`round ${round}: ${tree}`);
      const loadBefore = load();
      const steps = runE2e(dir);
      runs.push({ tree, round, load: [loadBefore, load()], steps });
    }

  const rates = [...new Set(runs.flatMap((r) => r.steps.map((s) => s.createsPerSecOffered)))];
  const summary = rates.map((rate) => {
    const of = (tree: 'base' | 'after') =>
      runs.filter((r) => r.tree === tree).flatMap((r) => r.steps.filter((s) => s.createsPerSecOffered === rate));
    const figures = Object.fromEntries(
      Object.entries(FIGURES).map(([name, f]) => {
        const b = median(of('base').map(f));
        const a = median(of('after').map(f));
        return [name, { base: round2(b), after: round2(a), ratio: b ? round2(a / b) : null }];
      }),
    );
    const lost = of('after').reduce((n, s) => n + s.duplicates + s.unverified + s.missingOneSecondAfterLoadStop, 0);
    return { createsPerSecOffered: rate, figures, afterDuplicatesUnverifiedOrMissing: lost };
  });

  const full = summary.reduce((a, b) => (b.createsPerSecOffered > a.createsPerSecOffered ? b : a));
  const at500 = summary.find((s) => s.createsPerSecOffered === 50);
  const t = ISSUE_36_TARGETS;
  const createsPerSec = full.figures['accepted creates/s']!.after;
  const deliveriesPerSec = full.figures['verified deliveries/s']!.after;
  const p99At500 = at500?.figures['event→receipt p99 ms']!.after;
  const targets = [
    {
      name: `≥ ${t.fullRateCreatesPerSec} creates/s at full rate`,
      value: createsPerSec,
      met: createsPerSec >= t.fullRateCreatesPerSec,
    },
    {
      name: `≥ ${t.fullRateDeliveriesPerSec} verified deliveries/s at full rate`,
      value: deliveriesPerSec,
      met: deliveriesPerSec >= t.fullRateDeliveriesPerSec,
    },
    ...(p99At500 === undefined
      ? []
      : [
          {
            name: `p99 event→receipt < ${t.p99MsAt500} ms at 500/s offered`,
            value: p99At500,
            met: p99At500 < t.p99MsAt500,
          },
        ]),
  ];
  const met = Object.fromEntries(targets.map((x) => [x.name, x.met]));

  for (const s of summary) {
    console.log(`\n${s.createsPerSecOffered} creates/s offered (medians of ${ROUNDS} runs each)\n`);
    console.log('| figure | base | after | after ÷ base |\n| --- | --- | --- | --- |');
    for (const [name, f] of Object.entries(s.figures)) console.log(`| ${name} | ${f.base} | ${f.after} | ${f.ratio} |`);
  }
  console.log('\nIssue 36 targets, after (medians):');
  for (const x of targets) console.log(`  ${x.met ? 'met    ' : 'not met'}  ${x.name}: ${x.value}`);

  const file = join(ROOT, 'bench', 'results', `${new Date().toISOString().slice(0, 10)}-e2e-pair.json`);
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { runs: unknown[] }).runs : [];
  writeResultsFile(ROOT, file, {
    benchmark: 'e2e-pair',
    targets: ISSUE_36_TARGETS,
    runs: [
      ...previous,
      { base: baseCommit.slice(0, 7), after, e2eArgs: E2E_ARGS, machine: machine(), summary, met, runs },
    ],
  });
  log(`results written to ${file.slice(ROOT.length + 1)}`);
}

runMain(main);
