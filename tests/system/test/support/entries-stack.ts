import { urlEnv } from '@travel/contracts';
import { join } from 'node:path';
import type { Market, RunningService } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { start as startEntries } from '@travel/entries/src/service';
import { start as startFleet } from '@travel/fleet/src/service';
import { start as startGateway } from '@travel/gateway/src/service';
import { start as startReferenceFx } from '@travel/reference-fx/src/service';
import { start as startDispatcher } from '@travel/webhook-dispatcher/src/service';
import { createTestEnv, HttpsReceiver, repoRoot, type TestEnv } from '@travel/testkit';
import { receiverPool, tenantMaker, type TestTenant } from './stack-parts';

export interface EntriesStack {
  env: TestEnv;
  employees: RunningService;
  entries: RunningService;
  referenceFx: RunningService;
  /** Only with `{ fleet: true }`. */
  fleet?: RunningService;
  dispatcher: RunningService;
  gateway: { url: string; stop(): Promise<void> };
  /** A new tenant through the operator use case, with a client holding its owner's key. */
  tenant(market?: Market): Promise<TestTenant>;
  receiver(): Promise<HttpsReceiver>;
  stop(): Promise<void>;
}

/** Employees, reference-fx (seeded feeds), entries, the webhook dispatcher and the gateway in this process, on an isolated vhost and databases. */
export async function startEntriesStack(
  name: string,
  overrides: Record<string, string> = {},
  options: { fleet?: boolean } = {},
): Promise<EntriesStack> {
  const env = await createTestEnv(name, { RATE_LIMIT_BURST: '5000', API_KEY_CACHE_MS: '0', ...overrides });
  const vars = { ...process.env, ...env.vars };
  const employees = await startEmployees(vars);
  // The recorded provider feeds (2026-10-26 to 2026-11-20): real HNB, ECB, CNB and NBP rates.
  const referenceFx = await startReferenceFx({
    ...vars,
    FX_SEED_DIR: join(repoRoot(), 'services', 'reference-fx', 'test', 'fixtures', 'feeds'),
  });
  const fleet = options.fleet ? await startFleet({ ...vars, ...urlEnv({ employees: employees.url }) }) : undefined;
  const entries = await startEntries({
    ...vars,
    ...urlEnv({ employees: employees.url, 'reference-fx': referenceFx.url, fleet: fleet?.url }),
  });
  const dispatcher = await startDispatcher(vars);
  const gateway = await startGateway({
    ...vars,
    ...urlEnv({
      employees: employees.url,
      entries: entries.url,
      fleet: fleet?.url,
      // The company per-diem policy (/api/v1/per-diem-policy) lives in reference-fx.
      'reference-fx': referenceFx.url,
      'webhook-dispatcher': dispatcher.url,
    }),
  });
  const receivers = receiverPool();
  return {
    env,
    employees,
    entries,
    referenceFx,
    fleet,
    dispatcher,
    gateway,
    tenant: tenantMaker(employees, gateway, 'Entries', 'CZ'),
    receiver: receivers.receiver,
    async stop() {
      await receivers.stopAll();
      await gateway.stop();
      await dispatcher.stop();
      await entries.stop();
      await fleet?.stop();
      await referenceFx.stop();
      await employees.stop();
      await env.cleanup();
    },
  };
}
