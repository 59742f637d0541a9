// Starts the test infrastructure (or reuses what already listens on the test ports), runs the benchmark
// as a child process that trusts the test CA, and stops what it started (like scripts/test-run.ts).
//
// On a machine shared with other engineers, the test-profile servers belong to whichever `npm test`
// started them and stop when that run ends, and every test file writes to the same FerretDB (whose
// front serializes writes per collection name across databases). Two options deal with that:
//   --own-infra       wait (at most 10 min) until no test-profile server listens, so this run starts them;
//   --isolated-infra  start a FerretDB and a RabbitMQ of our own, built and configured exactly as the test
//                     profile's (same start functions), on ports no other run uses; the shared
//                     .local/test/infra.json is left alone.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureInfra, exitCodeOf, repoRoot, testInfraEnv } from '../packages/testkit/src/infra/infra';
import { portOpen } from '../packages/testkit/src/infra/wait';
import { ensureTestTls } from '../packages/testkit/src/tls';
import { isolatedInfra } from './lib/isolated-infra';
import { runMain } from './lib/cli';

/** The test profile's ports (packages/testkit/src/infra/infra.ts): FerretDB, AMQP, RabbitMQ management. */
const TEST_PORTS = [27027, 5682, 15682];
/** --isolated-infra: the test profile's ports + 10. */
const ISOLATED = { mongo: 27037, rabbit: { amqp: 5692, management: 15692, dist: 25692 } };

async function waitForFreeTestPorts(): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  for (let said = false; Date.now() < deadline; said = true) {
    const busy = (await Promise.all(TEST_PORTS.map((port) => portOpen(port)))).some(Boolean);
    if (!busy) return;
    if (!said) console.log('[bench] --own-infra: waiting for the test-profile servers of another run to stop');
    await new Promise((r) => setTimeout(r, 2000));
  }
  console.log('[bench] --own-infra: still in use after 10 minutes; reusing them');
}

const isolatedInfraOf = (root: string) =>
  isolatedInfra(join(root, '.local', 'bench', 'infra'), ISOLATED, {
    root,
    rabbitNode: 'rabbit-bench@localhost',
    label: '--isolated-infra',
  });

async function main(): Promise<number> {
  const root = repoRoot();
  const args = process.argv.slice(2);
  const external = !!(process.env.MONGO_URL || process.env.AMQP_URL);
  if (args.includes('--own-infra') && !external) await waitForFreeTestPorts();
  const infra =
    args.includes('--isolated-infra') && !external ? await isolatedInfraOf(root) : await ensureInfra('test');
  console.log(`[bench] infrastructure: ${infra.source}`);
  const tls = ensureTestTls(join(root, '.local', 'test', 'tls'));
  try {
    const benchArgs = args.filter((a) => a !== '--own-infra' && a !== '--isolated-infra');
    const bench = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'bench', 'webhook-dispatch.ts'), ...benchArgs],
      {
        cwd: root,
        stdio: 'inherit',
        // The benchmark and the dispatcher it forks trust the test CA.
        env: { ...process.env, ...testInfraEnv(infra, tls.caFile), BENCH_INFRA_SOURCE: infra.source },
      },
    );
    // Ctrl-C reaches the child too (same process group); wait for it to finish its own clean-up.
    process.on('SIGINT', () => undefined);
    process.on('SIGTERM', () => bench.kill('SIGTERM'));
    return await exitCodeOf(bench);
  } finally {
    await infra.stop();
  }
}

runMain(main);
