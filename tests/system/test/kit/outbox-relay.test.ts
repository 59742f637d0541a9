// The outbox against the real broker and store: at-least-once across a relay crash, de-duplicated
// by the consumer inbox; unroutable events parked in domain.unroutable.parking without holding up the
// others (decision 0062); the lag gauge is the age of the oldest event still pending (decision 0063).
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Schema, type Connection, type Model } from 'mongoose';
import {
  AmqpClient,
  ANNOUNCEMENTS_QUEUE,
  DOMAIN_EXCHANGE,
  Inbox,
  Metrics,
  OutboxRelay,
  PublishError,
  UNROUTABLE_PARKING_QUEUE,
  UNROUTABLE_POLICY,
  connectMongo,
  createLogger,
  declareDomainExchange,
  outboxSchemaFields,
  outboxUpdate,
  raiseUncheckedEvent,
  removeFromOutbox,
  startConsumer,
  withOutbox,
  type DomainEvent,
  type OutboxFields,
} from '@travel/platform';
import { ANNOUNCED_EVENTS } from '@travel/contracts';
import { createTestEnv, eventually, monitoredConnection, setPolicy, type TestEnv } from '@travel/testkit';

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

  // These tests write their documents straight into the store, nudging no relay: it takes them at once
  // (adoptAfterMs 0), as it does any other replica's left too long (0243, tested below).
  const relayFor = (metrics: Metrics, things = conn.db!.collection('things'), via = client) =>
    new OutboxRelay({ client: via, collections: [things], logger, metrics, adoptAfterMs: 0 });

  /** The things collection of a relay that "dies" after the broker confirmed a publish, before its removal. */
  const dyingAtRemoval = () => {
    const things = conn.db!.collection('things');
    return new Proxy(things, {
      get: (target, key) => {
        if (key === 'bulkWrite') return () => Promise.reject(new Error('simulated crash'));
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };

  it('publishes again after a crash between publish and removal; the inbox makes the redelivery a no-op', async () => {
    const handled: string[] = [];
    const metrics = new Metrics('kit-consumer');
    await startConsumer<DomainEvent>({
      client,
      logger,
      metrics,
      inbox: new Inbox(conn),
      // Made-up routing keys: no schema in contracts/events (the platform's own test).
      validateEvents: false,
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

    const event = raiseUncheckedEvent('kit', 'thing.created', 'tenant-1', { name: 'first' });
    await Things.create({ _id: randomUUID(), tenantId: 'tenant-1', name: 'first', ...withOutbox(event) });

    // First relay "crashes" right after the broker confirmed the publish, before removing the event.
    const crashing = relayFor(new Metrics('kit-relay-1'), dyingAtRemoval());
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
      ...withOutbox(raiseUncheckedEvent('kit', 'ordered.created', 't', {})),
    });
    for (const step of ['ordered.updated', 'ordered.approved']) {
      await Things.updateOne(
        { _id: id },
        outboxUpdate({ $set: { name: step } }, raiseUncheckedEvent('kit', step, 't', {})),
      );
    }
    expect(await relayFor(new Metrics('kit-relay-order')).publishPending()).toBe(3);
    await eventually(async () => seen.length === 3);
    expect(seen).toEqual(['ordered.created', 'ordered.updated', 'ordered.approved']);
  });

  /** A second connection to the test database whose store commands are counted: name and statements. */
  const countingCommands = async () => {
    const { conn: counted, commands } = await monitoredConnection(`${env.dbPrefix}kit`, (name, command) => [
      { name, statements: (command.updates as unknown[] | undefined)?.length ?? 0 },
    ]);
    return { counted, commands };
  };

  it("removes a pass's published events with one update command per 100 events, not one per event (0240)", async () => {
    const { counted, commands } = await countingCommands();
    try {
      const things = counted.db!.collection('batched_things');
      const docs = Array.from({ length: 120 }, (_, i) => ({
        _id: randomUUID() as never,
        tenantId: 't',
        ...withOutbox(raiseUncheckedEvent('kit', 'batched.created', 't', { i })),
      }));
      await things.insertMany(docs);
      // Routable, so they do not go to the parking queue another test reads.
      const tap = await client.channel();
      await tap.assertQueue('kit.batched.tap', { durable: false, autoDelete: true });
      await tap.bindQueue('kit.batched.tap', DOMAIN_EXCHANGE, 'kit.batched.*');
      commands.length = 0;
      const relay = new OutboxRelay({
        client,
        collections: [things],
        logger,
        metrics: new Metrics('kit-relay-batch'),
        adoptAfterMs: 0,
      });
      // A pass fetches 100 documents, then the 20 past them (the next round), publishes the 120 events and
      // removes them: statements 100 + 20 in two commands, where one command per event made 120.
      expect(await relay.publishPending()).toBe(120);
      const updates = commands.filter((c) => c.name === 'update');
      expect(updates.map((c) => c.statements).sort((a, b) => b - a)).toEqual([100, 20]);
      expect(await things.countDocuments({ outboxCount: { $ne: 0 } })).toBe(0);
      const left = await things.find({}, { projection: { outbox: 1 } }).toArray();
      expect(left.filter((d) => Object.keys((d.outbox ?? {}) as object).length > 0)).toEqual([]);
      expect((await tap.checkQueue('kit.batched.tap')).messageCount).toBe(120);
      await tap.deleteQueue('kit.batched.tap');
    } finally {
      await counted.close();
    }
  });

  it('in one removal command, each statement stands alone: removed once, a repeat a no-op, newer events kept (0240)', async () => {
    const things = conn.db!.collection('removal_things');
    const [a, b, c] = ['a', 'b', 'c'].map((name) => raiseUncheckedEvent('kit', 'removal.created', 't', { name }));
    const ids = [randomUUID(), randomUUID()];
    // Document 0 holds a and b; document 1 holds c, and then d is written into it after c was published.
    await things.insertOne({ _id: ids[0] as never, tenantId: 't', ...withOutbox(a!, b!) });
    await things.insertOne({ _id: ids[1] as never, tenantId: 't', ...withOutbox(c!) });
    const d = raiseUncheckedEvent('kit', 'removal.updated', 't', {});
    await things.updateOne({ _id: ids[1] as never }, outboxUpdate({ $set: { name: 'd' } }, d));

    // Another relay removed a first; this relay's command removes a again (nothing), b, c, and c again.
    expect(await removeFromOutbox(things, [{ docId: ids[0], eventId: a!.id }])).toBe(1);
    const removed = await removeFromOutbox(things, [
      { docId: ids[0], eventId: a!.id },
      { docId: ids[0], eventId: b!.id },
      { docId: ids[1], eventId: c!.id },
      { docId: ids[1], eventId: c!.id },
    ]);
    expect(removed).toBe(2);
    const [first, second] = await Promise.all(ids.map((id) => things.findOne({ _id: id as never })));
    expect([first!.outboxCount, Object.keys(first!.outbox as object)]).toEqual([0, []]);
    expect([second!.outboxCount, Object.keys(second!.outbox as object)]).toEqual([1, [d.id]]);
    expect(await removeFromOutbox(things, [])).toBe(0);
  });

  const gauge = async (metrics: Metrics, name: string) =>
    (await metrics.registry.getSingleMetric(name)!.get()).values[0]?.value;

  // Runs first of the unroutable tests: the vhost has no alternate-exchange policy yet.
  it('without the alternate-exchange policy, the relay parks an unroutable event itself and it is not lost', async () => {
    const metrics = new Metrics('kit-relay-unroutable');
    const relay = relayFor(metrics);
    const event = raiseUncheckedEvent('nobody', 'listens.here', 'tenant-1', {});
    await Things.create({ _id: randomUUID(), tenantId: 'tenant-1', name: 'unroutable', ...withOutbox(event) });

    const ch = await client.channel();
    const before = (await ch.checkQueue(UNROUTABLE_PARKING_QUEUE)).messageCount;
    expect(await relay.publishPending()).toBe(1);
    expect((await Things.findOne({ name: 'unroutable' }).lean())!.outboxCount).toBe(0);
    const parked = await metrics.registry.getSingleMetric('outbox_unroutable_parked_by_relay_total')!.get();
    expect(parked.values).toEqual([expect.objectContaining({ labels: { type: 'listens.here' }, value: 1 })]);
    const published = await metrics.registry.getSingleMetric('outbox_published_total')!.get();
    expect(published.values.filter((v) => v.value > 0)).toHaveLength(0);
    expect((await ch.checkQueue(UNROUTABLE_PARKING_QUEUE)).messageCount).toBe(before + 1);
    const msg = await ch.get(UNROUTABLE_PARKING_QUEUE, { noAck: false });
    expect(msg && { id: msg.properties.messageId, key: msg.fields.routingKey }).toEqual({
      id: event.id,
      key: event.routingKey,
    });
    ch.ack(msg as never);
    await ch.close();
  });

  it('an event announced for a consumer not built yet waits in domain.announcements, never in the parking (0186)', async () => {
    await setPolicy(env.infra, env.vhost, UNROUTABLE_POLICY);
    const metrics = new Metrics('kit-relay-announced');
    const event = raiseUncheckedEvent('reference-fx', 'per-diem-policy.updated', 'tenant-1', {});
    expect(ANNOUNCED_EVENTS).toContain(event.routingKey);
    await Things.create({ _id: randomUUID(), tenantId: 'tenant-1', name: 'announced', ...withOutbox(event) });
    const ch = await client.channel();
    const parkedBefore = (await ch.checkQueue(UNROUTABLE_PARKING_QUEUE)).messageCount;
    expect(await relayFor(metrics).publishPending()).toBe(1);
    const announced = await eventually(async () => (await ch.get(ANNOUNCEMENTS_QUEUE, { noAck: true })) || undefined);
    expect([announced.properties.messageId, announced.fields.routingKey]).toEqual([event.id, event.routingKey]);
    expect((await ch.checkQueue(UNROUTABLE_PARKING_QUEUE)).messageCount).toBe(parkedBefore);
    expect(await gauge(metrics, 'outbox_unroutable_parked_by_relay_total')).toBeUndefined();
    await ch.close();
  });

  it('150 unroutable events do not hold up a routable one: it is published within a second, they are parked', async () => {
    await setPolicy(env.infra, env.vhost, UNROUTABLE_POLICY);
    const ch = await client.channel();
    await ch.purgeQueue(UNROUTABLE_PARKING_QUEUE);
    await ch.assertQueue('kit.routable.tap', { durable: false, autoDelete: true });
    await ch.bindQueue('kit.routable.tap', DOMAIN_EXCHANGE, 'kit.routable.*');
    let arrivedAt = 0;
    await ch.consume('kit.routable.tap', (m) => m && (arrivedAt ||= Date.now()), { noAck: true });

    const unroutable = Array.from({ length: 150 }, (_, i) =>
      raiseUncheckedEvent('undeployed', 'thing.created', 't', { i }),
    );
    for (const event of unroutable)
      await Things.create({ _id: randomUUID(), tenantId: 't', name: 'nobody-listens', ...withOutbox(event) });
    const routable = raiseUncheckedEvent('kit', 'routable.created', 't', {});
    await Things.create({ _id: randomUUID(), tenantId: 't', name: 'routable', ...withOutbox(routable) });

    const metrics = new Metrics('kit-relay-ae');
    const relay = relayFor(metrics);
    const startedAt = Date.now();
    relay.start();
    try {
      await eventually(async () => arrivedAt > 0, 10_000, 20);
      expect(arrivedAt - startedAt).toBeLessThan(1000);
      await eventually(async () => (await ch.checkQueue(UNROUTABLE_PARKING_QUEUE)).messageCount === 150, 10_000, 50);
    } finally {
      await relay.stop();
    }
    const ids: string[] = [];
    for (let m = await ch.get(UNROUTABLE_PARKING_QUEUE); m; m = await ch.get(UNROUTABLE_PARKING_QUEUE)) {
      ids.push(String(m.properties.messageId));
      expect(m.fields.routingKey).toBe('undeployed.thing.created');
      ch.ack(m);
    }
    expect(ids.sort()).toEqual(unroutable.map((e) => e.id).sort());
    expect(await Things.countDocuments({ outboxCount: { $gt: 0 } })).toBe(0);
    // The broker routed them to the alternate exchange: nothing came back for the relay to park.
    expect(await gauge(metrics, 'outbox_unroutable_parked_by_relay_total')).toBeUndefined();
    await ch.close();
  });

  it('reports the age of the oldest event still pending, also after a pass that published others', async () => {
    // A broker that refuses one routing key: its events stay pending, the rest go out.
    const refusing = {
      publish: (exchange: string, key: string, ...rest: [Buffer, never]) =>
        key.startsWith('kit.refused.')
          ? Promise.reject(new PublishError('refused', 'nacked'))
          : client.publish(exchange, key, ...rest),
      connected: false,
    } as unknown as AmqpClient;
    const metrics = new Metrics('kit-relay-lag');
    const relay = relayFor(metrics, undefined, refusing);
    expect(await gauge(metrics, 'outbox_oldest_pending_seconds')).toBe(0);

    const old = {
      ...raiseUncheckedEvent('kit', 'refused.created', 't', {}),
      occurredAt: new Date(Date.now() - 90_000).toISOString(),
    };
    const older = {
      ...raiseUncheckedEvent('kit', 'lag.created', 't', {}),
      occurredAt: new Date(Date.now() - 300_000).toISOString(),
    };
    await Things.create({ _id: randomUUID(), tenantId: 't', name: 'lag-stuck', ...withOutbox(old) });
    await Things.create({ _id: randomUUID(), tenantId: 't', name: 'lag-ok', ...withOutbox(older) });

    expect(await relay.publishPending()).toBe(1);
    const age = await gauge(metrics, 'outbox_oldest_pending_seconds');
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(120);

    // Once it goes out, nothing is pending: 0.
    expect(await relayFor(new Metrics('kit-relay-lag-2')).publishPending()).toBe(1);
    expect(await relay.publishPending()).toBe(0);
    expect(await gauge(metrics, 'outbox_oldest_pending_seconds')).toBe(0);
  });

  /** The events published with routing keys `kit.<prefix>.*`, counted by id from a queue of the test's own. */
  const tapOf = async (prefix: string) => {
    const ch = await client.channel();
    const queue = `kit.${prefix}.tap`;
    await ch.assertQueue(queue, { durable: false, autoDelete: true });
    await ch.bindQueue(queue, DOMAIN_EXCHANGE, `kit.${prefix}.*`);
    return {
      /** Every message now in the queue: id → copies. */
      async drain() {
        const copies = new Map<string, number>();
        for (let m = await ch.get(queue, { noAck: true }); m; m = await ch.get(queue, { noAck: true })) {
          const id = m.properties.messageId as string;
          copies.set(id, (copies.get(id) ?? 0) + 1);
        }
        return copies;
      },
      close: () => ch.deleteQueue(queue).then(() => ch.close()),
    };
  };
  it("two replicas' relays: each publishes the documents its own replica wrote, none twice (0243)", async () => {
    const things = conn.db!.collection('twin_things');
    const tap = await tapOf('twin');
    const [metricsA, metricsB] = [new Metrics('kit-relay-twin-a'), new Metrics('kit-relay-twin-b')];
    const a = new OutboxRelay({ client, collections: [things], logger, metrics: metricsA });
    const b = new OutboxRelay({ client, collections: [things], logger, metrics: metricsB });
    // Twenty writes through each replica, interleaved, each nudging its own relay, as TenantScope does.
    const written: string[] = [];
    for (let i = 0; i < 40; i++) {
      const event = raiseUncheckedEvent('kit', 'twin.created', 't', { i });
      const id = randomUUID();
      await things.insertOne({ _id: id as never, tenantId: 't', ...withOutbox(event) });
      (i % 2 === 0 ? a : b).nudge({ collection: 'twin_things', id });
      written.push(event.id);
    }
    // Both relays pass at once, twice over: each sees all forty pending, and takes its own twenty.
    const passes = await Promise.all([a.publishPending(), b.publishPending()]);
    expect(passes).toEqual([20, 20]);
    expect(await Promise.all([a.publishPending(), b.publishPending()])).toEqual([0, 0]);
    expect(await things.countDocuments({ outboxCount: { $gt: 0 } })).toBe(0);
    const copies = await eventually(async () => {
      const seen = await tap.drain();
      return seen.size === 40 ? seen : undefined;
    });
    expect([...copies.keys()].sort()).toEqual([...written].sort());
    expect([...copies.values()].every((n) => n === 1)).toBe(true);
    expect(await gauge(metricsA, 'outbox_published_twice_total')).toBe(0);
    expect(await gauge(metricsB, 'outbox_published_twice_total')).toBe(0);
    await tap.close();
  });

  it('adopts a document no relay was told of once its oldest event is older than the delay, not before (0243)', async () => {
    const things = conn.db!.collection('orphan_things');
    const tap = await tapOf('orphan');
    const metrics = new Metrics('kit-relay-orphan');
    const relay = new OutboxRelay({ client, collections: [things], logger, metrics, adoptAfterMs: 5_000 });
    // Written by a replica that stopped before its relay published: one a moment ago, one 6 s ago.
    const fresh = raiseUncheckedEvent('kit', 'orphan.created', 't', { n: 1 });
    const left = {
      ...raiseUncheckedEvent('kit', 'orphan.created', 't', { n: 2 }),
      occurredAt: new Date(Date.now() - 6_000).toISOString(),
    };
    await things.insertOne({ _id: randomUUID() as never, tenantId: 't', ...withOutbox(fresh) });
    await things.insertOne({ _id: randomUUID() as never, tenantId: 't', ...withOutbox(left) });
    expect(await relay.publishPending()).toBe(1);
    // The fresh one is left to its own relay, and shows as pending.
    expect(await gauge(metrics, 'outbox_oldest_pending_seconds')).toBeLessThan(5);
    expect(await things.countDocuments({ outboxCount: { $gt: 0 } })).toBe(1);
    const copies = await eventually(async () => {
      const seen = await tap.drain();
      return seen.size === 1 ? seen : undefined;
    });
    expect([...copies.keys()]).toEqual([left.id]);
    // A relay that takes every document at once (adoptAfterMs 0) publishes it.
    expect(
      await new OutboxRelay({
        client,
        collections: [things],
        logger,
        metrics: new Metrics('kit-relay-orphan-2'),
        adoptAfterMs: 0,
      }).publishPending(),
    ).toBe(1);
    await tap.close();
  });

  it('counts an event published after another relay had published and removed it (outbox_published_twice_total)', async () => {
    const things = conn.db!.collection('twice_things');
    const tap = await tapOf('twice');
    const event = raiseUncheckedEvent('kit', 'twice.created', 't', {});
    const id = randomUUID();
    await things.insertOne({ _id: id as never, tenantId: 't', ...withOutbox(event) });
    // Relay A publishes, and its removal waits until B has published and removed the same event.
    let releaseA!: () => void;
    const aMayRemove = new Promise<void>((resolve) => (releaseA = resolve));
    const slowRemovals = new Proxy(things, {
      get: (target, key) => {
        if (key === 'bulkWrite')
          return (...args: Parameters<typeof things.bulkWrite>) => aMayRemove.then(() => target.bulkWrite(...args));
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const [metricsA, metricsB] = [new Metrics('kit-relay-twice-a'), new Metrics('kit-relay-twice-b')];
    const a = new OutboxRelay({ client, collections: [slowRemovals], logger, metrics: metricsA, adoptAfterMs: 0 });
    const b = new OutboxRelay({ client, collections: [things], logger, metrics: metricsB, adoptAfterMs: 0 });
    const passA = a.publishPending();
    await eventually(async () => ((await tap.drain()).size === 1 ? true : undefined));
    expect(await b.publishPending()).toBe(1);
    releaseA();
    expect(await passA).toBe(1);
    expect(await gauge(metricsA, 'outbox_published_twice_total')).toBe(1);
    expect(await gauge(metricsB, 'outbox_published_twice_total')).toBe(0);
    expect(await things.countDocuments({ _id: id as never, outboxCount: 0 })).toBe(1);
    await tap.close();
  });

  it('a broker outage: one warning a pass, the wait doubling, writes not cutting it short; back, the next write publishes', async () => {
    let outage = true;
    const flaky = {
      publish: (...args: Parameters<AmqpClient['publish']>) =>
        outage
          ? Promise.reject(new PublishError('not connected to the broker', 'disconnected'))
          : client.publish(...args),
      get connected() {
        return !outage;
      },
    } as unknown as AmqpClient;
    const lines: { msg: string; time: string; [field: string]: unknown }[] = [];
    const captured = createLogger(
      'kit-outage',
      'info',
      new Writable({
        write(chunk, _enc, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const things = conn.db!.collection('outage_things');
    const events = [1, 2, 3].map((n) => raiseUncheckedEvent('kit', 'outage.created', 't', { n }));
    for (const event of events)
      await things.insertOne({ _id: randomUUID() as never, tenantId: 't', ...withOutbox(event) });
    const relay = new OutboxRelay({
      client: flaky,
      collections: [things],
      logger: captured,
      metrics: new Metrics('kit-relay-outage'),
      intervalMs: 40,
      adoptAfterMs: 0,
    });
    const warnings = () => lines.filter((l) => l.msg === 'outbox publishes failed; will retry');
    relay.start();
    try {
      await eventually(async () => warnings().length >= 4);
      expect(warnings().slice(0, 4)).toEqual(
        [40, 80, 160, 320].map((retryInMs) =>
          expect.objectContaining({ failed: 3, reasons: { disconnected: 3 }, firstEventId: events[0]!.id, retryInMs }),
        ),
      );
      // Writes during the outage nudge the relay: no pass before the wait of 320 ms is over.
      for (let i = 0; i < 20; i++) relay.nudge();
      await eventually(async () => warnings().length >= 5);
      const [fourth, fifth] = warnings().slice(3, 5);
      expect(fifth!.retryInMs).toBe(640);
      expect(Date.parse(fifth!.time) - Date.parse(fourth!.time)).toBeGreaterThanOrEqual(300);
      expect(lines.filter((l) => l.msg === 'outbox publish failed')).toEqual([]); // per event: debug only

      // The broker is back: the next write publishes at once, not when the wait is over, and the relay says so.
      outage = false;
      relay.nudge();
      const back = await eventually(async () => lines.find((l) => l.msg === 'outbox publishing again'));
      const last = warnings().at(-1)!;
      expect(Date.parse(back.time)).toBeLessThan(Date.parse(last.time) + (last.retryInMs as number));
      expect(back.failedPasses).toBe(warnings().length);
      expect(await things.countDocuments({ outboxCount: { $gt: 0 } })).toBe(0);
    } finally {
      await relay.stop();
    }
  });
});
