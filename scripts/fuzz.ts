// `npm run fuzz -- --minutes N`: the API fuzz of `npm test` (the same stack and configuration: tests/fuzz,
// docs/decisions/0117) with a budget of N minutes for schemathesis (the suite's is 3) and a new seed each run
// (the suite's is fixed). Report in .local/fuzz/<timestamp>/ (NDJSON, JUnit, schemathesis' output); a
// summary here. Exits non-zero when schemathesis reports a failure.
import { join } from 'node:path';
import { ensureInfra, repoRoot, testInfraEnv } from '../packages/testkit/src/infra/infra';
import { ensureTestTls } from '../packages/testkit/src/tls';

function minutesArg(argv: string[]): number {
  const at = argv.indexOf('--minutes');
  const minutes = at >= 0 ? Number(argv[at + 1]) : 10;
  if (!Number.isFinite(minutes) || minutes <= 0) throw new Error('usage: npm run fuzz -- --minutes N (N > 0)');
  return minutes;
}

async function main(): Promise<number> {
  const minutes = minutesArg(process.argv.slice(2));
  const root = repoRoot();
  const infra = await ensureInfra('test');
  const tls = ensureTestTls(join(root, '.local', 'test', 'tls'));
  // The stack runs in this process: its dispatcher trusts the test CA of the seeded receivers.
  Object.assign(process.env, testInfraEnv(infra, tls.caFile));
  const { fuzzStack, summaryOf } = await import('../tests/system/test/support/fuzz-stack');
  const reportDir = join(root, '.local', 'fuzz', new Date().toISOString().replace(/[:.]/g, '-'));
  try {
    const result = await fuzzStack({ maxExamples: 100, maxSeconds: Math.round(minutes * 60) }, reportDir, (chunk) =>
      process.stdout.write(chunk),
    );
    console.log(summaryOf(result, reportDir));
    return result.exitCode === 0 && result.failures.length === 0 ? 0 : 1;
  } finally {
    await infra.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
