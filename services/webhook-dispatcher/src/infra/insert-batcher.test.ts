import { InsertBatcher } from './insert-batcher';

/** A stand-in for the driver's collection: unique `_id`s, unordered insertMany with per-document errors. */
function fakeCollection(rejectIds: string[] = []) {
  const stored = new Set<string>();
  const commands: number[] = [];
  const collection = {
    async insertMany(docs: Array<{ _id: string }>, options: { ordered: boolean }) {
      expect(options.ordered).toBe(false);
      commands.push(docs.length);
      const writeErrors: Array<{ index: number; code: number }> = [];
      docs.forEach((d, index) => {
        if (rejectIds.includes(d._id)) writeErrors.push({ index, code: 121 });
        else if (stored.has(d._id)) writeErrors.push({ index, code: 11000 });
        else stored.add(d._id);
      });
      if (writeErrors.length > 0) throw Object.assign(new Error('bulk write error'), { writeErrors });
      return { insertedCount: docs.length };
    },
  };
  return { collection, commands, stored };
}

describe('InsertBatcher', () => {
  it("sends the inserts of one window as one command and tells each caller its documents' fate", async () => {
    const { collection, commands, stored } = fakeCollection();
    stored.add('b2');
    const batcher = new InsertBatcher(() => collection as never, 5);
    const [a, b] = await Promise.all([
      batcher.insert([{ _id: 'a1' }, { _id: 'a2' }]),
      batcher.insert([{ _id: 'b1' }, { _id: 'b2' }, { _id: 'b3' }]),
    ]);
    expect(commands).toEqual([5]);
    expect(a).toEqual(['inserted', 'inserted']);
    expect(b).toEqual(['inserted', 'duplicate', 'inserted']);
  });

  it('fails only the caller whose document was refused for another reason than a duplicate', async () => {
    const { collection } = fakeCollection(['bad']);
    const batcher = new InsertBatcher(() => collection as never, 5);
    const [ok, bad] = await Promise.allSettled([batcher.insert([{ _id: 'x' }]), batcher.insert([{ _id: 'bad' }])]);
    expect(ok).toEqual({ status: 'fulfilled', value: ['inserted'] });
    expect(bad.status).toBe('rejected');
  });

  it('fails every caller when the command fails as a whole', async () => {
    const collection = { insertMany: () => Promise.reject(new Error('store down')) };
    const batcher = new InsertBatcher(() => collection as never, 5);
    const results = await Promise.allSettled([batcher.insert([{ _id: 'a' }]), batcher.insert([{ _id: 'b' }])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('sends at once when the batch is full', async () => {
    const { collection, commands } = fakeCollection();
    const batcher = new InsertBatcher(() => collection as never, 60_000, 3);
    await batcher.insert([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }]);
    expect(commands).toEqual([3]);
  });
});
