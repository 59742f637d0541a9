// Conditional GETs and delta sync of payouts through the gateway (issue 25; docs/decisions/0155, 0156,
// 0159): the ready-for-payout list, the batch history and one batch answer with an ETag and 304 while
// nothing changed, 200 with the new body after a write (the projection's consumer, a batch made or
// undone), never a stale 304 under racing approvals; both lists sync by updatedSince and nextCursor; a bad
// cursor is 400.
import { eventually } from '@travel/testkit';
import { startPayoutsStack, type PayoutsStack } from './support/payouts-stack';
import { approvedEntry, untilReady } from './support/ready-entries';
import {
  deltaSync,
  etagOf,
  expectBadCursorsRefused,
  expectChangedAfter,
  expectNoStaleNotModified,
  expectNotModifiedWhileUnchanged,
  RACING_READERS_ENV,
} from './support/conditional-checks';

describe('payouts: conditional reads and delta sync', () => {
  let stack: PayoutsStack;

  beforeAll(async () => {
    stack = await startPayoutsStack('payouts-conditional', RACING_READERS_ENV);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers the ready list, the history and a batch with an ETag and 304, and changes with every write', async () => {
    const t = await stack.tenant('CZ');
    const a = await approvedEntry(t.client, 1000);
    await untilReady(t.client, [a]);
    const batch = await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [a] });
    expect(batch.status).toBe(201);
    for (const path of ['/api/v1/payouts/ready', '/api/v1/payouts', `/api/v1/payouts/${batch.body.id}`])
      await expectNotModifiedWhileUnchanged(t.api, path);

    // The projection is written by the consumer of entries' events: the list changes when it has.
    let b = '';
    const ready = await expectChangedAfter(t.api, '/api/v1/payouts/ready', async () => {
      b = await approvedEntry(t.client, 200);
      await untilReady(t.client, [b]);
    });
    expect(ready.items.map((r: { id: string }) => r.id)).toEqual([b]);
    let second = '';
    const history = await expectChangedAfter(t.api, '/api/v1/payouts', async () => {
      const made = await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [b] });
      expect(made.status).toBe(201);
      second = made.body.id;
    });
    expect(history.items.map((x: { id: string }) => x.id)).toContain(second);
    // Undone: gone from the history, and its own read is 404, never a 304 of the old body.
    const one = `/api/v1/payouts/${second}`;
    const before = await t.api.get(one);
    const listed = await t.api.get('/api/v1/payouts');
    expect((await t.api.delete(one)).status).toBe(204);
    expect((await t.api.get(one, { 'if-none-match': etagOf(before)! })).status).toBe(404);
    const relisted = await t.api.get('/api/v1/payouts', { 'if-none-match': etagOf(listed)! });
    expect(relisted.status).toBe(200);
    expect(relisted.body.items.map((x: { id: string }) => x.id)).not.toContain(second);
  });

  it('never answers 304 for a ready list older than an approval listed before the read began', async () => {
    const t = await stack.tenant('PL');
    await expectNoStaleNotModified(
      t.api,
      ['/api/v1/payouts/ready?pageSize=100'],
      async (k) => {
        await approvedEntry(t.client, 10 + k, 0, 'PLN');
        await eventually(async () => (await t.api.get('/api/v1/payouts/ready?pageSize=100')).body.total >= k, 15_000);
      },
      (body) => body.total,
      8,
    );
  });

  it('delta sync: the ready rows and the batches changed since, oldest change first', async () => {
    const t = await stack.tenant('HR');
    const since = new Date().toISOString();
    const ids = [];
    for (const amount of [100, 200, 300]) {
      const id = await approvedEntry(t.client, amount, 0, 'EUR');
      await untilReady(t.client, [...ids, id]);
      ids.push(id);
    }
    expect(await deltaSync(t.api, '/api/v1/payouts/ready', since)).toEqual(ids);
    const batches = [];
    for (const id of ids)
      batches.push((await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [id] })).body.id);
    expect(await deltaSync(t.api, '/api/v1/payouts', since)).toEqual(batches);
  });

  it('refuses a malformed, altered or foreign cursor with 400 VALIDATION_FAILED under cursor', async () => {
    const t = await stack.tenant('SK');
    const a = await approvedEntry(t.client, 100, 0, 'EUR');
    const b = await approvedEntry(t.client, 150, 0, 'EUR');
    await untilReady(t.client, [a, b]);
    await expectBadCursorsRefused(t.api, '/api/v1/payouts/ready', 'pageSize=5');
  });
});
