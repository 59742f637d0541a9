import { urlEnv } from '@travel/contracts';
import { join } from 'node:path';
import type { Market, RunningService } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { type CreatedTenant } from '@travel/employees/src/app/tenants';
import { start as startEntries } from '@travel/entries/src/service';
import { start as startGateway } from '@travel/gateway/src/service';
import { start as startReferenceFx } from '@travel/reference-fx/src/service';
import { ApiClient, createTestEnv, repoRoot, type TestEnv } from '@travel/testkit';
import { tenantMaker } from './stack-parts';

export interface PerDiemStack {
  env: TestEnv;
  employees: RunningService;
  referenceFx: RunningService;
  entries: RunningService;
  gateway: { url: string; stop(): Promise<void> };
  tenant(market: Market): Promise<CreatedTenant & { api: ApiClient }>;
  stop(): Promise<void>;
}

/**
 * The per-diem calculator's stack in this process: employees (keys, residency), reference-fx seeded with
 * the recorded feeds (2026-10-26..2026-11-20), entries and the gateway, on an isolated vhost and databases.
 */
export async function startPerDiemStack(name: string): Promise<PerDiemStack> {
  const env = await createTestEnv(name);
  const vars = { ...process.env, ...env.vars };
  const employees = await startEmployees(vars);
  const referenceFx = await startReferenceFx({
    ...vars,
    FX_SEED_DIR: join(repoRoot(), 'services', 'reference-fx', 'test', 'fixtures', 'feeds'),
  });
  const entries = await startEntries({
    ...vars,
    ...urlEnv({ employees: employees.url, 'reference-fx': referenceFx.url }),
  });
  const gateway = await startGateway({
    ...vars,
    ...urlEnv({ employees: employees.url, 'reference-fx': referenceFx.url, entries: entries.url }),
  });
  return {
    env,
    employees,
    referenceFx,
    entries,
    gateway,
    tenant: tenantMaker(employees, gateway, 'Test', 'CZ'),
    async stop() {
      await gateway.stop();
      await entries.stop();
      await referenceFx.stop();
      await employees.stop();
      await env.cleanup();
    },
  };
}
