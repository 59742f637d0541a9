import { OutcomeWriter, type OutcomeWrite } from './outcome-writer';

/** A stand-in for the driver's collection: records each bulkWrite and applies a compare-and-set by hand. */
function fakeCollection(rows: Map<string, { attemptsMade: number; attemptLog: Array<{ token: string }> }>) {
  const commands: number[] = [];
  const collection = {
    async bulkWrite(ops: Array<{ updateOne: { filter: { _id: string; attemptsMade: number }; update: any } }>) {
      commands.push(ops.length);
      let modifiedCount = 0;
      for (const { updateOne } of ops) {
        const row = rows.get(updateOne.filter._id);
        if (!row || row.attemptsMade !== updateOne.filter.attemptsMade) continue;
        row.attemptsMade = updateOne.update.$set.attemptsMade;
        row.attemptLog.push(updateOne.update.$push.attemptLog);
        modifiedCount++;
      }
      return { modifiedCount };
    },
    find(filter: { _id: { $in: string[] } }) {
      return { toArray: async () => filter._id.$in.map((id) => ({ _id: id, ...rows.get(id) })) };
    },
  };
  return { collection, commands };
}

const write = (deliveryId: string, token: string): OutcomeWrite => ({
  deliveryId,
  token,
  filter: { _id: deliveryId, attemptsMade: 0 },
  update: { $set: { attemptsMade: 1 }, $push: { attemptLog: { token } } },
});

describe('OutcomeWriter', () => {
  it('sends the writes of one window as one command and settles each after it', async () => {
    const rows = new Map(['a', 'b', 'c'].map((id) => [id, { attemptsMade: 0, attemptLog: [] }]));
    const { collection, commands } = fakeCollection(rows);
    const writer = new OutcomeWriter(() => collection as never, 5);
    const results = await Promise.all(
      [write('a', 't1'), write('b', 't2'), write('c', 't3')].map((w) => writer.write(w)),
    );
    expect(results).toEqual([true, true, true]);
    expect(commands).toEqual([3]);
    expect(rows.get('b')!.attemptsMade).toBe(1);
  });

  it('tells which of two writes of the same attempt won, by token', async () => {
    const rows = new Map([['a', { attemptsMade: 0, attemptLog: [] as Array<{ token: string }> }]]);
    const { collection } = fakeCollection(rows);
    const writer = new OutcomeWriter(() => collection as never, 5);
    const results = await Promise.all([writer.write(write('a', 'first')), writer.write(write('a', 'second'))]);
    expect(results).toEqual([true, false]);
    expect(rows.get('a')!.attemptLog).toEqual([{ token: 'first' }]);
  });

  it('fails every write of a batch whose command failed', async () => {
    const collection = { bulkWrite: () => Promise.reject(new Error('store down')) };
    const writer = new OutcomeWriter(() => collection as never, 5);
    const results = await Promise.allSettled([writer.write(write('a', 't1')), writer.write(write('b', 't2'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('sends a full batch at once, without waiting for the window', async () => {
    const rows = new Map(['a', 'b'].map((id) => [id, { attemptsMade: 0, attemptLog: [] }]));
    const { collection, commands } = fakeCollection(rows);
    const writer = new OutcomeWriter(() => collection as never, 60_000, 2);
    await Promise.all([writer.write(write('a', 't1')), writer.write(write('b', 't2'))]);
    expect(commands).toEqual([2]);
  });

  it('never sends more than 64 statements in one command (decision 0087)', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `d${i}`);
    const rows = new Map(ids.map((id) => [id, { attemptsMade: 0, attemptLog: [] }]));
    const { collection, commands } = fakeCollection(rows);
    const writer = new OutcomeWriter(() => collection as never, 5);
    const won = await Promise.all(ids.map((id) => writer.write(write(id, `t-${id}`))));
    expect(won.every(Boolean)).toBe(true);
    expect(commands).toEqual([64, 64, 22]);
  });
});
