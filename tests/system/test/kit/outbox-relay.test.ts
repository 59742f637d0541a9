// The outbox against the real broker and store: at-least-once across a relay crash, de-duplicated
// by the consumer inbox, and an unroutable publish never counted as sent.
import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import {
  AmqpClient,
  DOMAIN_EXCHANGE,
  Inbox,
  Metrics,
  OutboxRelay,
  connectMongo,
  createLogger,
  declareConsumerQueue,
  declareDomainExchange,
  outboxSchemaFields,
  outboxUpdate,
  raiseEvent,
  startConsumer,
  withOutbox,
  type DomainEvent,
  type OutboxFields,
  type OutboxRelayOptions,
} from '@travel/platform';
import { createTestEnv, eventually, type TestEnv } from '@travel/testkit';

interface Thing extends OutboxFields {
  _id: string;
  tenantId: string;
  name: string;
}

const logger = createLogger('kit-test', 'silent');

describe('outbox relay on RabbitMQ and a MongoDB-wire server', () => {
  let env: TestEnv;
  let conn: Connection;
  let Things: Model<Thing>;
  let client: AmqpClient;

  beforeAll(async () => {
    env = await createTestEnv('outbox');
    conn = await connectMongo(env.infra.mongoUrl, `${env.dbPrefix}kit`);
    Things = conn.model<Thing>(
      'Thing',
      new Schema<Thing>(
        { _id: String, tenantId: String, name: String, ...outboxSchemaFields },
        { collection: 'things', versionKey: false },
      ),
    );
    client = new AmqpClient(env.amqpUrl, logger, 'kit-test');
    await client.start();
    await client.onConnect(declareDomainExchange);
  });
  afterAll(async () => {
    await client?.stop();
    await conn?.close();
    await env?.cleanup();
  });

  const relayFor = (metrics: Metrics, afterPublish?: OutboxRelayOptions['afterPublish']) =>
    new OutboxRelay({
      client,
      collections: [conn.db!.collection('things')],
      logger,
      metrics,
      ...(afterPublish ? { afterPublish } : {}),
    });

  it('publishes again after a crash between publish and removal; the inbox makes the redelivery a no-op', async () => {
    const handled: string[] = [];
    const metrics = new Metrics('kit-consumer');
    await startConsumer<DomainEvent>({
      client,
      logger,
      metrics,
      inbox: new Inbox(conn),
      queue: { name: 'kit.crash', bindings: ['kit.thing.*'] },
      handle: async (event) => {
        handled.push(event.id);
      },
    });
    const delivered: string[] = [];
    const tap = await client.channel();
    await tap.assertQueue('kit.crash.tap', { durable: false, autoDelete: true });
    await tap.bindQueue('kit.crash.tap', DOMAIN_EXCHANGE, 'kit.thing.*');
    await tap.consume('kit.crash.tap', (m) => m && delivered.push(String(m.properties.messageId)), { noAck: true });

    const event = raiseEvent('kit', 'thing.created', 'tenant-1', { name: 'first' });
    await Things.create({ _id: randomUUID(), tenantId: 'tenant-1', name: 'first', ...withOutbox(event) });

    // First relay "crashes" right after the broker confirmed the publish, before removing the event.
    const crashing = relayFor(new Metrics('kit-relay-1'), async () => {
      throw new Error('simulated crash');
    });
    await expect(crashing.publishPending()).rejects.toThrow('simulated crash');
    expect((await Things.findOne({ name: 'first' }).lean())!.outboxCount).toBe(1);

    // A restarted relay publishes it again and removes it.
    expect(await relayFor(new Metrics('kit-relay-2')).publishPending()).toBe(1);
    const after = await Things.findOne({ name: 'first' }).lean();
    expect(after!.outboxCount).toBe(0);
    expect(Object.keys(after!.outbox ?? {})).toHaveLength(0);

    await eventually(async () => delivered.length >= 2);
    expect(delivered).toEqual([event.id, event.id]);
    await eventually(
      async () =>
        handled.length === 1 &&
        (await metrics.registry.getSingleMetricAsString('amqp_messages_handled_total')).includes('outcome="duplicate"'),
    );
    expect(handled).toEqual([event.id]);
  });

  it('keeps events of one document in the order they were raised', async () => {
    const seen: string[] = [];
    const tap = await client.channel();
    await tap.assertQueue('kit.order.tap', { durable: false, autoDelete: true });
    await tap.bindQueue('kit.order.tap', DOMAIN_EXCHANGE, 'kit.ordered.*');
    await tap.consume('kit.order.tap', (m) => m && seen.push(JSON.parse(m.content.toString()).type), { noAck: true });

    const id = randomUUID();
    await Things.create({
      _id: id,
      tenantId: 't',
      name: 'ordered',
      ...withOutbox(raiseEvent('kit', 'ordered.created', 't', {})),
    });
    for (const step of ['ordered.updated', 'ordered.approved']) {
      await Things.updateOne({ _id: id }, outboxUpdate({ $set: { name: step } }, raiseEvent('kit', step, 't', {})));
    }
    expect(await relayFor(new Metrics('kit-relay-order')).publishPending()).toBe(3);
    await eventually(async () => seen.length === 3);
    expect(seen).toEqual(['ordered.created', 'ordered.updated', 'ordered.approved']);
  });

  it('does not count an unroutable publish as sent, and sends it once a queue is bound', async () => {
    const metrics = new Metrics('kit-relay-unroutable');
    const relay = relayFor(metrics);
    const event = raiseEvent('nobody', 'listens.here', 'tenant-1', {});
    await Things.create({ _id: randomUUID(), tenantId: 'tenant-1', name: 'unroutable', ...withOutbox(event) });

    expect(await relay.publishPending()).toBe(0);
    expect((await Things.findOne({ name: 'unroutable' }).lean())!.outboxCount).toBe(1);
    const failures = await metrics.registry.getSingleMetric('outbox_publish_failures_total')!.get();
    expect(failures.values).toEqual([expect.objectContaining({ labels: { reason: 'unroutable' }, value: 1 })]);
    const published = await metrics.registry.getSingleMetric('outbox_published_total')!.get();
    expect(published.values.filter((v) => v.value > 0)).toHaveLength(0);

    const ch = await client.channel();
    await declareConsumerQueue(ch, { name: 'kit.late-listener', bindings: ['nobody.#'] });
    expect(await relay.publishPending()).toBe(1);
    expect((await Things.findOne({ name: 'unroutable' }).lean())!.outboxCount).toBe(0);
    expect((await ch.checkQueue('kit.late-listener')).messageCount).toBe(1);
  });
});
