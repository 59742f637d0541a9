// What the API benchmarks (api-reads, key-flood) run on: the test profile's broker (a vhost of its own),
// a FerretDB of the run's own with a clean data directory, the test CA, and a test env whose per-key rate
// limit is out of the way. stop() removes the vhost, the store and its data.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startFerretDb } from '../../packages/testkit/src/infra/ferretdb';
import { deleteVhost, ensureInfra, testInfraEnv } from '../../packages/testkit/src/infra/infra';
import { freePort } from '../../packages/testkit/src/processes';
import { createTestEnv, type TestEnv } from '../../packages/testkit/src/env';
import { ensureTestTls } from '../../packages/testkit/src/tls';

export interface ApiBenchEnv {
  env: TestEnv;
  /** process.env with the test env's variables: what the benchmark's children start with. */
  vars: NodeJS.ProcessEnv;
  /** The run's own FerretDB's port (its CPU is measured by the process listening on it). */
  storePort: number;
  stop(): Promise<void>;
}

export async function startApiBenchEnv(root: string, stateDir: string, name: string, logLevel: string) {
  const infra = await ensureInfra('test');
  const tls = ensureTestTls(join(root, '.local', 'test', 'tls'));
  Object.assign(process.env, testInfraEnv(infra, tls.caFile));
  rmSync(join(stateDir, 'ferretdb'), { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  const port = await freePort();
  const ferret = await startFerretDb(root, stateDir, port);
  const env = await createTestEnv(name, {
    MONGO_URL: `mongodb://127.0.0.1:${port}`,
    RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_BURST: '100000000',
    VALIDATE_RESPONSES: 'false',
    LOG_LEVEL: logLevel,
  });
  return {
    env,
    vars: { ...process.env, ...env.vars },
    storePort: port,
    async stop() {
      await deleteVhost(infra, env.vhost).catch(() => undefined);
      await ferret.stop();
      rmSync(join(stateDir, 'ferretdb'), { recursive: true, force: true });
    },
  } satisfies ApiBenchEnv;
}
