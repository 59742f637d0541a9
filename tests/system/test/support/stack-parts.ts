import { join } from 'node:path';
import type { Market, RunningService } from '@travel/platform';
import { createTenant, type CreatedTenant } from '@travel/employees/src/app/tenants';
import { employeesRepositories } from '@travel/employees/src/infra/repositories';
import { createTravelClient, type TravelClient } from '@travel/client';
import { ApiClient, ensureTestTls, HttpsReceiver, repoRoot } from '@travel/testkit';

/**
 * `client` is the typed client partners use (packages/client); `api` the raw one, for what the contract
 * forbids (bad bodies, wrong types) and for bytes.
 */
export type TestTenant = CreatedTenant & { api: ApiClient; client: TravelClient };

/** A new company of the market, with API clients through the gateway on its account owner's key. */
export const tenantMaker =
  (employees: RunningService, gateway: { url: string }, label: string, defaultMarket: Market = 'CZ') =>
  async (market: Market = defaultMarket): Promise<TestTenant> => {
    const created = await createTenant(employeesRepositories(employees.deps.mongo), {
      name: `${label} ${market}`,
      market,
    });
    return {
      ...created,
      api: new ApiClient(gateway.url, created.apiKey),
      client: createTravelClient({ baseUrl: gateway.url, apiKey: created.apiKey }),
    };
  };

/** HTTPS receivers of the local test CA, stopped together with the stack. */
export function receiverPool(): { receiver(): Promise<HttpsReceiver>; stopAll(): Promise<void> } {
  const receivers: HttpsReceiver[] = [];
  const tls = ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'));
  return {
    async receiver() {
      const r = await new HttpsReceiver(tls).start();
      receivers.push(r);
      return r;
    },
    async stopAll() {
      await Promise.all(receivers.map((r) => r.stop()));
    },
  };
}
