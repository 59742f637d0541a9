import { urlEnv } from '@travel/contracts';
import type { RunningService, StartOptions } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { start as startGateway } from '@travel/gateway/src/service';
import { start as startDispatcher } from '@travel/webhook-dispatcher/src/service';
import { createTestEnv, HttpsReceiver, type TestEnv } from '@travel/testkit';
import type { Market } from '@travel/platform';
import { receiverPool, tenantMaker, type TestTenant } from './stack-parts';

export interface E2eStack {
  env: TestEnv;
  employees: RunningService;
  dispatcher: RunningService;
  gateway: { url: string; opsUrl: string; stop(): Promise<void> };
  /** A new tenant through the operator use case, with a client holding its owner's key. */
  tenant(market?: Market): Promise<TestTenant>;
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
  const employees = await startEmployees(vars);
  // The dispatcher asks employees for the account owners a webhook health notice goes to (0229).
  const dispatcher = await startDispatcher(
    { ...vars, ...urlEnv({ employees: employees.url }), ...options.dispatcherEnv },
    options.dispatcher,
  );
  const gateway = await startGateway({
    ...vars,
    ...urlEnv({ employees: employees.url, 'webhook-dispatcher': dispatcher.url }),
  });
  const receivers = receiverPool();
  return {
    env,
    employees,
    dispatcher,
    gateway,
    tenant: tenantMaker(employees, gateway, 'Test', 'CZ'),
    receiver: receivers.receiver,
    async stop() {
      await receivers.stopAll();
      await gateway.stop();
      await dispatcher.stop();
      await employees.stop();
      await env.cleanup();
    },
  };
}
