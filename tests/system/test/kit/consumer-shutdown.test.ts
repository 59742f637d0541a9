// A consumer's part of a graceful shutdown on the real broker (decision 0216): it takes no new work, the
// message it is handling finishes and is acknowledged, and one it still holds when the grace runs out goes
// back to the queue, to the other replica, unacknowledged: given back, never lost.
import {
  AmqpClient,
  DOMAIN_EXCHANGE,
  Metrics,
  createLogger,
  declareDomainExchange,
  raiseUncheckedEvent,
  startConsumer,
  stopConsumers,
  type DomainEvent,
} from '@travel/platform';
import { createTestEnv, eventually, type TestEnv } from '@travel/testkit';

const logger = createLogger('consumer-shutdown-test', 'silent');

describe('a consumer that shuts down', () => {
  let env: TestEnv;
  const clients: AmqpClient[] = [];

  beforeAll(async () => {
    env = await createTestEnv('consumer-shutdown');
  });
  afterAll(async () => {
    for (const c of clients) await c.stop();
    await env?.cleanup();
  });

  /** A replica: its own connection and consumer, recording the event ids its handler finished. */
  async function replica(queue: string, handle: (e: DomainEvent) => Promise<void> = async () => undefined) {
    const client = new AmqpClient(env.amqpUrl, logger, `shutdown-test-${clients.length}`);
    clients.push(client);
    await client.start();
    await client.onConnect(declareDomainExchange);
    const done: string[] = [];
    await startConsumer<DomainEvent>({
      client,
      logger,
      metrics: new Metrics(`shutdown-test-${clients.length}`),
      // Made-up routing keys: no schema in contracts/events (the platform's own test).
      validateEvents: false,
      queue: { name: queue, bindings: [`${queue}.*`] },
      handle: async (e) => {
        await handle(e);
        done.push(e.id);
      },
    });
    return { client, done };
  }

  async function publish(queue: string, n: number): Promise<DomainEvent> {
    const event = raiseUncheckedEvent('kit', 'thing.created', 'tenant-1', { n });
    await clients[0]!.publish(DOMAIN_EXCHANGE, `${queue}.thing`, Buffer.from(JSON.stringify(event)), {
      messageId: event.id,
    });
    return event;
  }

  it('finishes the message it is handling, then takes no new one', async () => {
    const queue = 'kit.shutdown.finish';
    let started!: () => void;
    const handling = new Promise<void>((resolve) => (started = resolve));
    const a = await replica(queue, async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    const inFlight = await publish(queue, 1);
    await handling;
    const b = await replica(queue);

    const stopped = stopConsumers(a.client, 3_000);
    // Published while A drains: B, which keeps consuming, takes it.
    const later = await publish(queue, 2);
    await stopped;
    // The stop waited for the handler: done and acknowledged by A, so never redelivered to B.
    expect(a.done).toEqual([inFlight.id]);
    await eventually(async () => b.done.includes(later.id), 10_000);
    const marker = await publish(queue, 3);
    await eventually(async () => b.done.includes(marker.id), 10_000);
    expect(b.done).toEqual([later.id, marker.id]);
    expect(a.done).toEqual([inFlight.id]);
  });

  it('gives back a message still held when the grace runs out: the other replica handles it', async () => {
    const queue = 'kit.shutdown.handover';
    let started!: () => void;
    const handling = new Promise<void>((resolve) => (started = resolve));
    let unblock!: () => void;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    const a = await replica(queue, async () => {
      started();
      await blocked;
    });
    const held = await publish(queue, 1);
    await handling;
    const b = await replica(queue);

    await stopConsumers(a.client, 200);
    await eventually(async () => b.done.includes(held.id), 10_000);
    // A finishing late cannot acknowledge it any more: the message was B's to handle, and B's alone.
    unblock();
    const marker = await publish(queue, 2);
    await eventually(async () => b.done.includes(marker.id), 10_000);
    expect(b.done).toEqual([held.id, marker.id]);
  });
});
