// The API fuzz end to end: the whole stack behind its gateway, a seeded company, schemathesis with the
// one configuration (tests/fuzz), then the stack stopped. Used by the bounded run in `npm test`
// (fuzz-schemathesis.test.ts) and by `npm run fuzz -- --minutes N` (scripts/fuzz.ts).
import { startFullStack } from './full-stack';
import { seedFuzzTenant } from './fuzz-seed';
import { answeringOnly, neverSucceeded, runSchemathesis, type FuzzBudget, type FuzzResult } from './fuzz-run';

/**
 * Limits the fuzz is not about: the per-key rate limit and the per-address limit of failed
 * authentications (the coverage phase sends unknown keys on purpose, and one address over that limit
 * gets 429 for every key, 0115).
 */
const FUZZ_LIMITS = {
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_BURST: '1000000',
  AUTH_FAILURES_PER_MINUTE: '1000000',
  AUTH_FAILURE_BURST: '1000000',
};

export async function fuzzStack(
  budget: FuzzBudget,
  reportDir: string,
  onOutput?: (chunk: string) => void,
): Promise<FuzzResult> {
  const stack = await startFullStack('fuzz', FUZZ_LIMITS);
  try {
    const seed = await seedFuzzTenant(stack);
    return await runSchemathesis(stack.gateway.url, seed, budget, reportDir, onOutput);
  } finally {
    await stack.stop();
  }
}

export function summaryOf(result: FuzzResult, reportDir: string): string {
  const lines = [
    `[fuzz] ${result.operations.length} operations, ${result.casesGenerated} cases generated, ${Math.round(result.seconds)} s; report in ${reportDir}`,
    `[fuzz] failures: ${result.failures.length}`,
    ...result.failures.map((f) => `[fuzz]   ${f}`),
    `[fuzz] answering only 401/403: ${answeringOnly(result, [401, 403]).join(', ') || 'none'}`,
    `[fuzz] answering only 404: ${answeringOnly(result, [404]).join(', ') || 'none'}`,
    `[fuzz] never 2xx: ${neverSucceeded(result).join(', ') || 'none'}`,
  ];
  return lines.join('\n');
}
