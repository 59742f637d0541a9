// What a delivery costs in store commands (docs/decisions/0088, 0089): a fresh first attempt is sent
// without reading its delivery row, the fan-out's inserts and the outcome are batched, and the log still
// shows the attempt recorded once.
import { testInfra } from '@travel/testkit';
import { startHarness, type Harness } from './support/harness';

describe('store commands per delivery', () => {
  let h: Harness;
  const commands: Array<{ name: string; collection: string }> = [];

  beforeAll(async () => {
    const url = new URL(testInfra().mongoUrl);
    url.searchParams.set('monitorCommands', 'true');
    h = await startHarness('store-commands', { MONGO_URL: url.toString() });
    const client = h.dispatcher.deps.mongo.getClient();
    client.on('commandStarted', (e) => {
      const target = e.command?.[e.commandName];
      commands.push({ name: e.commandName, collection: typeof target === 'string' ? target : '' });
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("sends a fresh event's first attempt without reading its delivery row, and records it once", async () => {
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
    const onDeliveries = commands.filter((c) => c.collection === 'deliveries');
    // The fan-out's insert and the outcome's update (later reads are the test's own: the delivery log).
    expect(onDeliveries.filter((c) => c.name === 'insert')).toHaveLength(1);
    expect(onDeliveries.filter((c) => c.name === 'update')).toHaveLength(1);
    expect(untilSent.filter((c) => c.name === 'find' && c.collection === 'deliveries')).toEqual([]);
  });
});
