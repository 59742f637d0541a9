// Runs schemathesis (installed by scripts/fuzz-venv.sh into .tools/fuzz-venv) against a gateway with the
// one configuration of the API fuzz (tests/fuzz/schemathesis.toml and hooks.py, docs/decisions/0117) and
// reads its NDJSON report: per operation the statuses it answered, per check and operation what failed.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocument } from '@travel/contracts';
import { exitCodeOf, repoRoot } from '@travel/testkit';
import type { FuzzSeed } from './fuzz-seed';

export interface FuzzBudget {
  /** Cases per operation in one pass of the fuzzing phase (and scenarios of the stateful phase). */
  maxExamples: number;
  /**
   * Schemathesis' time budget for the whole run (`--max-time`): it shares it among the phases, and the
   * fuzzing and stateful phases repeat until it is spent.
   */
  maxSeconds: number;
  /** Hypothesis seed: the same seed, the same cases. */
  seed?: number;
}

export interface FuzzResult {
  exitCode: number;
  /** Operations (method and path) schemathesis tested. */
  operations: string[];
  /** "N generated" of schemathesis' summary. */
  casesGenerated: number;
  /** Per operation, how often each status came back (all phases but the stateful one, whose steps it reports as one). */
  statuses: Record<string, Record<number, number>>;
  /** `check — operation` of every failure schemathesis reported. */
  failures: string[];
  seconds: number;
  /** schemathesis' own output (its summary names each failure with the curl to reproduce it). */
  output: string;
}

export const SCHEMATHESIS = join(repoRoot(), '.tools', 'fuzz-venv', 'bin', 'schemathesis');
const CONFIG = join(repoRoot(), 'tests', 'fuzz', 'schemathesis.toml');
const HOOKS = join(repoRoot(), 'tests', 'fuzz', 'hooks.py');
const CONTRACT = join(repoRoot(), 'contracts', 'openapi.yaml');

export async function runSchemathesis(
  gatewayUrl: string,
  seed: FuzzSeed,
  budget: FuzzBudget,
  reportDir: string,
  onOutput: (chunk: string) => void = () => {},
): Promise<FuzzResult> {
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const seedFile = join(reportDir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seed), { mode: 0o600 });
  const args = [
    '--config-file',
    CONFIG,
    'run',
    CONTRACT,
    '--url',
    gatewayUrl,
    '--phases',
    'examples,coverage,fuzzing,stateful',
    '--max-examples',
    String(budget.maxExamples),
    '--report',
    'ndjson,junit',
    '--report-dir',
    reportDir,
    '--max-time',
    String(budget.maxSeconds),
    ...(budget.seed !== undefined ? ['--seed', String(budget.seed)] : []),
  ];
  const started = Date.now();
  const child = spawn(SCHEMATHESIS, args, {
    cwd: repoRoot(),
    env: {
      ...process.env,
      FUZZ_BASE_URL: gatewayUrl,
      FUZZ_OWNER_KEY: seed.ownerKey,
      FUZZ_APPROVER_KEY: seed.approverKey,
      FUZZ_SEED_FILE: seedFile,
      SCHEMATHESIS_HOOKS: HOOKS,
      // No __pycache__ beside the hooks in the work tree.
      PYTHONDONTWRITEBYTECODE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    onOutput(chunk.toString());
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exitCode = await exitCodeOf(child);
  writeFileSync(join(reportDir, 'output.txt'), output);
  return { exitCode, seconds: (Date.now() - started) / 1000, output, ...readReport(reportDir, output) };
}

type Interaction = { request: { method: string }; response?: { status_code: number } };
type Scenario = {
  recorder: {
    label: string;
    interactions?: Record<string, Interaction>;
    checks?: Record<string, Array<{ name: string; status: string; failure_info?: { failure: { operation: string } } }>>;
  };
};

function readReport(reportDir: string, output: string) {
  const file = readdirSync(reportDir).find((f) => f.endsWith('.ndjson'));
  if (!file) throw new Error(`schemathesis wrote no NDJSON report:\n${output}`);
  const statuses: Record<string, Record<number, number>> = {};
  const failures = new Set<string>();
  for (const line of readFileSync(join(reportDir, file), 'utf8').split('\n')) {
    if (!line) continue;
    const event = JSON.parse(line);
    const scenario: Scenario | undefined = event.ScenarioFinished;
    if (!scenario) continue;
    const label = scenario.recorder.label;
    for (const interaction of Object.values(scenario.recorder.interactions ?? {})) {
      const status = interaction.response?.status_code;
      if (status === undefined) continue;
      statuses[label] ??= {};
      statuses[label][status] = (statuses[label][status] ?? 0) + 1;
    }
    for (const checks of Object.values(scenario.recorder.checks ?? {}))
      for (const check of checks)
        if (check.status === 'failure')
          failures.add(`${check.name} — ${check.failure_info?.failure.operation ?? label}`);
  }
  const generated = /(\d+) generated/.exec(output);
  return {
    operations: contractOperations(),
    statuses,
    failures: [...failures].sort(),
    casesGenerated: generated ? Number(generated[1]) : 0,
  };
}

/** Every operation of the contract, labelled as schemathesis labels them (`GET /api/v1/...`). */
export function contractOperations(): string[] {
  const paths = (openApiDocument() as { paths: Record<string, Record<string, unknown>> }).paths;
  return Object.entries(paths).flatMap(([path, item]) =>
    ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
  );
}

/** Operations whose every answer was one of `only` (e.g. only 401/403, or only 404). */
export function answeringOnly(result: FuzzResult, only: number[]): string[] {
  return result.operations.filter((op) => {
    const seen = Object.keys(result.statuses[op] ?? {}).map(Number);
    return seen.length > 0 && seen.every((s) => only.includes(s));
  });
}

/** Operations that never answered 2xx. */
export function neverSucceeded(result: FuzzResult): string[] {
  return result.operations.filter((op) => !Object.keys(result.statuses[op] ?? {}).some((s) => Number(s) < 300));
}
