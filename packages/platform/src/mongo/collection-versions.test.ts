import type { Connection } from 'mongoose';
import { CollectionVersions } from './collection-versions';

/** The counter collection's calls, in order, with what they set. */
function fakeConnection(doc: Record<string, unknown> | null = null) {
  const calls: string[] = [];
  const collection = {
    findOne: jest.fn(async () => doc),
    updateOne: jest.fn(async (filter: Record<string, unknown>, update: Record<string, any>) => {
      const pendingKey = (obj?: Record<string, unknown>) =>
        Object.keys(obj ?? {}).find((k) => k.startsWith('pending.'));
      if (update.$set && pendingKey(update.$set)) calls.push('begin');
      else if (Object.keys(filter).some((k) => k.startsWith('pending.'))) calls.push('drop-expired');
      else if (update.$unset && pendingKey(update.$unset)) calls.push('end');
      expect(update.$inc).toEqual({ v: 1 });
      return { matchedCount: 1 };
    }),
  };
  return { conn: { collection: () => collection } as unknown as Connection, calls, collection };
}

describe('collection versions: every write bracketed by two bumps', () => {
  it('bumps before and after the write', async () => {
    const { conn, calls } = fakeConnection();
    const versions = new CollectionVersions(conn);
    await versions.around('t1', 'employees', async () => {
      calls.push('write');
    });
    expect(calls).toEqual(['begin', 'write', 'end']);
  });

  it('ends a write the server refused (it did not land)', async () => {
    const { conn, calls } = fakeConnection();
    const refused = Object.assign(new Error('E11000 duplicate key'), { name: 'MongoServerError' });
    await expect(
      new CollectionVersions(conn).around('t1', 'employees', async () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(calls).toEqual(['begin', 'end']);
  });

  it('keeps the result of a write whose end fails (the mark expires instead)', async () => {
    const { conn, collection } = fakeConnection();
    collection.updateOne
      .mockImplementationOnce(async () => ({ matchedCount: 1 }))
      .mockImplementationOnce(async () => {
        throw new Error('store away');
      });
    await expect(new CollectionVersions(conn).around('t1', 'employees', async () => 'written')).resolves.toBe(
      'written',
    );
  });

  it('ends a write mongoose refused before sending it', async () => {
    const { conn, calls } = fakeConnection();
    const invalid = Object.assign(new Error('firstName is required'), { name: 'ValidationError' });
    await expect(
      new CollectionVersions(conn).around('t1', 'employees', async () => {
        throw invalid;
      }),
    ).rejects.toBe(invalid);
    expect(calls).toEqual(['begin', 'end']);
  });

  it('leaves a write of unknown outcome pending (it may still land)', async () => {
    const { conn, calls } = fakeConnection();
    await expect(
      new CollectionVersions(conn).around('t1', 'employees', async () => {
        throw new Error('connection closed');
      }),
    ).rejects.toThrow('connection closed');
    expect(calls).toEqual(['begin']);
  });

  it('reads a collection without writes as version 0, settled', async () => {
    const { conn } = fakeConnection(null);
    expect(await new CollectionVersions(conn).state('t1', 'employees')).toEqual({
      epoch: 'none',
      version: 0,
      settled: true,
      pending: 0,
    });
  });

  it('is not settled while a write is pending; an expired mark is dropped with a bump', async () => {
    const soon = new Date(Date.now() + 30_000);
    const { conn: live } = fakeConnection({ _id: 't1/employees', epoch: 'ab', v: 7, pending: { w1: soon } });
    expect(await new CollectionVersions(live).state('t1', 'employees')).toEqual({
      epoch: 'ab',
      version: 7,
      settled: false,
      pending: 1,
    });
    const past = new Date(Date.now() - 1);
    const { conn: dead, calls } = fakeConnection({ _id: 't1/employees', epoch: 'ab', v: 7, pending: { w1: past } });
    expect((await new CollectionVersions(dead).state('t1', 'employees')).settled).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['drop-expired']);
  });
});

describe('collection versions: concurrent readers share reads, never one older than their request (0179)', () => {
  /** A counter whose reads answer when told to, each with the version the store holds when it began. */
  function gatedStore() {
    let v = 1;
    const began: number[] = [];
    const open: Array<() => void> = [];
    const collection = {
      findOne: jest.fn(() => {
        const seen = v;
        began.push(seen);
        return new Promise((resolve) =>
          open.push(() => resolve({ _id: 't1/employees', tenantId: 't1', epoch: 'e', v: seen })),
        );
      }),
    };
    const conn = { collection: () => collection } as unknown as Connection;
    const settle = async () => {
      open.shift()!();
      await new Promise((r) => setImmediate(r));
    };
    return { conn, began, settle, write: () => (v += 2) };
  }

  it('a reader arriving while a read is in flight waits for the next read; later arrivals join that one', async () => {
    const store = gatedStore();
    const versions = new CollectionVersions(store.conn);
    const first = versions.state('t1', 'employees');
    store.write(); // acknowledged before the next two readers ask
    const second = versions.state('t1', 'employees');
    const third = versions.state('t1', 'employees');
    expect(store.began).toEqual([1]); // one read in flight, begun before the write
    await store.settle();
    expect((await first).version).toBe(1);
    expect(store.began).toEqual([1, 3]); // one read for both waiting readers, begun after the write
    await store.settle();
    expect((await second).version).toBe(3);
    expect((await third).version).toBe(3);
  });

  it('a reader after the reads ended starts a read of its own', async () => {
    const store = gatedStore();
    const versions = new CollectionVersions(store.conn);
    const first = versions.state('t1', 'employees');
    await store.settle();
    await first;
    store.write();
    const later = versions.state('t1', 'employees');
    await store.settle();
    expect((await later).version).toBe(3);
    expect(store.began).toEqual([1, 3]);
  });

  it('a failed read fails its readers only; the queued read still runs', async () => {
    let calls = 0;
    const collection = {
      findOne: jest.fn(async () => {
        if (++calls === 1) throw new Error('store away');
        return { _id: 't1/employees', tenantId: 't1', epoch: 'e', v: 7 };
      }),
    };
    const versions = new CollectionVersions({ collection: () => collection } as unknown as Connection);
    const failed = versions.state('t1', 'employees');
    const queued = versions.state('t1', 'employees');
    await expect(failed).rejects.toThrow('store away');
    expect((await queued).version).toBe(7);
  });
});

describe('collection versions: concurrent writers of one process share a bracket (0234)', () => {
  /** A counter whose updates answer when told to; each call recorded with the mark it names. */
  function gatedCounter() {
    const calls: string[] = [];
    const open: Array<() => void> = [];
    const collection = {
      updateOne: jest.fn((_filter: Record<string, unknown>, update: Record<string, any>) => {
        const mark = (obj?: Record<string, unknown>) => Object.keys(obj ?? {}).find((k) => k.startsWith('pending.'));
        calls.push(update.$set && mark(update.$set) ? `begin ${mark(update.$set)}` : `end ${mark(update.$unset)}`);
        return new Promise((resolve) => open.push(() => resolve({ matchedCount: 1 })));
      }),
    };
    const conn = { collection: () => collection } as unknown as Connection;
    const answerNext = async () => {
      open.shift()!();
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    return { conn, calls, answerNext };
  }

  it('writers arriving while a begin is in flight join it: one begin, one end after the last write, answers after it', async () => {
    const { conn, calls, answerNext } = gatedCounter();
    const versions = new CollectionVersions(conn);
    const log: string[] = [];
    let finishSecond!: () => void;
    const first = versions.around('t1', 'employees', async () => void log.push('write 1'));
    const second = versions.around('t1', 'employees', () => {
      log.push('write 2');
      return new Promise<void>((resolve) => (finishSecond = resolve));
    });
    const answered: string[] = [];
    void first.then(() => answered.push('first'));
    void second.then(() => answered.push('second'));
    expect(calls).toHaveLength(1); // the second writer joined the first one's begin
    expect(log).toEqual([]); // nobody writes before the begin is acknowledged
    await answerNext();
    expect(log).toEqual(['write 1', 'write 2']);
    expect(calls).toHaveLength(1); // the first write is over, the second not: no end yet
    expect(answered).toEqual([]);
    finishSecond();
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(2);
    expect(calls[1]!.replace('end ', '')).toBe(calls[0]!.replace('begin ', '')); // the same mark ends
    expect(answered).toEqual([]); // nobody is answered before the end is acknowledged
    await answerNext();
    expect(answered.sort()).toEqual(['first', 'second']);
  });

  it('a writer arriving while the first write is under way joins; one arriving after it is over opens a bracket of its own', async () => {
    const { conn, calls, answerNext } = gatedCounter();
    const versions = new CollectionVersions(conn);
    let finishFirst!: () => void;
    const first = versions.around('t1', 'employees', () => new Promise<void>((resolve) => (finishFirst = resolve)));
    await answerNext(); // first's begin acknowledged; its write in flight
    const written: string[] = [];
    const joined = versions.around('t1', 'employees', async () => void written.push('joined'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(['joined']); // under the acknowledged begin: no begin of its own
    expect(calls).toHaveLength(1);
    finishFirst();
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(2); // the shared end
    const late = versions.around('t1', 'employees', async () => undefined);
    expect(calls).toHaveLength(3);
    expect(calls[2]).toMatch(/^begin /);
    expect(calls[2]!.replace('begin ', '')).not.toBe(calls[0]!.replace('begin ', ''));
    await answerNext(); // the shared end
    await expect(first).resolves.toBeUndefined();
    await expect(joined).resolves.toBeUndefined();
    await answerNext(); // late's begin
    await answerNext(); // late's end
    await expect(late).resolves.toBeUndefined();
    expect(calls.filter((c) => c.startsWith('end'))).toHaveLength(2);
  });

  it('a member whose write may still land leaves the shared mark to expire; the others keep their answers', async () => {
    const { conn, calls, answerNext } = gatedCounter();
    const versions = new CollectionVersions(conn);
    const landed = versions.around('t1', 'employees', async () => 'written');
    const lost = versions.around('t1', 'employees', async () => {
      throw new Error('connection closed');
    });
    const lostAnswer = expect(lost).rejects.toThrow('connection closed');
    await answerNext();
    await lostAnswer;
    await expect(landed).resolves.toBe('written');
    expect(calls.filter((c) => c.startsWith('end'))).toEqual([]);
  });

  it('brackets of different collections are not shared', async () => {
    const { conn, calls } = gatedCounter();
    const versions = new CollectionVersions(conn);
    void versions.around('t1', 'employees', async () => undefined);
    void versions.around('t1', 'departments', async () => undefined);
    void versions.around('t2', 'employees', async () => undefined);
    expect(calls).toHaveLength(3);
  });
});
