// First attempts sent from the fan-out (docs/decisions/0095): what happens around them when things go
// wrong. The happy path (one row insert, no update) is in store-commands.test.ts, crashes mid-send in
// crash.test.ts, a hanging partner beside a healthy one in isolation-and-retention.test.ts.
import { randomUUID } from 'node:crypto';
import { DOMAIN_EXCHANGE } from '@travel/platform';
import { eventually, testInfra } from '@travel/testkit';
import { newDeliveryRow } from '../src/app/new-delivery';
import { envelopeBytes } from '../src/domain/envelope';
import { registerModels } from '../src/infra/models';
import { employeeEvent, startHarness, verified, type Harness } from './support/harness';

describe('first attempts sent from the fan-out', () => {
  let h: Harness;
  const commands: Array<{ name: string; collection: string }> = [];

  beforeAll(async () => {
    const url = new URL(testInfra().mongoUrl);
    url.searchParams.set('monitorCommands', 'true');
    h = await startHarness('first-attempts', {
      MONGO_URL: url.toString(),
      WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms,50ms,50ms,50ms,50ms,50ms',
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    h.dispatcher.deps.mongo.getClient().on('commandStarted', (e) => {
      const target = e.command?.[e.commandName];
      commands.push({ name: e.commandName, collection: typeof target === 'string' ? target : '' });
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('a row written with its first attempt but without its next one queued gets it when the event runs again', async () => {
    const receiver = await h.receiver();
    const sub = await h.register(receiver.url);
    const event = employeeEvent(h.tenantId);
    // What a fan-out leaves when it stops between writing a failed first attempt and queueing the next.
    const occurredAt = new Date(event.occurredAt);
    const row = newDeliveryRow({
      _id: randomUUID(),
      tenantId: h.tenantId,
      subscriptionId: sub.id,
      eventId: event.id,
      eventType: event.type,
      occurredAt,
      nextAttemptAt: new Date(),
      at: new Date(),
    });
    const models = registerModels(h.dispatcher.deps.mongo);
    await models.Delivery.create({
      ...row,
      attemptsMade: 1,
      totalAttempts: 1,
      lastStatusCode: 503,
      attemptLog: [
        { series: 1, attempt: 1, at: new Date(), outcome: 'retry', statusCode: 503, error: null, durationMs: 3 },
      ],
    });
    // The broker hands the event over again (as after a crash: not for the first time).
    const ch = await (await import('amqplib')).default.connect(h.env.amqpUrl);
    const pub = await ch.createConfirmChannel();
    pub.publish(DOMAIN_EXCHANGE, `employees.${event.type}`, Buffer.from(JSON.stringify(event)), {
      persistent: true,
      messageId: event.id,
      headers: { 'x-retry-count': 1 },
    });
    await pub.waitForConfirms();
    await ch.close();

    const [delivery] = await h.settled(sub.id, 1);
    expect(delivery).toMatchObject({ deliveryId: row._id, eventId: event.id, status: 'Succeeded', attempts: 2 });
    expect(receiver.requests).toHaveLength(1);
    const received = verified(receiver.requests[0]!, sub.signingSecret);
    expect(received).toMatchObject({ eventId: event.id, deliveryId: row._id });
    expect(receiver.requests[0]!.body.toString()).toBe(envelopeBytes(event));
  });

  it('an event its service published twice (the relays of two replicas) is sent once, not once per copy', async () => {
    const receiver = await h.receiver();
    // Slow answers keep the first copy's send in flight while the second copy is handled.
    receiver.replyWith(() => ({ status: 200, delayMs: 300 }));
    const sub = await h.register(receiver.url);
    const event = employeeEvent(h.tenantId);
    // Two fresh copies, as two relays publish the outbox event each before either removed it.
    await Promise.all([h.publish(event), h.publish(event)]);
    const [delivery] = await h.settled(sub.id, 1);
    expect(delivery).toMatchObject({ eventId: event.id, status: 'Succeeded', attempts: 1 });
    // A later event as the marker: once it arrived, nothing of the first is still on its way.
    const marker = await h.publish(employeeEvent(h.tenantId));
    await h.settled(sub.id, 2);
    await eventually(async () => receiver.requests.some((r) => verified(r, sub.signingSecret).eventId === marker.id));
    const ids = receiver.requests.map((r) => verified(r, sub.signingSecret).eventId);
    expect(ids.filter((id) => id === event.id)).toHaveLength(1);
    expect(await h.deliveries(sub.id)).toHaveLength(2);
  });

  it('a partner that did not answer gets its next first attempts through the queue', async () => {
    const receiver = await h.receiver();
    let calls = 0;
    // The first request gets no answer within the 1 s time-out; the others are answered at once.
    receiver.replyWith(() => (++calls === 1 ? { hang: true } : { status: 200 }));
    const sub = await h.register(receiver.url);
    await h.publish();
    await h.settled(sub.id, 1);
    commands.length = 0;
    await h.publish();
    const items = await h.settled(sub.id, 2);
    expect(items.map((d) => d.status)).toEqual(['Succeeded', 'Succeeded']);
    // Queued: the row is inserted Pending, then the outcome is an update of it.
    const onDeliveries = commands.filter((c) => c.collection === 'deliveries');
    expect(onDeliveries.filter((c) => c.name === 'update')).toHaveLength(1);
  });

  it('a first attempt sent from the fan-out that fails is retried on the schedule, and its row keeps every attempt', async () => {
    const receiver = await h.receiver();
    let calls = 0;
    receiver.replyWith(() => (++calls <= 2 ? { status: 503 } : { status: 200 }));
    const sub = await h.register(receiver.url);
    const event = await h.publish(employeeEvent(h.tenantId));
    const [delivery] = await h.settled(sub.id, 1);
    expect(delivery).toMatchObject({ eventId: event.id, status: 'Succeeded', attempts: 3 });
    expect(receiver.requests).toHaveLength(3);
    // The same event and delivery each time, each request signed afresh.
    const seen = receiver.requests.map((r) => verified(r, sub.signingSecret));
    expect(new Set(seen.map((v) => `${v.eventId} ${v.deliveryId}`))).toEqual(
      new Set([`${event.id} ${delivery.deliveryId}`]),
    );
  });
});
