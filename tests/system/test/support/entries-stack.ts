import { urlEnv } from '@travel/contracts';
import { join } from 'node:path';
import type { Market, RunningService } from '@travel/platform';
import { startEmployeesService } from '@travel/employees/src/service';
import { createTenant, type CreatedTenant } from '@travel/employees/src/app/tenants';
import { employeesRepositories } from '@travel/employees/src/infra/repositories';
import { startEntriesService } from '@travel/entries/src/service';
import { startFleetService } from '@travel/fleet/src/service';
import { startGateway } from '@travel/gateway/src/service';
import { start as startReferenceFx } from '@travel/reference-fx/src/service';
import { startDispatcher } from '@travel/webhook-dispatcher/src/service';
import { ApiClient, createTestEnv, ensureTestTls, HttpsReceiver, repoRoot, type TestEnv } from '@travel/testkit';

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
  tenant(market?: Market): Promise<CreatedTenant & { api: ApiClient }>;
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
  const employees = await startEmployeesService(vars);
  // The recorded provider feeds (2026-10-26 to 2026-11-20): real HNB, ECB, CNB and NBP rates.
  const referenceFx = await startReferenceFx({
    ...vars,
    FX_SEED_DIR: join(repoRoot(), 'services', 'reference-fx', 'test', 'fixtures', 'feeds'),
  });
  const fleet = options.fleet
    ? await startFleetService({ ...vars, ...urlEnv({ employees: employees.url }) })
    : undefined;
  const entries = await startEntriesService({
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
      'webhook-dispatcher': dispatcher.url,
    }),
  });
  const receivers: HttpsReceiver[] = [];
  const tls = ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'));
  return {
    env,
    employees,
    entries,
    referenceFx,
    fleet,
    dispatcher,
    gateway,
    async tenant(market: Market = 'CZ') {
      const created = await createTenant(employeesRepositories(employees.deps.mongo), {
        name: `Entries ${market}`,
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
      await entries.stop();
      await fleet?.stop();
      await referenceFx.stop();
      await employees.stop();
      await env.cleanup();
    },
  };
}
