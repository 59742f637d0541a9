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
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startFerretDb } from '../packages/testkit/src/infra/ferretdb';
import { ensureInfra, exitCodeOf, repoRoot, testInfraEnv, type Infra } from '../packages/testkit/src/infra/infra';
import type { ManagedProcess } from '../packages/testkit/src/infra/processes';
import { startRabbitMq } from '../packages/testkit/src/infra/rabbitmq';
import { portOpen } from '../packages/testkit/src/infra/wait';
import { ensureTestTls } from '../packages/testkit/src/tls';

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

async function isolatedInfra(root: string): Promise<Infra> {
  const stateDir = join(root, '.local', 'bench', 'infra');
  const busy = await Promise.all(
    [ISOLATED.mongo, ISOLATED.rabbit.amqp, ISOLATED.rabbit.management].map((p) => portOpen(p)),
  );
  if (busy.some(Boolean))
    throw new Error(
      `--isolated-infra: ports ${ISOLATED.mongo}/${ISOLATED.rabbit.amqp}/${ISOLATED.rabbit.management} are in use (another benchmark?)`,
    );
  // A clean store each time: nothing left over from an interrupted run.
  rmSync(join(stateDir, 'ferretdb'), { recursive: true, force: true });
  const started: ManagedProcess[] = [];
  try {
    console.log(`[infra] starting FerretDB (SQLite) on 127.0.0.1:${ISOLATED.mongo} for the benchmark only`);
    started.push(await startFerretDb(root, stateDir, ISOLATED.mongo));
    console.log(
      `[infra] starting RabbitMQ on 127.0.0.1:${ISOLATED.rabbit.amqp} (management :${ISOLATED.rabbit.management}) for the benchmark only`,
    );
    started.push(await startRabbitMq(stateDir, 'rabbit-bench@localhost', ISOLATED.rabbit));
  } catch (err) {
    for (const p of started.reverse()) await p.stop();
    throw err;
  }
  return {
    mongoUrl: `mongodb://127.0.0.1:${ISOLATED.mongo}`,
    amqpUrl: `amqp://guest:guest@127.0.0.1:${ISOLATED.rabbit.amqp}`,
    managementUrl: `http://127.0.0.1:${ISOLATED.rabbit.management}`,
    source: 'FerretDB and RabbitMQ started for this run only (--isolated-infra)',
    async stop() {
      for (const p of started.reverse()) await p.stop();
    },
  };
}

async function main(): Promise<number> {
  const root = repoRoot();
  const args = process.argv.slice(2);
  const external = !!(process.env.MONGO_URL || process.env.AMQP_URL);
  if (args.includes('--own-infra') && !external) await waitForFreeTestPorts();
  const infra = args.includes('--isolated-infra') && !external ? await isolatedInfra(root) : await ensureInfra('test');
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

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
