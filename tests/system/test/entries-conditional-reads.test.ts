// Conditional GETs and delta sync of travel entries through the gateway (issue 25; docs/decisions/0155,
// 0156, 0159): the entry list, one entry, one expense, the approval workflow and the journal accounts
// answer with an ETag and 304 while nothing changed, 200 with the new body after any write (an entry's
// expenses included), never a stale 304 under racing writes; the list syncs by updatedSince and
// nextCursor; a bad cursor is 400.
import type { ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';
import {
  deltaSync,
  expectBadCursorsRefused,
  expectChangedAfter,
  expectNoStaleNotModified,
  expectNotModifiedWhileUnchanged,
  RACING_READERS_ENV,
} from './support/conditional-checks';

const TRIP = { departureDate: '2026-11-02', returnDate: '2026-11-04' };

describe('entries: conditional reads and delta sync', () => {
  let stack: EntriesStack;
  let owner: ApiClient;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-conditional', RACING_READERS_ENV);
    owner = (await stack.tenant('CZ')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (body: Record<string, unknown> = {}) => {
    const res = await owner.post('/api/v1/travel-entries', { ...TRIP, destination: 'Brno', ...body });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
    return res.body;
  };
  /** A GET body PUT back with a new destination (a GET body is a valid PUT body). */
  const rename = async (id: string, destination: string) => {
    const current = await owner.get(`/api/v1/travel-entries/${id}`);
    const res = await owner.put(`/api/v1/travel-entries/${id}`, { ...current.body, destination });
    if (res.status !== 200) throw new Error(`put: ${res.status} ${res.text}`);
  };
  const addExpense = async (id: string, amount: number) => {
    const res = await owner.post(`/api/v1/travel-entries/${id}/expenses`, {
      kind: 'Parking',
      date: '2026-11-03',
      amount,
      currencyCode: 'CZK',
    });
    if (res.status !== 201) throw new Error(`expense: ${res.status} ${res.text}`);
    return res.body;
  };

  it('answers the list, an entry, an expense and the workflow with an ETag and 304 while nothing changed', async () => {
    const e = await create();
    const x = await addExpense(e.id, 100);
    for (const path of [
      '/api/v1/travel-entries?pageSize=5',
      `/api/v1/travel-entries/${e.id}`,
      `/api/v1/travel-entries/${e.id}/expenses/${x.id}`,
      '/api/v1/approval-workflow',
      '/api/v1/journal-accounts',
    ])
      await expectNotModifiedWhileUnchanged(owner, path);
  });

  it('answers 200 with the new body after a write of the entry, of an expense and of the workflow', async () => {
    const e = await create();
    const path = `/api/v1/travel-entries/${e.id}`;
    const listPath = `/api/v1/travel-entries?employeeId=${e.employeeId}&pageSize=100`;
    const renamed = await expectChangedAfter(owner, path, () => rename(e.id, 'Ostrava'));
    expect(renamed.destination).toBe('Ostrava');
    const relisted = await expectChangedAfter(owner, listPath, () => rename(e.id, 'Olomouc'));
    expect(relisted.items.find((i: { id: string }) => i.id === e.id).destination).toBe('Olomouc');
    // An expense is a write of its entry: the entry's and the list's answers change with it.
    const withExpense = await expectChangedAfter(owner, path, () => addExpense(e.id, 250));
    expect(withExpense.expenses.map((x: { amount: number }) => x.amount)).toContain(250);
    const created = await create();
    const afterCreate = await owner.get(listPath);
    expect(afterCreate.body.items.map((i: { id: string }) => i.id)).toContain(created.id);
    const deleted = await expectChangedAfter(owner, listPath, async () =>
      expect((await owner.delete(`/api/v1/travel-entries/${created.id}`)).status).toBe(204),
    );
    expect(deleted.items.map((i: { id: string }) => i.id)).not.toContain(created.id);

    const tenant = await stack.tenant('HR');
    const me = await tenant.api.get(`/api/v1/employees/${tenant.employeeId}`);
    expect(me.status).toBe(200);
    const workflow = await expectChangedAfter(tenant.api, '/api/v1/approval-workflow', async () => {
      const res = await tenant.api.put('/api/v1/approval-workflow', {
        settlementSteps: [{ approverIds: [tenant.employeeId] }],
        tripApprovalSteps: [],
        fallbackApproverIds: [],
      });
      expect(res.status === 200 ? '' : res.text).toBe('');
    });
    expect(workflow.settlementSteps).toEqual([{ approverIds: [tenant.employeeId] }]);

    const got = (await owner.get('/api/v1/journal-accounts')).body;
    const accounts = await expectChangedAfter(owner, '/api/v1/journal-accounts', async () => {
      const res = await owner.put('/api/v1/journal-accounts', { ...got, accounts: { ...got.accounts, bank: '221' } });
      expect(res.status === 200 ? '' : res.text).toBe('');
    });
    expect(accounts.accounts.bank).toBe('221');
  });

  it('never answers 304 for a body older than a write finished before the read began', async () => {
    const e = await create({ departureDate: '2026-07-15', returnDate: '2026-07-16', destination: 'd0' });
    await expectNoStaleNotModified(
      owner,
      [`/api/v1/travel-entries/${e.id}`, '/api/v1/travel-entries?dateFrom=2026-07-15&dateTo=2026-07-15'],
      (k) => rename(e.id, `d${k}`),
      (body) => Number(String(body.items ? body.items[0].destination : body.destination).slice(1)),
    );
  });

  it('delta sync: updatedSince and nextCursor give exactly the entries edited since, oldest edit first', async () => {
    const t = (await stack.tenant('PL')).api;
    const made = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.post('/api/v1/travel-entries', { ...TRIP, destination: `Sync${i}` });
      expect(res.status).toBe(201);
      made.push(res.body);
    }
    await new Promise((resolve) => setTimeout(resolve, 5)); // editedAt has millisecond precision
    const since = new Date().toISOString();
    const changed = [made[3], made[0], made[2]];
    for (const e of changed) {
      const current = await t.get(`/api/v1/travel-entries/${e.id}`);
      expect((await t.put(`/api/v1/travel-entries/${e.id}`, { ...current.body, destination: 'New' })).status).toBe(200);
    }
    expect(await deltaSync(t, '/api/v1/travel-entries', since)).toEqual(changed.map((e) => e.id));
    const first = await t.get(`/api/v1/travel-entries?updatedSince=${since}&pageSize=2`);
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, total: 3, totalPages: 2 });
  });

  it('refuses a malformed, altered or foreign cursor with 400 VALIDATION_FAILED under cursor', async () => {
    await create();
    await create();
    await expectBadCursorsRefused(owner, '/api/v1/travel-entries', 'isRequest=true');
  });
});
