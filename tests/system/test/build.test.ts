// What the Helm chart runs: `node dist/migrate.js` (indexes, then exit 0) and `node dist/main.js`
// (the server, contract bundled beside it), built by scripts/build.ts (once per run, in test-run.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { childPorts, createTestEnv, productionLikeEnv, repoRoot, waitReady, type TestEnv } from '@travel/testkit';

const root = repoRoot();
const dist = join(root, 'services', 'webhook-dispatcher', 'dist');

describe('built service', () => {
  let env: TestEnv;
  beforeAll(async () => {
    // scripts/test-run.ts builds every service once per run, before jest starts.
    env = await createTestEnv('build');
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  it('the contract and the changelog lie beside every built service (the gateway serves both)', () => {
    for (const file of ['openapi.yaml', 'changelog.yaml'])
      expect(existsSync(join(root, 'services', 'gateway', 'dist', file))).toBe(true);
  });

  it('migrate.js creates the indexes and exits 0', async () => {
    const run = spawnSync('node', [join(dist, 'migrate.js')], { env: productionLikeEnv(env.vars), encoding: 'utf8' });
    expect(run.status).toBe(0);
    const conn = await mongoose
      .createConnection(env.infra.mongoUrl, { dbName: `${env.dbPrefix}webhook_dispatcher` })
      .asPromise();
    try {
      const indexes = await conn.db!.collection('deliveries').indexes();
      // Keys in order (a deep equality of the key objects would not see it): the unique key goes by event
      // first since decision 0239, and its former order is not built any more.
      const keys = indexes.map((i) => `${Object.keys(i.key).join(',')}${i.unique ? ' unique' : ''}`);
      expect(keys).toContain('tenantId,eventId,subscriptionId unique');
      expect(keys).not.toContain('tenantId,subscriptionId,eventId unique');
    } finally {
      await conn.close();
    }
  });

  it('main.js serves the API with the bundled contract, and stops on SIGTERM', async () => {
    const ports = await childPorts();
    const child = spawn('node', [join(dist, 'main.js')], {
      env: productionLikeEnv({ ...env.vars, ...ports.env }),
      stdio: 'ignore',
    });
    try {
      await waitReady(ports.opsUrl);
      const headers = env.callerHeaders({ tenantId: '33333333-3333-4333-8333-333333333333' });
      const list = await fetch(`${ports.url}/api/v1/webhooks`, { headers });
      expect(list.status).toBe(200);
      const invalid = await fetch(`${ports.url}/api/v1/webhooks?pageSize=0`, { headers });
      expect(invalid.status).toBe(400);
    } finally {
      child.kill('SIGTERM');
    }
    const code = await new Promise((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  });
});
