import { parseTenantId } from '@travel/platform';
import type { DispatcherRepositories, SubscriptionDoc } from './repositories';
import { SubscriptionCache } from './subscription-cache';

/** A stand-in subscriptions repository: counts the reads, answers what `docs` holds when the read is sent. */
function fakeModels(docs: SubscriptionDoc[]) {
  const reads: string[] = [];
  const models = {
    subscriptions: {
      of: (tenantId: string) => ({
        find: () => {
          reads.push(tenantId);
          const snapshot = docs.filter((d) => d.tenantId === tenantId);
          return { lean: () => new Promise((resolve) => setImmediate(() => resolve(snapshot))) };
        },
      }),
    },
  } as unknown as Pick<DispatcherRepositories, 'subscriptions'>;
  return { models, reads };
}

const T1 = parseTenantId('t1');
const T2 = parseTenantId('t2');

const sub = (id: string, tenantId = 't1') =>
  ({ _id: id, tenantId, eventTypes: ['employee.created'], isActive: true, createdAt: new Date() }) as SubscriptionDoc;

describe('SubscriptionCache', () => {
  it('shares one read between concurrent callers of a tenant', async () => {
    const { models, reads } = fakeModels([sub('s1')]);
    const cache = new SubscriptionCache(models, 60_000);
    const [a, b] = await Promise.all([cache.tenant(T1), cache.tenant(T1)]);
    expect([...a.keys()]).toEqual(['s1']);
    expect(b).toBe(a);
    expect(reads).toEqual(['t1']);
  });

  it('reads again for an event raised after the cached read, so no subscription registered before it is missed', async () => {
    const docs = [sub('s1')];
    const { models, reads } = fakeModels(docs);
    const cache = new SubscriptionCache(models, 60_000);
    await cache.tenant(T1);
    docs.push(sub('s2'));
    const raisedLater = Date.now() + 1;
    await new Promise((r) => setTimeout(r, 5));
    const seen = await cache.tenant(T1, raisedLater);
    expect([...seen.keys()].sort()).toEqual(['s1', 's2']);
    expect(reads).toEqual(['t1', 't1']);
    // An event raised before that read is served from it.
    await cache.tenant(T1, raisedLater - 1);
    expect(reads).toHaveLength(2);
  });

  it('reads again once the entry is older than its time to live, and after an invalidation', async () => {
    const { models, reads } = fakeModels([sub('s1'), sub('x', 't2')]);
    const cache = new SubscriptionCache(models, 0);
    await cache.tenant(T1);
    await cache.tenant(T1);
    expect(reads).toEqual(['t1', 't1']);
    const kept = new SubscriptionCache(models, 60_000);
    await kept.get(T2, 'x');
    kept.invalidate('t2');
    expect(await kept.get(T2, 'x')).toBeDefined();
    expect(reads).toEqual(['t1', 't1', 't2', 't2']);
  });

  it('keeps tenants apart', async () => {
    const { models } = fakeModels([sub('s1', 't1'), sub('s2', 't2')]);
    const cache = new SubscriptionCache(models, 60_000);
    expect(await cache.get(T1, 's2')).toBeUndefined();
    expect(await cache.get(T2, 's2')).toBeDefined();
  });

  it('spaces the reads a stream of events needs: one read per tenant per minSpacingMs, shared by all that wait', async () => {
    const docs = [sub('s1')];
    const { models, reads } = fakeModels(docs);
    const cache = new SubscriptionCache(models, 60_000, 10_000, 50);
    await cache.tenant(T1, Date.now() - 1);
    expect(reads).toHaveLength(1);
    // A subscription registered now, then three events raised after the first read: each needs a newer read.
    docs.push(sub('s2'));
    const started = Date.now();
    const raised = () => Date.now() + 1;
    const waits = [];
    for (let i = 0; i < 3; i++) {
      waits.push(cache.tenant(T1, raised()));
      await new Promise((r) => setTimeout(r, 5));
    }
    const seen = await Promise.all(waits);
    // One read for the three, started no earlier than 50 ms after the first; every one sees s2.
    expect(reads).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    for (const m of seen) expect([...m.keys()].sort()).toEqual(['s1', 's2']);
    // Another tenant is not held back by this one's spacing.
    const before = Date.now();
    await cache.tenant(T2, raised());
    expect(Date.now() - before).toBeLessThan(40);
  });
});
