import type { Request, Response } from 'express';
import type { CollectionState, CollectionVersions } from '../mongo/collection-versions';
import { answerByBody, callerView, ChangesWithTime, ConditionalReads, noneMatch } from './conditional-read';

const state = (version: number, pending = 0): CollectionState => ({
  epoch: 'e1',
  version,
  settled: pending === 0,
  pending,
});

function fakeVersions(states: Record<string, CollectionState>) {
  return { state: jest.fn(async (_t: string, c: string) => states[c]!) } as unknown as CollectionVersions;
}

function exchange(url: string, ifNoneMatch?: string) {
  const headers: Record<string, string> = {};
  const sent: { status: number; body?: string; json?: unknown } = { status: 200 };
  const req = { originalUrl: url, get: (name: string) => (name === 'if-none-match' ? ifNoneMatch : undefined) };
  const res = {
    vary: jest.fn(),
    set(name: string, value: string) {
      headers[name.toLowerCase()] = value;
      return res;
    },
    status(code: number) {
      sent.status = code;
      return res;
    },
    end: jest.fn(),
    type: () => res,
    send(body: string) {
      sent.body = body;
      return res;
    },
    json(body: unknown) {
      sent.json = body;
      return res;
    },
  };
  return { req: req as unknown as Request, res: res as unknown as Response, headers, sent };
}

const of = { tenantId: 't1', collections: ['employees'], view: 'e1|ManageEmployees' };

