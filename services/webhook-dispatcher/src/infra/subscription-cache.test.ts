import type { DispatcherModels, SubscriptionDoc } from './models';
import { SubscriptionCache } from './subscription-cache';

/** A stand-in Subscription model: counts the reads, answers what `docs` holds when the read is sent. */
function fakeModels(docs: SubscriptionDoc[]) {
  const reads: string[] = [];
  const models = {
    Subscription: {
      find: (filter: { tenantId: string }) => {
        reads.push(filter.tenantId);
        const snapshot = docs.filter((d) => d.tenantId === filter.tenantId);
        return { lean: () => new Promise((resolve) => setImmediate(() => resolve(snapshot))) };
      },
    },
  } as unknown as DispatcherModels;
  return { models, reads };
}

const sub = (id: string, tenantId = 't1') =>
  ({ _id: id, tenantId, eventTypes: ['employee.created'], isActive: true, createdAt: new Date() }) as SubscriptionDoc;

describe('SubscriptionCache', () => {
  it('shares one read between concurrent callers of a tenant', async () => {
    const { models, reads } = fakeModels([sub('s1')]);
    const cache = new SubscriptionCache(models, 60_000);
    const [a, b] = await Promise.all([cache.tenant('t1'), cache.tenant('t1')]);
    expect([...a.keys()]).toEqual(['s1']);
    expect(b).toBe(a);
    expect(reads).toEqual(['t1']);
  });

  it('reads again for an event raised after the cached read, so no subscription registered before it is missed', async () => {
    const docs = [sub('s1')];
    const { models, reads } = fakeModels(docs);
    const cache = new SubscriptionCache(models, 60_000);
    await cache.tenant('t1');
    docs.push(sub('s2'));
    const raisedLater = Date.now() + 1;
    await new Promise((r) => setTimeout(r, 5));
    const seen = await cache.tenant('t1', raisedLater);
    expect([...seen.keys()].sort()).toEqual(['s1', 's2']);
    expect(reads).toEqual(['t1', 't1']);
    // An event raised before that read is served from it.
    await cache.tenant('t1', raisedLater - 1);
    expect(reads).toHaveLength(2);
  });

  it('reads again once the entry is older than its time to live, and after an invalidation', async () => {
    const { models, reads } = fakeModels([sub('s1'), sub('x', 't2')]);
    const cache = new SubscriptionCache(models, 0);
    await cache.tenant('t1');
    await cache.tenant('t1');
    expect(reads).toEqual(['t1', 't1']);
    const kept = new SubscriptionCache(models, 60_000);
    await kept.get('t2', 'x');
    kept.invalidate('t2');
    expect(await kept.get('t2', 'x')).toBeDefined();
    expect(reads).toEqual(['t1', 't1', 't2', 't2']);
  });

  it('keeps tenants apart', async () => {
    const { models } = fakeModels([sub('s1', 't1'), sub('s2', 't2')]);
    const cache = new SubscriptionCache(models, 60_000);
    expect(await cache.get('t1', 's2')).toBeUndefined();
    expect(await cache.get('t2', 's2')).toBeDefined();
  });
});
