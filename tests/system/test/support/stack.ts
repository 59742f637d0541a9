import { urlEnv } from '@travel/contracts';
import { join } from 'node:path';
import type { RunningService, StartOptions } from '@travel/platform';
import { startEmployeesService } from '@travel/employees/src/service';
import { createTenant, type CreatedTenant } from '@travel/employees/src/app/tenants';
import { employeesRepositories } from '@travel/employees/src/infra/repositories';
import { startGateway } from '@travel/gateway/src/service';
import { startDispatcher } from '@travel/webhook-dispatcher/src/service';
import { ApiClient, createTestEnv, ensureTestTls, HttpsReceiver, repoRoot, type TestEnv } from '@travel/testkit';
import type { Market } from '@travel/platform';

export interface E2eStack {
  env: TestEnv;
  employees: RunningService;
  dispatcher: RunningService;
  gateway: { url: string; stop(): Promise<void> };
  /** A new tenant through the operator use case, with a client holding its owner's key. */
  tenant(market?: Market): Promise<CreatedTenant & { api: ApiClient }>;
  receiver(): Promise<HttpsReceiver>;
  stop(): Promise<void>;
}

/** Employees, the dispatcher and the gateway in this process, on an isolated vhost and databases. */
export async function startE2eStack(
  name: string,
  overrides: Record<string, string> = {},
  options: {
    dispatcher?: StartOptions;
    /** Variables for the dispatcher only (its own store, say). */
    dispatcherEnv?: Record<string, string>;
  } = {},
): Promise<E2eStack> {
  const env = await createTestEnv(name, overrides);
  const vars = { ...process.env, ...env.vars };
  const employees = await startEmployeesService(vars);
  const dispatcher = await startDispatcher({ ...vars, ...options.dispatcherEnv }, options.dispatcher);
  const gateway = await startGateway({
    ...vars,
    ...urlEnv({ employees: employees.url, 'webhook-dispatcher': dispatcher.url }),
  });
  const receivers: HttpsReceiver[] = [];
  const tls = ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'));
  return {
    env,
    employees,
    dispatcher,
    gateway,
    async tenant(market: Market = 'CZ') {
      const created = await createTenant(employeesRepositories(employees.deps.mongo), {
        name: `Test ${market}`,
        market,
      });
      return { ...created, api: new ApiClient(gateway.url, created.apiKey) };
    },
    async receiver() {
      const r = await new HttpsReceiver(tls).start();
      receivers.push(r);
      return r;
    },
    async stop() {
      await Promise.all(receivers.map((r) => r.stop()));
      await gateway.stop();
      await dispatcher.stop();
      await employees.stop();
      await env.cleanup();
    },
  };
}
