import { AppError } from '../errors';
import { decodeCursor, encodeCursor, listPage, listRequest, ListTotals, queryKey } from './list-page';

const fieldError = (run: () => unknown): Record<string, string[]> | undefined => {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('VALIDATION_FAILED');
    return (err as AppError).errors;
  }
  throw new Error('expected a 400');
};

describe('listRequest: page, updatedSince and cursor as every list reads them', () => {
  it('reads updatedSince as an instant and keeps the page defaults', () => {
    expect(listRequest({ updatedSince: '2026-11-26T05:00:00Z' })).toEqual({
      page: 1,
      pageSize: 20,
      updatedSince: new Date('2026-11-26T05:00:00Z'),
    });
  });
  it('refuses an updatedSince that is no instant', () => {
    expect(fieldError(() => listRequest({ updatedSince: 'yesterday' }))).toHaveProperty('updatedSince');
  });
  it('refuses a page other than 1 with a cursor or updatedSince: the cursor says where to go on', () => {
    expect(fieldError(() => listRequest({ page: 2, cursor: 'abc' }))).toHaveProperty('page');
    expect(fieldError(() => listRequest({ page: 3, updatedSince: '2026-11-26T05:00:00Z' }))).toHaveProperty('page');
  });
});

describe('cursors: opaque, and refused for another query', () => {
  const key = queryKey({ status: 'Active' }, new Date('2026-11-26T00:00:00Z'));
  const position = {
    editedAt: new Date('2026-11-26T05:06:07.089Z'),
    id: '6f1c1d2e-0000-4000-8000-000000000001',
    total: 120,
  };

  it('comes back as the position it was made of', () => {
    const cursor = encodeCursor(position, key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, key)).toEqual(position);
  });
  it('is refused for another filter or another updatedSince', () => {
    const cursor = encodeCursor(position, key);
    expect(
      fieldError(() => decodeCursor(cursor, queryKey({ status: 'Inactive' }, new Date('2026-11-26T00:00:00Z')))),
    ).toHaveProperty('cursor');
    expect(fieldError(() => decodeCursor(cursor, queryKey({ status: 'Active' })))).toHaveProperty('cursor');
  });
  it.each([
    ['not base64url', 'a b+c'],
    ['no JSON', Buffer.from('nope').toString('base64url')],
    ['not the shape', Buffer.from(JSON.stringify({ a: 1 })).toString('base64url')],
    ['no instant', Buffer.from(JSON.stringify(['x', 'id', 'k', 1])).toString('base64url')],
    ['an empty id', Buffer.from(JSON.stringify([1, '', 'k', 1])).toString('base64url')],
    ['a negative total', Buffer.from(JSON.stringify([1, 'id', 'k', -1])).toString('base64url')],
    ['too long', 'A'.repeat(201)],
  ])('refuses %s with 400 under cursor', (_what, cursor) => {
    expect(fieldError(() => decodeCursor(cursor, key))).toHaveProperty('cursor');
  });
  it('tells regular expressions apart in the query key', () => {
    expect(queryKey({ name: /^a/i })).not.toBe(queryKey({ name: /^b/i }));
  });
});

describe('ListTotals: a total while the collection version stays', () => {
  const at = (version: number, settled = true) => ({ epoch: 'e1', version, settled, pending: settled ? 0 : 1 });
  it('answers the total of the same version, not of another, nor while a write is in flight', () => {
    const totals = new ListTotals();
    totals.set('k', at(4), 200);
    expect(totals.get('k', at(4))).toBe(200);
    expect(totals.get('k', at(5))).toBeUndefined();
    expect(totals.get('k', at(4, false))).toBeUndefined();
    expect(totals.get('k', { epoch: 'e2', version: 4, settled: true, pending: 0 })).toBeUndefined();
    totals.set('j', at(6, false), 7);
    expect(totals.get('j', at(6))).toBeUndefined();
  });
  it('stays bounded', () => {
    const totals = new ListTotals(2);
    totals.set('a', at(1), 1);
    totals.set('b', at(1), 2);
    totals.set('c', at(1), 3);
    expect(totals.get('c', at(1))).toBe(3);
    expect([totals.get('a', at(1)), totals.get('b', at(1))]).toEqual([undefined, undefined]);
  });
});

describe('listPage in delta sync: keyset pages, and a count only when there is a next page', () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({
    _id: `id${i}`,
    editedAt: new Date(Date.UTC(2026, 10, 26, 5, 0, i)),
  }));
  function fakeScope() {
    const finds: Array<Record<string, unknown>> = [];
    const scope = {
      tenantId: 't1',
      collection: 'employees',
      count: jest.fn(() => ({ exec: async () => rows.length })),
      find: (filter: Record<string, unknown>) => {
        finds.push(filter);
        let limit = Infinity;
        const chain = {
          sort: () => chain,
          skip: () => chain,
          limit: (n: number) => ((limit = n), chain),
          lean: async () => rows.filter((r) => !filter.$and || r._id > 'id1').slice(0, limit),
        };
        return chain;
      },
    };
    return { scope: scope as never, finds, count: scope.count };
  }
  const since = { updatedSince: new Date('2026-11-26T00:00:00Z') };

  it('a delta within one page is its own total, uncounted', async () => {
    const { scope, count } = fakeScope();
    const page = await listPage(scope, {}, { page: 1, pageSize: 10, ...since }, { name: 1 }, (r) => r._id);
    expect(page).toMatchObject({ items: ['id0', 'id1', 'id2', 'id3', 'id4'], total: 5, nextCursor: null });
    expect(count).not.toHaveBeenCalled();
  });

  it('a longer delta is counted once; the next page takes the total from the cursor and starts after it', async () => {
    const { scope, count, finds } = fakeScope();
    const first = await listPage(scope, {}, { page: 1, pageSize: 2, ...since }, { name: 1 }, (r) => r._id);
    expect(first).toMatchObject({ items: ['id0', 'id1'], total: 5, totalPages: 3 });
    expect(count).toHaveBeenCalledTimes(1);
    const next = await listPage(
      scope,
      {},
      { page: 1, pageSize: 2, ...since, cursor: first.nextCursor! },
      { name: 1 },
      (r) => r._id,
    );
    expect(next).toMatchObject({ items: ['id2', 'id3'], total: 5 });
    expect(count).toHaveBeenCalledTimes(1);
    expect(finds[1]!.$and).toEqual([
      { $or: [{ editedAt: { $gt: rows[1]!.editedAt } }, { editedAt: rows[1]!.editedAt, _id: { $gt: 'id1' } }] },
    ]);
  });
});
