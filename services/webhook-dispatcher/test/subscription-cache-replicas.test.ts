// The subscription cache across replicas (docs/decisions/0238): each dispatcher replica keeps its own cache
// and checks it against the tenant's subscriptions version (0155) instead of reading every subscription
// again. A change made through another replica bumps that version, so the next event raised after it sees
// the change. Two replicas here are two connections to one database, each with its own repositories and
// cache, as two processes have.
import { randomUUID } from 'node:crypto';
import { parseTenantId } from '@travel/platform';
import { dispatcherRepositories, type DispatcherRepositories } from '../src/infra/repositories';
import { SubscriptionCache } from '../src/infra/subscription-cache';
import { monitoredConnection, type MonitoredConnection } from '@travel/testkit';
import { storedSubscription, twoReplicas } from './support/stored-docs';

interface Replica extends MonitoredConnection {
  repos: DispatcherRepositories;
}

async function replica(db: string): Promise<Replica> {
  // Each command as `name collection`.
  const monitored = await monitoredConnection(db, (name, command) => {
    const target = command[name];
    return [`${name} ${typeof target === 'string' ? target : ''}`];
  });
  return { ...monitored, repos: dispatcherRepositories(monitored.conn) };
}

/** An event raised now, handled a moment later (after every read sent so far began). */
async function raisedNow(): Promise<number> {
  const at = Date.now();
  await new Promise((r) => setTimeout(r, 2));
  return at;
}

describe('subscription cache across replicas', () => {
  const tenant = parseTenantId(randomUUID());
  const replicas = twoReplicas('subcache', replica);

  const subscription = (id: string) => storedSubscription({ _id: id });

  it('checks a stream of events by one version read each, and sees a change made through another replica at the next event', async () => {
    const { a, b } = replicas;
    await b.repos.subscriptions.of(tenant).create(subscription('s1'));
    // Replica A's cache, with no spacing: every event raised after its last read needs a refresh.
    const cache = new SubscriptionCache(a.repos, 60_000);
    a.commands.length = 0;
    await cache.tenant(tenant, await raisedNow());
    expect(a.commands).toEqual(['find collection_versions', 'find subscriptions']);

    // Nothing changed: each later event costs the point read of the counter document, no subscription read.
    a.commands.length = 0;
    for (let i = 0; i < 3; i++) expect([...(await cache.tenant(tenant, await raisedNow())).keys()]).toEqual(['s1']);
    expect(a.commands).toEqual(Array(3).fill('find collection_versions'));

    // Replica B registers s2 and disables s1; the next event raised after that, on A, sees both changes.
    await b.repos.subscriptions.of(tenant).create(subscription('s2'));
    await b.repos.subscriptions.of(tenant).updateOne({ _id: 's1' }, { $set: { isActive: false } });
    a.commands.length = 0;
    const seen = await cache.tenant(tenant, await raisedNow());
    expect([...seen.keys()].sort()).toEqual(['s1', 's2']);
    expect(seen.get('s1')?.isActive).toBe(false);
    expect(a.commands).toEqual(['find collection_versions', 'find subscriptions']);
  });

  it('an attempt (no event time) sees a change made through another replica once the entry outlived its time to live', async () => {
    const { a, b } = replicas;
    const other = parseTenantId(randomUUID());
    await b.repos.subscriptions.of(other).create(subscription('s3'));
    const cache = new SubscriptionCache(a.repos, 100);
    expect((await cache.get(other, 's3'))?.isActive).toBe(true);
    await b.repos.subscriptions.of(other).updateOne({ _id: 's3' }, { $set: { isActive: false } });
    await new Promise((r) => setTimeout(r, 120));
    expect((await cache.get(other, 's3'))?.isActive).toBe(false);
  });
});
