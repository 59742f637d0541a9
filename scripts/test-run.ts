// Starts the test infrastructure once, runs jest with it, and stops what it started.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureInfra, exitCodeOf, repoRoot, testInfraEnv } from '../packages/testkit/src/infra/infra';
import { ensureTestTls } from '../packages/testkit/src/tls';

async function main(): Promise<number> {
  const root = repoRoot();
  const infra = await ensureInfra('test');
  console.log(`[test] infrastructure: ${infra.source}`);
  const tls = ensureTestTls(join(root, '.local', 'test', 'tls'));
  // Tests run the built artifacts too (what the chart runs): build every service once, before any test.
  const built = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'scripts', 'build.ts')], {
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('build failed');
  try {
    const jest = spawn(join(root, 'node_modules', '.bin', 'jest'), ['--ci', ...process.argv.slice(2)], {
      stdio: 'inherit',
      // Every jest worker (and every dispatcher in it) trusts the test CA.
      env: { ...process.env, ...testInfraEnv(infra, tls.caFile) },
    });
    return await exitCodeOf(jest);
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