describe('conditional reads from collection versions', () => {
  it('answers 304 for the current ETag without producing the body', async () => {
    const reads = new ConditionalReads(fakeVersions({ employees: state(3) }));
    const produce = jest.fn(async () => ({ items: [] }));
    const first = exchange('/api/v1/employees');
    await reads.answer(first.req, first.res, of, produce);
    const tag = first.headers.etag!;
    expect(tag).toMatch(/^W\/"e1\.3-/);
    const again = exchange('/api/v1/employees', tag);
    await reads.answer(again.req, again.res, of, produce);
    expect(again.sent.status).toBe(304);
    expect(again.headers.etag).toBe(tag);
    expect(produce).toHaveBeenCalledTimes(1);
  });

  it('sends the body remembered for the same ETag without producing it again', async () => {
    const reads = new ConditionalReads(fakeVersions({ employees: state(3) }));
    const produce = jest.fn(async () => ({ items: [1] }));
    for (let i = 0; i < 3; i++) {
      const x = exchange('/api/v1/employees?page=1');
      await reads.answer(x.req, x.res, of, produce);
      expect(x.sent.body).toBe('{"items":[1]}');
    }
    expect(produce).toHaveBeenCalledTimes(1);
  });

  it('a body that changes with time alone is tagged by itself, never remembered nor 304 by the version', async () => {
    const reads = new ConditionalReads(fakeVersions({ employees: state(3) }));
    // A grace that ends at the same version: first shown, then gone, with no write in between.
    const bodies = [new ChangesWithTime({ graceEnd: '2026-11-26T07:00:00.000Z' }), { graceEnd: null }];
    const produce = jest.fn(async () => bodies.shift());
    const during = exchange('/api/v1/webhooks/w1');
    await reads.answer(during.req, during.res, of, produce);
    expect(during.sent.body).toBe('{"graceEnd":"2026-11-26T07:00:00.000Z"}');
    expect(during.headers.etag).not.toMatch(/^W\/"e1\.3-/);
    const after = exchange('/api/v1/webhooks/w1', during.headers.etag);
    await reads.answer(after.req, after.res, of, produce);
    expect([after.sent.status, after.sent.body]).toEqual([200, '{"graceEnd":null}']);
    expect(after.headers.etag).toMatch(/^W\/"e1\.3-/);
    expect(produce).toHaveBeenCalledTimes(2);
  });

  it('keeps the remembered bodies and their whole keys within their byte budget, oldest out first', async () => {
    // An entry costs its key (the whole tenant, URL, view and version: 35 characters here) and its body.
    const reads = new ConditionalReads(fakeVersions({ employees: state(3) }), { totalBytes: 100, maxBytes: 20 });
    const produce = jest.fn(async (n: number) => ({ n: 'x'.repeat(n) }));
    const read = async (url: string, n: number) => {
      const x = exchange(url);
      await reads.answer(x.req, x.res, of, () => produce(n));
    };
    await read('/a', 1); // 35 + 9 bytes
    await read('/b', 1); // 88 in all
    await read('/c', 1); // 132: /a goes
    await read('/big', 30); // larger than one body may be: not kept
    await read('/b', 1);
    await read('/c', 1);
    expect(produce).toHaveBeenCalledTimes(4);
    await read('/a', 1);
    await read('/big', 30);
    expect(produce).toHaveBeenCalledTimes(6);
  });

  it('while a write is in flight, a body read then is tagged and remembered by the last settled version (0179)', async () => {
    const versions = { employees: state(4, 1) };
    const reads = new ConditionalReads(fakeVersions(versions));
    const produce = jest.fn(async () => ({ items: [] }));
    const x = exchange('/api/v1/employees');
    await reads.answer(x.req, x.res, of, produce);
    expect(x.sent.status).toBe(200);
    expect(x.sent.body).toBe('{"items":[]}');
    expect(x.headers.etag).toBe(ConditionalReads.etag(of, '/api/v1/employees', [state(3)]));
    const again = exchange('/api/v1/employees');
    await reads.answer(again.req, again.res, of, produce);
    expect(again.sent.body).toBe('{"items":[]}');
    expect(produce).toHaveBeenCalledTimes(1);

    versions.employees = state(5); // the write ended: its client may hold its answer
    const after = exchange('/api/v1/employees', x.headers.etag);
    await reads.answer(after.req, after.res, of, produce);
    expect(after.sent.status).toBe(200);
    expect(produce).toHaveBeenCalledTimes(2);
  });

  it('answers by the last settled version while the writes begun since are all in flight, not after one ended', async () => {
    const versions = { employees: state(3) };
    const reads = new ConditionalReads(fakeVersions(versions));
    const produce = jest.fn(async () => ({ items: [versions.employees.version] }));
    const first = exchange('/api/v1/employees');
    await reads.answer(first.req, first.res, of, produce);
    const tag = first.headers.etag!;

    versions.employees = state(5, 2); // two writes began since version 3, none ended
    const during = exchange('/api/v1/employees', tag);
    await reads.answer(during.req, during.res, of, produce);
    expect(during.sent.status).toBe(304);
    const plain = exchange('/api/v1/employees');
    await reads.answer(plain.req, plain.res, of, produce);
    expect(plain.sent.body).toBe('{"items":[3]}');
    expect(produce).toHaveBeenCalledTimes(1);

    versions.employees = state(6, 1); // one of them ended: its client may have its answer
    const after = exchange('/api/v1/employees', tag);
    await reads.answer(after.req, after.res, of, produce);
    expect(after.sent.status).toBe(200);
    expect(after.sent.body).toBe('{"items":[6]}');
    expect(after.headers.etag).not.toBe(tag);
  });

  it('readers of one ETag that miss the remembered bodies together share one production (0179)', async () => {
    const reads = new ConditionalReads(fakeVersions({ employees: state(7) }));
    let release!: () => void;
    const produce = jest.fn(() => new Promise<object>((resolve) => (release = () => resolve({ items: [7] }))));
    const readers = [exchange('/api/v1/employees'), exchange('/api/v1/employees')];
    const answered = readers.map((x) => reads.answer(x.req, x.res, of, produce));
    await new Promise((r) => setImmediate(r));
    release();
    await Promise.all(answered);
    expect(produce).toHaveBeenCalledTimes(1);
    expect(readers.map((x) => x.sent.body)).toEqual(['{"items":[7]}', '{"items":[7]}']);
  });

  it('makes ETags differ by version, URL, tenant and view', () => {
    const base = ConditionalReads.etag(of, '/a', [state(1)]);
    expect(ConditionalReads.etag(of, '/a', [state(2)])).not.toBe(base);
    expect(ConditionalReads.etag(of, '/b', [state(1)])).not.toBe(base);
    expect(ConditionalReads.etag({ ...of, tenantId: 't2' }, '/a', [state(1)])).not.toBe(base);
    expect(ConditionalReads.etag({ ...of, view: 'e2|' }, '/a', [state(1)])).not.toBe(base);
    expect(ConditionalReads.etag(of, '/a', [{ ...state(1), epoch: 'e2' }])).not.toBe(base);
    expect(ConditionalReads.etag(of, '/a', [state(2, 1)])).toBe(base); // a write in flight since version 1
  });

  it('a caller view is the employee and the permissions, in any order', () => {
    const a = callerView({ employeeId: 'x', permissions: ['B', 'A'] });
    expect(a).toBe(callerView({ employeeId: 'x', permissions: ['A', 'B'] }));
    expect(a).not.toBe(callerView({ employeeId: 'x', permissions: ['A'] }));
    expect(a).not.toBe(callerView({ employeeId: 'y', permissions: ['A', 'B'] }));
  });

  it('If-None-Match compares weakly, in lists; * is not honoured', () => {
    expect(noneMatch('W/"a"', 'W/"a"')).toBe(true);
    expect(noneMatch('"a"', 'W/"a"')).toBe(true);
    expect(noneMatch('W/"b", W/"a"', 'W/"a"')).toBe(true);
    expect(noneMatch('*', 'W/"a"')).toBe(false);
    expect(noneMatch('W/"b"', 'W/"a"')).toBe(false);
    expect(noneMatch(undefined, 'W/"a"')).toBe(false);
  });
});

describe('reads tagged by their body (data not versioned, 0159)', () => {
  it('tags the body, answers 304 for that tag and 200 with a new tag once the body changed', () => {
    const first = exchange('/api/v1/webhooks/w1/deliveries');
    answerByBody(first.req, first.res, { items: [1] });
    expect(first.sent).toMatchObject({ status: 200, body: '{"items":[1]}' });
    const tag = first.headers.etag!;
    expect(tag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const same = exchange('/api/v1/webhooks/w1/deliveries', tag);
    answerByBody(same.req, same.res, { items: [1] });
    expect(same.sent.status).toBe(304);
    expect(same.sent.body).toBeUndefined();

    const changed = exchange('/api/v1/webhooks/w1/deliveries', tag);
    answerByBody(changed.req, changed.res, { items: [1, 2] });
    expect(changed.sent).toMatchObject({ status: 200, body: '{"items":[1,2]}' });
    expect(changed.headers.etag).not.toBe(tag);
  });
});
