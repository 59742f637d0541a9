// The API fuzz in the suite (issue 21, docs/decisions/0117): schemathesis 4.32 against the whole stack
// through the gateway, every operation of contracts/openapi.yaml, the examples, coverage, fuzzing and
// stateful phases, every check, with the configuration `npm run fuzz -- --minutes N` uses (tests/fuzz).
// Bounded by schemathesis' time budget (and cases per pass); the long run only has a larger budget.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@travel/testkit';
import { answeringOnly, contractOperations, SCHEMATHESIS, type FuzzResult } from './support/fuzz-run';
import { fuzzStack, summaryOf } from './support/fuzz-stack';

/**
 * Schemathesis' budget: with the stack's start and the seeding, under 4 minutes of the suite. The suite's
 * run is a gate, so its cases are the same on every run (a fixed Hypothesis seed; FUZZ_SEED picks another):
 * what it finds is found on every machine, not by luck. `npm run fuzz` explores with a new seed each time.
 */
const BUDGET = { maxExamples: 10, maxSeconds: 180, seed: Number(process.env.FUZZ_SEED ?? 20261126) };
const REPORT_DIR = join(repoRoot(), '.local', 'fuzz', 'suite');

describe('schemathesis through the gateway', () => {
  let result: FuzzResult;

  beforeAll(async () => {
    if (!existsSync(SCHEMATHESIS)) throw new Error('schemathesis is missing: run scripts/bootstrap.sh (npm test does)');
    result = await fuzzStack(BUDGET, REPORT_DIR);
    console.log(summaryOf(result, REPORT_DIR));
  }, 420_000);

  it('tests every operation of the contract', () => {
    const untested = contractOperations().filter((op) => !result.statuses[op]);
    expect(untested).toEqual([]);
    expect(result.operations.length).toBeGreaterThanOrEqual(80);
  });

  it('finds nothing: no 5xx, no undocumented status, every answer as the contract says, no valid request refused', () => {
    // Each failure names its check and operation; output.txt in the report has the curl to reproduce it.
    expect(result.failures).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it('reaches every operation with keys that may call it: none answers only 401/403', () => {
    expect(answeringOnly(result, [401, 403])).toEqual([]);
  });

  it('reaches records that exist: no operation answers only 404', () => {
    expect(answeringOnly(result, [404])).toEqual([]);
  });

  it('runs the stateful phase along the links, creating what later operations need', () => {
    const stateful = result.statuses['Stateful tests'] ?? {};
    expect(Object.keys(stateful).some((status) => Number(status) === 201)).toBe(true);
  });
});
