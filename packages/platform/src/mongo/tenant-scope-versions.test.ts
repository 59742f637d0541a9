import type { Model } from 'mongoose';
import type { CollectionVersions } from './collection-versions';
import { TenantScope } from './tenant-scope';

/** A versioned scope over a fake model: what runs inside and outside the bracket, in order. */
function scopeWithCalls() {
  const calls: string[] = [];
  const versions = {
    around: jest.fn(async (_t: string, _c: string, write: () => Promise<unknown>) => {
      calls.push('begin');
      const result = await write();
      calls.push('end');
      return result;
    }),
  } as unknown as CollectionVersions;
  const query = {
    exec: jest.fn(async () => {
      calls.push('write');
      return { _id: 'a', n: 2 };
    }),
    lean() {
      return this;
    },
    // As mongoose's Query: awaiting it runs exec.
    then(resolve: (v: unknown) => unknown, reject: (e: unknown) => unknown) {
      return this.exec().then(resolve, reject);
    },
  };
  const model = {
    collection: { collectionName: 'subscriptions' },
    findOneAndUpdate: jest.fn(() => query),
  } as unknown as Model<{ tenantId: string }>;
  return { scope: new TenantScope(model, 't1', versions), calls, model };
}

describe('a versioned scope brackets findOneAndUpdate like every other write (0159)', () => {
  it('runs the query between the two bumps when it is awaited, with the tenant in the filter', async () => {
    const { scope, calls, model } = scopeWithCalls();
    const query = scope.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 1 } }, { new: true }).lean();
    expect(calls).toEqual([]); // nothing runs before it is awaited
    await expect(query).resolves.toEqual({ _id: 'a', n: 2 });
    expect(calls).toEqual(['begin', 'write', 'end']);
    expect(model.findOneAndUpdate).toHaveBeenCalledWith(
      { _id: 'a', tenantId: 't1' },
      { $inc: { n: 1 } },
      { new: true },
    );
  });
});
