import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { DOMAIN_EXCHANGE, type DomainEvent, type RunningService } from '@travel/platform';
import { verify } from '@travel/webhook-verify';
import {
  createTestEnv,
  ensureTestTls,
  eventually,
  HttpsReceiver,
  repoRoot,
  type ReceivedRequest,
  type TestEnv,
} from '@travel/testkit';
import { start as startDispatcher, type DispatcherOptions } from '../../src/service';

export interface Harness {
  env: TestEnv;
  dispatcher: RunningService;
  tenantId: string;
  /** Calls the dispatcher's API as a caller of `tenantId` (what the gateway would send). */
  api(method: string, path: string, body?: unknown, tenantId?: string): Promise<{ status: number; body: any }>;
  register(url: string, eventTypes?: string[], tenantId?: string): Promise<{ id: string; signingSecret: string }>;
  /** Publishes a domain event as the employees service's relay would. */
  publish(overrides?: Partial<DomainEvent>): Promise<DomainEvent>;
  receiver(): Promise<HttpsReceiver>;
  deliveries(subscriptionId: string, query?: string): Promise<any[]>;
  /** Waits until the subscription's deliveries satisfy `done` (all of them, by default: none Pending). */
  settled(subscriptionId: string, count: number, timeoutMs?: number): Promise<any[]>;
  stop(): Promise<void>;
}

import { employeeEvent } from '@travel/testkit';

export { employeeEvent };

/** Asserts a received POST is correctly signed for `secret`, and returns its verified envelope. */
export function verified(req: ReceivedRequest, secret: string) {
  return verify(req.body, req.headers as Record<string, string>, secret);
}

export async function startHarness(
  name: string,
  overrides: Record<string, string> = {},
  options: DispatcherOptions = {},
): Promise<Harness> {
  const env = await createTestEnv(name, overrides);
  const dispatcher = await startDispatcher({ ...process.env, ...env.vars }, options);
  const conn: ChannelModel = await amqp.connect(env.amqpUrl);
  const ch: Channel = await conn.createConfirmChannel();
  await ch.assertExchange(DOMAIN_EXCHANGE, 'topic', { durable: true });
  const tls = ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'));
  const receivers: HttpsReceiver[] = [];
  const tenantId = randomUUID();

  const harness: Harness = {
    env,
    dispatcher,
    tenantId,
    async api(method, path, body, tenant = tenantId) {
      const res = await fetch(`${dispatcher.url}${path}`, {
        method,
        headers: env.callerHeaders({ tenantId: tenant, permissions: ['ManageCompanyData'] }),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async register(url, eventTypes = ['employee.created'], tenant = tenantId) {
      const res = await harness.api('POST', '/api/v1/webhooks', { url, eventTypes }, tenant);
      if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async publish(overrides = {}) {
      const event = { ...employeeEvent(tenantId), ...overrides };
      ch.publish(DOMAIN_EXCHANGE, `employees.${event.type}`, Buffer.from(JSON.stringify(event)), {
        persistent: true,
        messageId: event.id,
      });
      await (ch as unknown as { waitForConfirms(): Promise<void> }).waitForConfirms();
      return event;
    },
    async receiver() {
      const r = await new HttpsReceiver(tls).start();
      receivers.push(r);
      return r;
    },
    async deliveries(subscriptionId, query = '') {
      const res = await harness.api('GET', `/api/v1/webhooks/${subscriptionId}/deliveries?pageSize=100${query}`);
      return res.body.items;
    },
    async settled(subscriptionId, count, timeoutMs = 20_000) {
      return eventually(async () => {
        const items = await harness.deliveries(subscriptionId);
        return items.length >= count && items.every((d: any) => d.status !== 'Pending') ? items : undefined;
      }, timeoutMs);
    },
    async stop() {
      await Promise.all(receivers.map((r) => r.stop()));
      await conn.close().catch(() => undefined);
      await dispatcher.stop();
      await env.cleanup();
    },
  };
  return harness;
}
