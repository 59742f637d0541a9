// The consumer inbox on the real broker and store (decision 0113): a delivery claims its event before
// handling it, so a redelivered duplicate never runs beside the original; a failure releases the claim;
// a claim left by a process that died expires after its lease.
import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import {
  AmqpClient,
  DOMAIN_EXCHANGE,
  Inbox,
  Metrics,
  TransientError,
  connectMongo,
  createLogger,
  declareDomainExchange,
  raiseUncheckedEvent,
  startConsumer,
  type DomainEvent,
  type RetryPolicy,
} from '@travel/platform';
import { createTestEnv, eventually, type TestEnv } from '@travel/testkit';

const logger = createLogger('inbox-test', 'silent');
const policy: RetryPolicy = { baseMs: 100, maxDelayMs: 400, maxAttempts: 30 };

describe('consumer inbox claims', () => {
  let env: TestEnv;
  let conn: Connection;
  const clients: AmqpClient[] = [];

  beforeAll(async () => {
    env = await createTestEnv('inbox');
    conn = await connectMongo(env.infra.mongoUrl, `${env.dbPrefix}kit`);
  });
  afterAll(async () => {
    for (const c of clients) await c.stop();
    await conn?.close();
    await env?.cleanup();
  });

  /** A consumer process of its own (its own broker connection): a replica. */
  async function replica(
    queue: string,
    handle: (e: DomainEvent) => Promise<void>,
    inbox = new Inbox(conn),
  ): Promise<Metrics> {
    const client = new AmqpClient(env.amqpUrl, logger, `inbox-test-${clients.length}`);
    clients.push(client);
    await client.start();
    await client.onConnect(declareDomainExchange);
    const metrics = new Metrics(`inbox-test-${clients.length}`);
    await startConsumer<DomainEvent>({
      client,
      logger,
      metrics,
      inbox,
      retry: policy,
      // Made-up routing keys: no schema in contracts/events (the platform's own test).
      validateEvents: false,
      queue: { name: queue, bindings: [`${queue}.*`] },
      handle,
    });
    return metrics;
  }

  /** Publishes the event as a relay would; twice models a relay that crashed after publishing. */
  async function publish(queue: string, event: DomainEvent): Promise<void> {
    const client = clients[clients.length - 1]!;
    await client.publish(DOMAIN_EXCHANGE, `${queue}.thing`, Buffer.from(JSON.stringify(event)), {
      messageId: event.id,
    });
  }

  async function count(metrics: Metrics[], outcome: string): Promise<number> {
    let n = 0;
    for (const m of metrics) {
      const values = (await m.registry.getSingleMetric('amqp_messages_handled_total')!.get()).values;
      n += values.filter((v) => v.labels.outcome === outcome).reduce((sum, v) => sum + v.value, 0);
    }
    return n;
  }

  it('two concurrent deliveries of one event: the handler runs once, never beside itself', async () => {
    const queue = 'kit.inbox.twice';
    let calls = 0;
    let running = 0;
    let mostAtOnce = 0;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const handle = async () => {
      calls++;
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await released;
      running--;
    };
    const metrics = [await replica(queue, handle), await replica(queue, handle)];
    const event = raiseUncheckedEvent('kit', 'thing.created', 'tenant-1', { n: 1 });
    await publish(queue, event);
    await publish(queue, event);

    // While the first delivery is in its handler, the second one is put back to wait (or, without a
    // claim, runs the handler too).
    await eventually(async () => calls >= 2 || (calls === 1 && (await count(metrics, 'retry')) >= 1), 10_000);
    expect(calls).toBe(1);

    release();
    await eventually(async () => (await count(metrics, 'duplicate')) >= 1, 10_000);
    expect(calls).toBe(1);
    expect(mostAtOnce).toBe(1);
    expect(await count(metrics, 'ok')).toBe(1);
  });

  it('a handler failure releases the claim: the redelivery handles the event', async () => {
    const queue = 'kit.inbox.fails';
    const attempts: string[] = [];
    const metrics = await replica(queue, async (e) => {
      attempts.push(e.id);
      if (attempts.length === 1) throw new TransientError('store briefly away');
    });
    const event = raiseUncheckedEvent('kit', 'thing.created', 'tenant-1', { n: 2 });
    await publish(queue, event);
    await eventually(async () => (await count([metrics], 'ok')) === 1, 10_000);
    expect(attempts).toEqual([event.id, event.id]);
    // Done now: a later duplicate is a no-op.
    await publish(queue, event);
    await eventually(async () => (await count([metrics], 'duplicate')) === 1, 10_000);
    expect(attempts).toHaveLength(2);
  });

  it('a claim left by a process that died does not block the event beyond its lease', async () => {
    const queue = 'kit.inbox.crashed';
    const leaseMs = 1000;
    const inbox = new Inbox(conn, leaseMs);
    const event = raiseUncheckedEvent('kit', 'thing.created', 'tenant-1', { n: 3 });
    // A process claimed the event and died before finishing it.
    const claimedAt = Date.now();
    expect((await inbox.claim(queue, event.id)).kind).toBe('claimed');

    const handledAt: number[] = [];
    await replica(queue, async () => void handledAt.push(Date.now()), inbox);
    await publish(queue, event);
    await eventually(async () => handledAt.length >= 1, 15_000);
    expect(handledAt).toHaveLength(1);
    expect(handledAt[0]! - claimedAt).toBeGreaterThanOrEqual(leaseMs);
  });

  it('claims one event once among many concurrent claimants', async () => {
    const inbox = new Inbox(conn);
    const eventId = randomUUID();
    const claims = await Promise.all(Array.from({ length: 8 }, () => inbox.claim('kit.inbox.race', eventId)));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'busy')).toHaveLength(7);
  });
});
