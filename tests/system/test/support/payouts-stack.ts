import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Market, RunningService } from '@travel/platform';
import { start as startEmployees } from '@travel/employees/src/service';
import { start as startEntries } from '@travel/entries/src/service';
import { start as startGateway } from '@travel/gateway/src/service';
import { start as startPayouts, type PayoutsStartOptions } from '@travel/payouts/src/service';
import type { EntryMarks } from '@travel/payouts/src/app/ports';
import { start as startReferenceFx } from '@travel/reference-fx/src/service';
import { start as startDispatcher } from '@travel/webhook-dispatcher/src/service';
import { createTestEnv, HttpsReceiver, repoRoot, type TestEnv } from '@travel/testkit';
import { receiverPool, tenantMaker, type TestTenant } from './stack-parts';

export interface PayoutsStack {
  env: TestEnv;
  employees: RunningService;
  entries: RunningService;
  payouts: RunningService;
  gateway: { url: string; stop(): Promise<void> };
  tenant(market?: Market): Promise<TestTenant>;
  receiver(): Promise<HttpsReceiver>;
  /** Stops payouts and starts it again on the same port (a crash seam, other settings). */
  restartPayouts(options?: PayoutsStartOptions, env?: Record<string, string>): Promise<RunningService>;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Employees, reference-fx, entries, payouts, the dispatcher and the gateway in this process, on real infrastructure. */
export async function startPayoutsStack(name: string, overrides: Record<string, string> = {}): Promise<PayoutsStack> {
  const env = await createTestEnv(name, { RATE_LIMIT_BURST: '5000', API_KEY_CACHE_MS: '0', ...overrides });
  const vars = { ...process.env, ...env.vars };
  const employees = await startEmployees(vars);
  const referenceFx = await startReferenceFx({
    ...vars,
    FX_SEED_DIR: join(repoRoot(), 'services', 'reference-fx', 'test', 'fixtures', 'feeds'),
  });
  const entries = await startEntries({
    ...vars,
    EMPLOYEES_URL: employees.url,
    REFERENCE_FX_URL: referenceFx.url,
  });
  const payoutsPort = await freePort();
  const payoutsVars = {
    ...vars,
    PORT: String(payoutsPort),
    ENTRIES_URL: entries.url,
    EMPLOYEES_URL: employees.url,
    // The recovery job runs at start; tests that crash a create restart payouts with a grace of 0.
    PAYOUT_RECOVERY_INTERVAL_MS: '3600000',
  };
  let payouts = await startPayouts(payoutsVars);
  const dispatcher = await startDispatcher(vars);
  const gateway = await startGateway({
    ...vars,
    EMPLOYEES_URL: employees.url,
    ENTRIES_URL: entries.url,
    PAYOUTS_URL: payouts.url,
    WEBHOOK_DISPATCHER_URL: dispatcher.url,
  });
  const receivers = receiverPool();
  const stack: PayoutsStack = {
    env,
    employees,
    entries,
    payouts,
    gateway,
    tenant: tenantMaker(employees, gateway, 'Payouts', 'CZ'),
    receiver: receivers.receiver,
    async restartPayouts(options = {}, extra = {}) {
      await payouts.stop();
      payouts = await startPayouts({ ...payoutsVars, ...extra }, options);
      stack.payouts = payouts;
      return payouts;
    },
    async stop() {
      await receivers.stopAll();
      await gateway.stop();
      await dispatcher.stop();
      await payouts.stop();
      await entries.stop();
      await referenceFx.stop();
      await employees.stop();
      await env.cleanup();
    },
  };
  return stack;
}

/**
 * The entries client of a payouts process that stops at a point of a batch create (docs/decisions/0075):
 * `afterReserve`, once entries reserved every entry of the batch; `midCommit`, once entries marked the
 * first of them paid out. The answer is lost there, as when the process dies: nothing after it runs for the batch.
 */
export function stopsAt(point: 'afterReserve' | 'midCommit'): PayoutsStartOptions {
  return {
    entryMarks: (real: EntryMarks): EntryMarks => ({
      async run(step, tenantId, batchId, ids, reservedUntil) {
        if (point === 'afterReserve' && step === 'reserve') {
          // Where the create would go on: every entry reserved (a refused one is answered as usual).
          const marks = await real.run(step, tenantId, batchId, ids, reservedUntil);
          if (marks.every((m) => m.ok)) throw new Error('payouts stopped after the reservation');
          return marks;
        }
        if (point === 'midCommit' && step === 'commit') {
          await real.run(step, tenantId, batchId, ids.slice(0, 1), reservedUntil);
          throw new Error('payouts stopped in the middle of the commit');
        }
        return real.run(step, tenantId, batchId, ids, reservedUntil);
      },
    }),
  };
}
