import { urlEnv } from '@travel/contracts';
import { join } from 'node:path';
import type { Market, RunningService } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { start as startEntries } from '@travel/entries/src/service';
import { start as startFleet } from '@travel/fleet/src/service';
import { start as startGateway } from '@travel/gateway/src/service';
import { start as startPayouts } from '@travel/payouts/src/service';
import { start as startReferenceFx } from '@travel/reference-fx/src/service';
import { start as startDispatcher } from '@travel/webhook-dispatcher/src/service';
import { createTestEnv, HttpsReceiver, repoRoot, SmtpSink, type TestEnv } from '@travel/testkit';
import { receiverPool, tenantMaker, type TestTenant } from './stack-parts';

export interface FullStack {
  env: TestEnv;
  employees: RunningService;
  gateway: { url: string; stop(): Promise<void> };
  /** The environment the services were started with, and each one's URL: for a second replica. */
  vars: Record<string, string | undefined>;
  upstreams: Record<string, string>;
  tenant(market?: Market): Promise<TestTenant>;
  receiver(): Promise<HttpsReceiver>;
  stop(): Promise<void>;
}

/**
 * Every service of the API behind the gateway, in this process, on an isolated vhost and databases: what
 * a client sees at /api/v1 (the API fuzz, tests/fuzz). Reference-fx serves the recorded provider feeds.
 */
export async function startFullStack(name: string, overrides: Record<string, string> = {}): Promise<FullStack> {
  const env = await createTestEnv(name, { RATE_LIMIT_BURST: '5000', API_KEY_CACHE_MS: '0', ...overrides });
  const vars = { ...process.env, ...env.vars };
  const smtp = await new SmtpSink().start();
  const employees = await startEmployees(vars);
  const referenceFx = await startReferenceFx({
    ...vars,
    FX_SEED_DIR: join(repoRoot(), 'services', 'reference-fx', 'test', 'fixtures', 'feeds'),
  });
  const fleet = await startFleet({ SMTP_URL: smtp.url, ...vars, ...urlEnv({ employees: employees.url }) });
  const entries = await startEntries({
    ...vars,
    ...urlEnv({ employees: employees.url, 'reference-fx': referenceFx.url, fleet: fleet.url }),
  });
  const payouts = await startPayouts({
    ...vars,
    ...urlEnv({ entries: entries.url, employees: employees.url }),
  });
  const dispatcher = await startDispatcher(vars);
  const upstreams = {
    employees: employees.url,
    'reference-fx': referenceFx.url,
    fleet: fleet.url,
    entries: entries.url,
    payouts: payouts.url,
    'webhook-dispatcher': dispatcher.url,
  };
  const gateway = await startGateway({ ...vars, ...urlEnv(upstreams) });
  const receivers = receiverPool();
  return {
    env,
    employees,
    gateway,
    vars,
    upstreams,
    tenant: tenantMaker(employees, gateway, 'Fuzz', 'CZ'),
    receiver: receivers.receiver,
    async stop() {
      await receivers.stopAll();
      await gateway.stop();
      for (const service of [dispatcher, payouts, entries, fleet, referenceFx, employees]) await service.stop();
      await smtp.stop();
      await env.cleanup();
    },
  };
}
