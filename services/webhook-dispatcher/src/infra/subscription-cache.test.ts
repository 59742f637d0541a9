import { parseTenantId, type CollectionState } from '@travel/platform';
import type { DispatcherRepositories, SubscriptionDoc } from './repositories';
import { SubscriptionCache } from './subscription-cache';

/**
 * A stand-in store: the subscriptions and each tenant's version of them (0155). `write` changes the data
 * as a bracketed write does (the version bumped before and after); `pending` holds a write in flight.
 * Every read is logged in the order sent and answers what the store holds when it is sent.
 */
function fakeStore(docs: SubscriptionDoc[]) {
  const reads: string[] = [];
  const counters = new Map<string, { epoch: string; v: number; pending: number }>();
  const counter = (tenantId: string) => {
    if (!counters.has(tenantId)) counters.set(tenantId, { epoch: 'e1', v: 0, pending: 0 });
    return counters.get(tenantId)!;
  };
  const later = <T>(value: T) => new Promise<T>((resolve) => setImmediate(() => resolve(value)));
  const models = {
    versions: {
      state: (tenantId: string, collection: string): Promise<CollectionState> => {
        reads.push(`version ${tenantId}`);
        expect(collection).toBe('subscriptions');
        const c = counter(tenantId);
        return later({ epoch: c.epoch, version: c.v, settled: c.pending === 0, pending: c.pending });
      },
    },
    subscriptions: {
      collection: 'subscriptions',
      of: (tenantId: string) => ({
        find: () => {
          reads.push(`find ${tenantId}`);
          const snapshot = docs.filter((d) => d.tenantId === tenantId);
          return { lean: () => later(snapshot) };
        },
      }),
    },
  } as unknown as Pick<DispatcherRepositories, 'subscriptions' | 'versions'>;
  return {
    models,
    reads,
    /** A bracketed write of the tenant's subscriptions. */
    write(tenantId: string, change: () => void) {
      counter(tenantId).v += 1;
      change();
      counter(tenantId).v += 1;
    },
    /** A write begun (its data may have landed), not ended. */
    begin(tenantId: string, change: () => void) {
      counter(tenantId).v += 1;
      counter(tenantId).pending += 1;
      change();
      return () => {
        counter(tenantId).v += 1;
        counter(tenantId).pending -= 1;
      };
    },
    /** The store reset: a fresh counter document. */
    reset(tenantId: string) {
      counters.set(tenantId, { epoch: 'e2', v: counter(tenantId).v, pending: 0 });
    },
  };
}

const T1 = parseTenantId('t1');
const T2 = parseTenantId('t2');

const sub = (id: string, tenantId = 't1') =>
  ({ _id: id, tenantId, eventTypes: ['employee.created'], isActive: true, createdAt: new Date() }) as SubscriptionDoc;

/** A moment after every read sent so far started (an event raised now, handled a little later). */
async function raisedNow(): Promise<number> {
  const at = Date.now();
  await new Promise((r) => setTimeout(r, 2));
  return at;
}

