// The typed client (packages/client, issue 24 part 3) against the real stack through the gateway: every
// page of a list with `for await`, the documented error body as a typed error on a 400 and a 404, and the
// payout procedure of SPEC "Payouts" end to end while an entry moves between pages.
import { randomUUID } from 'node:crypto';
import { TravelApiError, type ReadyForPayout } from '@travel/client';
import { eventually } from '@travel/testkit';
import { startPayoutsStack, type PayoutsStack } from './support/payouts-stack';
import { approvedEntry, readyIds, untilReady } from './support/ready-entries';

describe('typed client through the gateway', () => {
  let stack: PayoutsStack;

  beforeAll(async () => {
    stack = await startPayoutsStack('client');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('for await reads every page of a list, page after page until page >= totalPages', async () => {
    const { client } = await stack.tenant('CZ');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await approvedEntry(client, 100 + i));
    await untilReady(client, ids);

    const pages = [];
    for await (const page of client.pages('/api/v1/payouts/ready', undefined, { pageSize: 2 })) pages.push(page);
    expect(pages.map(({ page, pageSize, total, totalPages }) => ({ page, pageSize, total, totalPages }))).toEqual([
      { page: 1, pageSize: 2, total: 5, totalPages: 3 },
      { page: 2, pageSize: 2, total: 5, totalPages: 3 },
      { page: 3, pageSize: 2, total: 5, totalPages: 3 },
    ]);
    const items: string[] = [];
    for await (const row of client.paginate('/api/v1/payouts/ready', undefined, { pageSize: 2 })) items.push(row.id);
    // SPEC: most recently approved first.
    expect(items).toEqual([...ids].reverse());

    // Any list, with its filters: the employees of the company (the owner and three more).
    for (let i = 0; i < 3; i++)
      await client.api.POST('/api/v1/employees', { body: { firstName: 'Paged', lastName: `Employee ${i}` } });
    const employees = await client.listAll('/api/v1/employees', { query: { q: 'Paged' } }, { pageSize: 2 });
    expect(employees.map((e) => e.lastName).sort()).toEqual(['Employee 0', 'Employee 1', 'Employee 2']);
  });

  it('a 400 and a 404 throw the documented error body as a TravelApiError', async () => {
    const { client } = await stack.tenant('CZ');
    const invalid = await client.api
      .GET('/api/v1/payouts/ready', { params: { query: { pageSize: 101 } } })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(TravelApiError);
    expect(invalid).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      errors: { pageSize: expect.any(Array) },
      traceId: expect.any(String),
    });

    const missing = await client.api
      .GET('/api/v1/payouts/{id}', { params: { path: { id: randomUUID() } } })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(TravelApiError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND', errors: {} });
  });

  it('the payout procedure pays every ready entry once, though one moved between pages while it read', async () => {
    const { client } = await stack.tenant('CZ');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await approvedEntry(client, 200 + i));
    await untilReady(client, ids);

    // After the first page, another entry is approved: it goes first in the list (most recently approved
    // first) and pushes the last row of page 1 onto page 2, so that row is read twice.
    const seenPages: ReadyForPayout[][] = [];
    let late = '';
    const result = await client.payOutReadyEntries({
      payoutMethod: 'BankTransfer',
      pageSize: 2,
      async onPage(page, index) {
        seenPages.push(page.items);
        if (index > 0) return;
        late = await approvedEntry(client, 999);
        await untilReady(client, [late, ...ids]);
      },
    });

    const [page1, page2] = seenPages.map((items) => items.map((r) => r.id));
    expect(page1).toEqual([ids[2], ids[1]]);
    expect(page2).toEqual([ids[1], ids[0]]); // the duplicate the procedure must remove
    expect(result.readyEntryIds).toEqual([ids[2], ids[1], ids[0]]);
    expect(result.refused).toEqual({});
    expect(result.batches).toHaveLength(1);
    expect(result.batches[0]!.entries.map((e) => e.entryId).sort()).toEqual([...ids].sort());

    for (const id of ids) {
      const { data } = await client.api.GET('/api/v1/travel-entries/{id}', { params: { path: { id } } });
      expect(data!.isPaidOut).toBe(true);
    }
    // The late entry was approved after its page had been read: it waits for the next run.
    await eventually(async () => {
      const left = await readyIds(client);
      return left.length === 1 && left[0] === late;
    });
    const next = await client.payOutReadyEntries({ payoutMethod: 'Cash' });
    expect(next.batches[0]!.entries.map((e) => e.entryId)).toEqual([late]);
  });
});
