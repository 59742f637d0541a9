import { urlEnv } from '@travel/contracts';
import type { RunningService } from '@travel/platform';
import type { Market } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { type CreatedTenant } from '@travel/employees/src/app/tenants';
import { start as startGateway } from '@travel/gateway/src/service';
import { start as startReferenceFx } from '@travel/reference-fx/src/service';
import { ApiClient, createTestEnv, type TestEnv } from '@travel/testkit';
import { tenantMaker } from './stack-parts';

export interface ReferenceStack {
  env: TestEnv;
  employees: RunningService;
  referenceFx: RunningService;
  gateway: { url: string; stop(): Promise<void> };
  /** A new tenant through the operator use case, with a client holding its owner's key. */
  tenant(market?: Market): Promise<CreatedTenant & { api: ApiClient }>;
  stop(): Promise<void>;
}

/** Employees (keys, tenants), reference-fx and the gateway in this process, on an isolated vhost and databases. */
export async function startReferenceStack(name: string): Promise<ReferenceStack> {
  const env = await createTestEnv(name);
  const vars = { ...process.env, ...env.vars };
  const employees = await startEmployees(vars);
  const referenceFx = await startReferenceFx(vars);
  const gateway = await startGateway({
    ...vars,
    ...urlEnv({ employees: employees.url, 'reference-fx': referenceFx.url }),
  });
  return {
    env,
    employees,
    referenceFx,
    gateway,
    tenant: tenantMaker(employees, gateway, 'Test', 'CZ'),
    async stop() {
      await gateway.stop();
      await referenceFx.stop();
      await employees.stop();
      await env.cleanup();
    },
  };
}
