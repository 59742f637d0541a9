// What a delivery costs in store commands. A fresh event's first attempt to a prompt partner is sent from
// the fan-out and its row written once, with the outcome (docs/decisions/0095); through the queue, the
// fan-out's insert and the outcome's update are batched and the row is not read (0088, 0089). Either way
// the log shows the attempt recorded once.
import { testInfra } from '@travel/testkit';
import { startHarness, type Harness } from './support/harness';

function commandsOf(h: Harness) {
  const commands: Array<{ name: string; collection: string }> = [];
  const client = h.dispatcher.deps.mongo.getClient();
  client.on('commandStarted', (e) => {
    const target = e.command?.[e.commandName];
    commands.push({ name: e.commandName, collection: typeof target === 'string' ? target : '' });
  });
  return commands;
}

const monitoredMongoUrl = () => {
  const url = new URL(testInfra().mongoUrl);
  url.searchParams.set('monitorCommands', 'true');
  return url.toString();
};

async function deliverOne(h: Harness, commands: Array<{ name: string; collection: string }>) {
  const receiver = await h.receiver();
  const sub = await h.register(receiver.url);
  commands.length = 0;
  const event = await h.publish();
  await receiver.waitForRequests(1, 10_000);
  // Everything the dispatcher sent the store until the partner had the event (before the test reads the log).
  const untilSent = [...commands];
  const [delivery] = await h.settled(sub.id, 1);
  expect(delivery).toMatchObject({ eventId: event.id, status: 'Succeeded', attempts: 1 });
  expect(receiver.requests).toHaveLength(1);
  expect(untilSent.filter((c) => c.name === 'find' && c.collection === 'deliveries')).toEqual([]);
  // Later reads are the test's own (the delivery log).
  return commands.filter((c) => c.collection === 'deliveries');
}

describe('store commands per delivery', () => {
  let h: Harness;
  let commands: Array<{ name: string; collection: string }>;
  beforeAll(async () => {
    h = await startHarness('store-commands', { MONGO_URL: monitoredMongoUrl() });
    commands = commandsOf(h);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("writes a fresh event's delivery row once, with its first attempt's outcome: no update, no read", async () => {
    const onDeliveries = await deliverOne(h, commands);
    expect(onDeliveries.filter((c) => c.name === 'insert')).toHaveLength(1);
    expect(onDeliveries.filter((c) => c.name === 'update')).toHaveLength(0);
  });
});

describe('store commands per delivery, first attempts through the queue', () => {
  let h: Harness;
  let commands: Array<{ name: string; collection: string }>;
  beforeAll(async () => {
    h = await startHarness('store-commands-queued', {
      MONGO_URL: monitoredMongoUrl(),
      WEBHOOK_DIRECT_FIRST_ATTEMPT: 'false',
    });
    commands = commandsOf(h);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('sends the first attempt without reading its delivery row, and records it with one update', async () => {
    const onDeliveries = await deliverOne(h, commands);
    expect(onDeliveries.filter((c) => c.name === 'insert')).toHaveLength(1);
    expect(onDeliveries.filter((c) => c.name === 'update')).toHaveLength(1);
  });
});
