import { urlEnv } from '@travel/contracts';
import type { RunningService } from '@travel/platform';
import type { Market } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { type CreatedTenant } from '@travel/employees/src/app/tenants';
import { start as startFleet } from '@travel/fleet/src/service';
import { start as startGateway } from '@travel/gateway/src/service';
import { ApiClient, createTestEnv, SmtpSink, type TestEnv } from '@travel/testkit';
import { tenantMaker } from './stack-parts';

export interface FleetStack {
  env: TestEnv;
  employees: RunningService;
  fleet: RunningService;
  gateway: { url: string; stop(): Promise<void> };
  /** Receives the reminder e-mails (fleet's SMTP_URL). */
  smtp: SmtpSink;
  /** A new tenant through the operator use case, with a client holding its owner's key. */
  tenant(market?: Market): Promise<CreatedTenant & { api: ApiClient }>;
  stop(): Promise<void>;
}

/** Employees, fleet and the gateway in this process, on an isolated vhost and databases. */
export async function startFleetStack(name: string, overrides: Record<string, string> = {}): Promise<FleetStack> {
  const env = await createTestEnv(name, { RATE_LIMIT_BURST: '5000', API_KEY_CACHE_MS: '0', ...overrides });
  const vars = { ...process.env, ...env.vars };
  const smtp = await new SmtpSink().start();
  const employees = await startEmployees(vars);
  const fleet = await startFleet({ SMTP_URL: smtp.url, ...vars, ...urlEnv({ employees: employees.url }) });
  const gateway = await startGateway({ ...vars, ...urlEnv({ employees: employees.url, fleet: fleet.url }) });
  return {
    env,
    employees,
    fleet,
    gateway,
    smtp,
    tenant: tenantMaker(employees, gateway, 'Fleet', 'HR'),
    async stop() {
      await gateway.stop();
      await fleet.stop();
      await employees.stop();
      await smtp.stop();
      await env.cleanup();
    },
  };
}