describe('SubscriptionCache', () => {
  it('shares one refresh between concurrent callers of a tenant: the version, then the subscriptions', async () => {
    const { models, reads } = fakeStore([sub('s1')]);
    const cache = new SubscriptionCache(models, 60_000);
    const [a, b] = await Promise.all([cache.tenant(T1), cache.tenant(T1)]);
    expect([...a.keys()]).toEqual(['s1']);
    expect(b).toBe(a);
    // The version is read BEFORE the data: a write landing between them leaves the entry at the older
    // version, so it is read again next time rather than trusted.
    expect(reads).toEqual(['version t1', 'find t1']);
  });

  it('checks the version for an event raised after the cached read: unchanged, one version read, no subscriptions read', async () => {
    const { models, reads } = fakeStore([sub('s1'), sub('s2')]);
    const cache = new SubscriptionCache(models, 60_000);
    const first = await cache.tenant(T1);
    for (let i = 0; i < 3; i++) expect(await cache.tenant(T1, await raisedNow())).toBe(first);
    expect(reads).toEqual(['version t1', 'find t1', 'version t1', 'version t1', 'version t1']);
    // Each check counts as a read sent then: an event raised before the last one is served without a read.
    const last = Date.now() - 1;
    await cache.tenant(T1, last - 1);
    expect(reads).toHaveLength(5);
  });

  it('reads again when a subscription was written since, so no subscription registered before the event is missed', async () => {
    const docs = [sub('s1')];
    const store = fakeStore(docs);
    const cache = new SubscriptionCache(store.models, 60_000);
    await cache.tenant(T1);
    store.write('t1', () => docs.push(sub('s2')));
    const seen = await cache.tenant(T1, await raisedNow());
    expect([...seen.keys()].sort()).toEqual(['s1', 's2']);
    expect(store.reads).toEqual(['version t1', 'find t1', 'version t1', 'find t1']);
    // The new entry keeps the version read before its data: the next event costs a version read only.
    await cache.tenant(T1, await raisedNow());
    expect(store.reads).toEqual(['version t1', 'find t1', 'version t1', 'find t1', 'version t1']);
  });

  it('does not revalidate data read while a write was pending, nor across a store reset', async () => {
    const docs = [sub('s1')];
    const store = fakeStore(docs);
    const cache = new SubscriptionCache(store.models, 60_000);
    const end = store.begin('t1', () => docs.push(sub('s2')));
    await cache.tenant(T1);
    // The same version, still pending: the entry was read with a write in flight, which proves nothing.
    await cache.tenant(T1, await raisedNow());
    expect(store.reads).toEqual(['version t1', 'find t1', 'version t1', 'find t1']);
    end();
    await cache.tenant(T1, await raisedNow());
    await cache.tenant(T1, await raisedNow());
    expect(store.reads.slice(4)).toEqual(['version t1', 'find t1', 'version t1']);
    // A fresh counter document may repeat a version number: its epoch differs, so the data is read again.
    store.reset('t1');
    await cache.tenant(T1, await raisedNow());
    expect(store.reads.slice(7)).toEqual(['version t1', 'find t1']);
  });

  it('refreshes an entry older than its time to live, by version; reads again after an invalidation', async () => {
    const store = fakeStore([sub('s1'), sub('x', 't2')]);
    const cache = new SubscriptionCache(store.models, 0);
    await cache.tenant(T1);
    await cache.tenant(T1);
    expect(store.reads).toEqual(['version t1', 'find t1', 'version t1']);
    const kept = new SubscriptionCache(store.models, 60_000);
    await kept.get(T2, 'x');
    kept.invalidate('t2');
    expect(await kept.get(T2, 'x')).toBeDefined();
    expect(store.reads.slice(3)).toEqual(['version t2', 'find t2', 'version t2', 'find t2']);
  });

  it('keeps tenants apart', async () => {
    const { models } = fakeStore([sub('s1', 't1'), sub('s2', 't2')]);
    const cache = new SubscriptionCache(models, 60_000);
    expect(await cache.get(T1, 's2')).toBeUndefined();
    expect(await cache.get(T2, 's2')).toBeDefined();
  });

  it('spaces the refreshes a stream of events needs: one per tenant per minSpacingMs, shared by all that wait', async () => {
    const docs = [sub('s1')];
    const store = fakeStore(docs);
    const cache = new SubscriptionCache(store.models, 60_000, 10_000, 50);
    await cache.tenant(T1, Date.now() - 1);
    expect(store.reads).toHaveLength(2);
    // A subscription registered now, then three events raised after the first read: each needs a newer read.
    store.write('t1', () => docs.push(sub('s2')));
    const started = Date.now();
    const raised = () => Date.now() + 1;
    const waits = [];
    for (let i = 0; i < 3; i++) {
      waits.push(cache.tenant(T1, raised()));
      await new Promise((r) => setTimeout(r, 5));
    }
    const seen = await Promise.all(waits);
    // One refresh for the three, started no earlier than 50 ms after the first; every one sees s2.
    expect(store.reads).toEqual(['version t1', 'find t1', 'version t1', 'find t1']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    for (const m of seen) expect([...m.keys()].sort()).toEqual(['s1', 's2']);
    // Another tenant is not held back by this one's spacing.
    const before = Date.now();
    await cache.tenant(T2, raised());
    expect(Date.now() - before).toBeLessThan(40);
  });
});
