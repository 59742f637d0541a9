// The delivery indexes of decision 0239 on a store made before it: the unique key moves to (tenant, event,
// subscription), the lookup by event goes. Two replicas starting together run the migration at once, and the
// old unique index is dropped only once the new one exists. Replicas here are two connections to one database.
import { randomUUID } from 'node:crypto';
import { retireDeliveryIndexes } from '../src/infra/migrations';
import { registerModels, type DispatcherModels } from '../src/infra/models';
import { monitoredConnection, type MonitoredConnection } from '@travel/testkit';
import { storedDelivery, twoReplicas } from './support/stored-docs';

interface Replica extends MonitoredConnection {
  models: DispatcherModels;
}

/** Index commands on deliveries, in order: `createIndexes <keys>` or `dropIndexes <name>`. */
function indexCommands(name: string, command: Record<string, unknown>): string[] {
  if (command[name] !== 'deliveries') return [];
  // The driver sends each key as a Map (its order is the index's).
  if (name === 'createIndexes')
    return (command.indexes as Array<{ key: Map<string, unknown> }>).map(
      (index) => `createIndexes ${[...index.key.keys()].join(',')}`,
    );
  return name === 'dropIndexes' ? [`dropIndexes ${String(command.index)}`] : [];
}

async function replica(db: string): Promise<Replica> {
  const monitored = await monitoredConnection(db, indexCommands);
  return { ...monitored, models: registerModels(monitored.conn) };
}

const row = (tenantId: string, eventId: string, subscriptionId: string) =>
  storedDelivery({ tenantId, eventId, subscriptionId });

describe('delivery indexes after 0239', () => {
  const replicas = twoReplicas('delidx', replica);

  it('two replicas starting together replace the old unique key and the lookup by event; rows stay unique throughout', async () => {
    const { a, b } = replicas;
    // A store as the dispatcher left it before 0239: four indexes besides _id, and rows.
    const rows = a.conn.db!.collection('deliveries');
    await rows.createIndex({ tenantId: 1, subscriptionId: 1, eventId: 1 }, { unique: true });
    await rows.createIndex({ tenantId: 1, subscriptionId: 1, createdAt: -1 });
    await rows.createIndex({ createdAt: 1 });
    await rows.createIndex({ tenantId: 1, eventId: 1 });
    const [tenant, event, sub] = [randomUUID(), randomUUID(), randomUUID()];
    await rows.insertOne(row(tenant, event, sub) as never);
    a.commands.length = 0;
    b.commands.length = 0;

    const dropped = await Promise.all([retireDeliveryIndexes(a.models), retireDeliveryIndexes(b.models)]);

    // Each retired index dropped once, by one replica or the other.
    expect(dropped[0] + dropped[1]).toBe(2);
    const keys = (await rows.indexes()).map((i) => Object.keys(i.key).join(',')).sort();
    expect(keys).toEqual(
      ['_id', 'tenantId,eventId,subscriptionId', 'tenantId,subscriptionId,createdAt', 'createdAt'].sort(),
    );
    expect((await rows.indexes()).find((i) => i.name === 'tenantId_1_eventId_1_subscriptionId_1')?.unique).toBe(true);
    // Each replica built the new unique index before it dropped anything.
    for (const { commands } of [a, b]) {
      const built = commands.indexOf('createIndexes tenantId,eventId,subscriptionId');
      expect(built).toBeGreaterThanOrEqual(0);
      commands.slice(0, built).forEach((c) => expect(c).not.toMatch(/^dropIndexes/));
    }
    // A second row for the same event and subscription is refused by the new key.
    await expect(rows.insertOne(row(tenant, event, sub) as never)).rejects.toMatchObject({ code: 11000 });
    // Nothing left to do at the next start.
    expect(await retireDeliveryIndexes(a.models)).toBe(0);
  });
});
