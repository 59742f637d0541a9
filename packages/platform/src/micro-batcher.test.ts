import { MicroBatcher, type BatchResult } from './micro-batcher';

/** A `send` that records each batch and answers each item doubled, failing the items listed. */
function recorder(failing: number[] = []) {
  const batches: number[][] = [];
  const send = async (items: number[]): Promise<BatchResult<number>[]> => {
    batches.push(items);
    return items.map((n) =>
      failing.includes(n) ? { ok: false, error: new Error(`refused ${n}`) } : { ok: true, value: n * 2 },
    );
  };
  return { batches, send };
}

describe('MicroBatcher', () => {
  it('sends the items added within one window as one batch and gives each caller its own result', async () => {
    const { batches, send } = recorder();
    const batcher = new MicroBatcher(send, { windowMs: 5, maxSize: 100 });
    await expect(Promise.all([batcher.add(1), batcher.add(2), batcher.add(3)])).resolves.toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('fails only the caller whose item the batch refused', async () => {
    const { send } = recorder([2]);
    const batcher = new MicroBatcher(send, { windowMs: 5, maxSize: 100 });
    const results = await Promise.allSettled([batcher.add(1), batcher.add(2)]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 2 });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: new Error('refused 2') });
  });

  it('fails every caller of a batch whose send failed as a whole', async () => {
    const batcher = new MicroBatcher<number, number>(() => Promise.reject(new Error('store down')), {
      windowMs: 5,
      maxSize: 100,
    });
    const results = await Promise.allSettled([batcher.add(1), batcher.add(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('sends a full batch at once, counted in the size of its items, without waiting for the window', async () => {
    const { batches, send } = recorder();
    const batcher = new MicroBatcher(send, { windowMs: 60_000, maxSize: 5, sizeOf: (n: number) => n });
    await Promise.all([batcher.add(2), batcher.add(3)]);
    expect(batches).toEqual([[2, 3]]);
  });

  it('starts a new batch after a full one', async () => {
    const { batches, send } = recorder();
    const batcher = new MicroBatcher(send, { windowMs: 5, maxSize: 2 });
    await Promise.all([1, 2, 3].map((n) => batcher.add(n)));
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('sends each item at once with a window of 0', async () => {
    const { batches, send } = recorder();
    const batcher = new MicroBatcher(send, { windowMs: 0, maxSize: 100 });
    await Promise.all([batcher.add(1), batcher.add(2)]);
    expect(batches).toEqual([[1], [2]]);
  });
});
