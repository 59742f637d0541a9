// Travel entries through the gateway: create (defaults, the spec's fields, atomic refusal), detail, list
// with its filters, full-replace PUT (a GET body PUT back is valid; omitted fields cleared), soft delete,
// the visibility/edit matrix of docs/decisions/0044 and another tenant's entry as 404.
import { crossTenant } from '@travel/platform';
import type { ListParams } from '@travel/client';
import type { ApiClient } from '@travel/testkit';
import { limitedCaller } from '@travel/employees/test/support/org-fixtures';
import { registerModels } from '@travel/entries/src/infra/models';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

// Direct store probes of the test look across tenants on purpose (docs/decisions/0081).
const TEST_PROBE = crossTenant('test probe');

const TRIP = { departureDate: '2026-11-02', returnDate: '2026-11-04' };

describe('entries: records', () => {
  let stack: EntriesStack;
  let owner: ApiClient;
  let ownerEmployeeId: string;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-records');
    const t = await stack.tenant('CZ');
    owner = t.api;
    ownerEmployeeId = t.employeeId;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (api: ApiClient, body: Record<string, unknown>) => {
    const res = await api.post('/api/v1/travel-entries', body);
    if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
    return res.body;
  };

  describe('create', () => {
    it('fills the defaults: Draft, no phase, an entry number for an order, the caller as employee, advance dated on departure', async () => {
      const e = await create(owner, { ...TRIP, destination: 'Brno' });
      expect(e).toMatchObject({
        employeeId: ownerEmployeeId,
        status: 0,
        phase: null,
        isRequest: false,
        locked: false,
        isPaidOut: false,
        paidOutAt: null,
        advancePayment: 0,
        currencyCode: 'CZK',
        advancePaymentDate: '2026-11-02',
        advancePaymentInBaseCurrency: 0,
        advancePaymentExchangeRateSource: null,
        manualAdvanceExchangeRate: null,
        baseCurrency: 'CZK',
        costCenterAllocations: [],
        destination: 'Brno',
        travelType: 'Domestic',
      });
      expect(e.entryNumber).toMatch(new RegExp(`^${new Date().getUTCFullYear()}-\\d{5}$`));
      expect(e.createdAt).toBe(e.editedAt);
    });

    it('issues entry numbers once per tenant in sequence; a trip request has none', async () => {
      const a = await create(owner, TRIP);
      const b = await create(owner, TRIP);
      const seq = (n: string) => Number(n.split('-')[1]);
      expect(seq(b.entryNumber)).toBe(seq(a.entryNumber) + 1);
      const request = await create(owner, { ...TRIP, isRequest: true });
      expect(request.entryNumber).toBe('');
      expect(request.isRequest).toBe(true);
      const other = await stack.tenant('CZ');
      expect((await create(other.api, TRIP)).entryNumber).toMatch(/-00001$/);
    });

    it('entry numbers stay unique when many orders are created at once (one atomic counter)', async () => {
      const t = await stack.tenant('PL');
      const made = await Promise.all(Array.from({ length: 8 }, () => create(t.api, TRIP)));
      const numbers = made.map((e) => Number(e.entryNumber.split('-')[1])).sort((a, b) => a - b);
      expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });

    it('stores place ids and an ISO country code as sent, and the advance in the base currency', async () => {
      const e = await create(owner, {
        ...TRIP,
        departureLocationPlaceId: 'ChIJi3lwCZyTC0cRkEAWZg-vAAQ',
        destinationPlaceId: 'ChIJEVE_wDqUEkcRsLEUZg-vAAQ',
        destinationCountryCode: 'SK',
        advancePayment: 1500.5,
        advancePaymentDate: '2026-10-30',
      });
      expect(e).toMatchObject({
        departureLocationPlaceId: 'ChIJi3lwCZyTC0cRkEAWZg-vAAQ',
        destinationPlaceId: 'ChIJEVE_wDqUEkcRsLEUZg-vAAQ',
        destinationCountryCode: 'SK',
        advancePayment: 1500.5,
        advancePaymentInBaseCurrency: 1500.5,
        advancePaymentDate: '2026-10-30',
      });
      expect((await owner.get(`/api/v1/travel-entries/${e.id}`)).body).toEqual(e);
    });

    it('refuses bad input with 400 and field errors, and stores nothing', async () => {
      const { Entry } = registerModels(stack.entries.deps.mongo);
      const before = await Entry.countDocuments({}, TEST_PROBE);
      for (const [body, key] of [
        [{ ...TRIP, destinationCountryCode: 'XX' }, 'destinationCountryCode'],
        [{ ...TRIP, destinationCountryCode: 'cz' }, 'destinationCountryCode'],
        [{ ...TRIP, returnDate: '2026-11-01' }, 'returnDate'],
        [{ ...TRIP, advancePayment: 10.555 }, 'advancePayment'],
        [{ ...TRIP, advancePayment: -1 }, 'advancePayment'],
        [{ ...TRIP, departureDate: '2026-02-30' }, 'departureDate'],
        [{ ...TRIP, unknownField: 1 }, 'unknownField'],
        [{ returnDate: TRIP.returnDate }, 'departureDate'],
        [{ ...TRIP, employeeId: '7d2b0c1e-0000-4000-8000-000000000000' }, 'employeeId'],
      ] as const) {
        const res = await owner.post('/api/v1/travel-entries', body);
        expect({ key, status: res.status, code: res.body.code }).toEqual({
          key,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
        expect(Object.keys(res.body.errors).join(' ')).toContain(key);
      }
      expect(await Entry.countDocuments({}, TEST_PROBE)).toBe(before);
    });
  });

  describe('update', () => {
    it('a GET body PUT back is valid and changes nothing (editedAt kept)', async () => {
      const e = await create(owner, {
        ...TRIP,
        destination: 'Olomouc',
        description: 'Audit',
        destinationCountryCode: 'CZ',
      });
      const res = await owner.put(`/api/v1/travel-entries/${e.id}`, e);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(e);
    });

    it('is a full replace: omitted optional fields are cleared, echoed ones kept', async () => {
      const e = await create(owner, {
        ...TRIP,
        destination: 'Ostrava',
        purpose: 'Training',
        destinationPlaceId: 'place-1',
        advancePayment: 300,
      });
      const res = await owner.put(`/api/v1/travel-entries/${e.id}`, {
        departureDate: '2026-11-03',
        returnDate: '2026-11-05',
        destinationPlaceId: 'place-1',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        departureDate: '2026-11-03',
        returnDate: '2026-11-05',
        destination: null,
        purpose: null,
        destinationPlaceId: 'place-1',
        advancePayment: 0,
        advancePaymentDate: '2026-11-03',
        entryNumber: e.entryNumber,
        createdAt: e.createdAt,
      });
      expect(res.body.editedAt > e.editedAt).toBe(true);
      expect((await owner.get(`/api/v1/travel-entries/${e.id}`)).body).toEqual(res.body);
    });

    it('ignores read-only fields but refuses unknown ones and a changed employee', async () => {
      const e = await create(owner, TRIP);
      const ro = await owner.put(`/api/v1/travel-entries/${e.id}`, {
        ...e,
        status: 3,
        entryNumber: 'X',
        locked: true,
        isPaidOut: true,
      });
      expect(ro.status).toBe(200);
      expect(ro.body).toMatchObject({ status: 0, entryNumber: e.entryNumber, locked: false, isPaidOut: false });
      expect((await owner.put(`/api/v1/travel-entries/${e.id}`, { ...e, extra: 1 })).status).toBe(400);
      const other = await owner.post('/api/v1/employees', { firstName: 'Other', lastName: 'Person' });
      const moved = await owner.put(`/api/v1/travel-entries/${e.id}`, { ...e, employeeId: other.body.id });
      expect(moved.status).toBe(400);
      expect(moved.body.errors.employeeId).toBeDefined();
    });

    it('a locked entry is 409 INVALID_STATE', async () => {
      const e = await create(owner, TRIP);
      await registerModels(stack.entries.deps.mongo).Entry.updateOne(
        { _id: e.id },
        { $set: { status: 3 } },
        TEST_PROBE,
      );
      const got = await owner.get(`/api/v1/travel-entries/${e.id}`);
      expect(got.body.locked).toBe(true);
      const res = await owner.put(`/api/v1/travel-entries/${e.id}`, { ...got.body, destination: 'Elsewhere' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('INVALID_STATE');
      expect((await owner.delete(`/api/v1/travel-entries/${e.id}`)).status).toBe(409);
    });
  });

  describe('list and delete', () => {
    it('filters by isRequest, employee, status and departure date range, newest first', async () => {
      const t = await stack.tenant('SK');
      const a = await create(t.api, { departureDate: '2026-03-01', returnDate: '2026-03-02' });
      const b = await create(t.api, { departureDate: '2026-04-01', returnDate: '2026-04-02', isRequest: true });
      const c = await create(t.api, { departureDate: '2026-05-01', returnDate: '2026-05-03' });
      // Every page of the list, through the typed client.
      const ids = async (query: ListParams<'/api/v1/travel-entries'>['query'] = {}) =>
        (await t.client.listAll('/api/v1/travel-entries', { query })).map((i) => i.id);
      expect(await ids()).toEqual([c.id, b.id, a.id]);
      expect(await ids({ isRequest: true })).toEqual([b.id]);
      expect(await ids({ isRequest: false })).toEqual([c.id, a.id]);
      expect(await ids({ dateFrom: '2026-04-01', dateTo: '2026-05-01' })).toEqual([c.id, b.id]);
      expect(await ids({ employeeId: t.employeeId, status: 0 })).toEqual([c.id, b.id, a.id]);
      expect(await ids({ status: 3 })).toEqual([]);
      const page = await t.api.get('/api/v1/travel-entries?pageSize=2&page=2');
      expect(page.body).toMatchObject({ page: 2, pageSize: 2, total: 3, totalPages: 2 });
      expect(page.body.items.map((i: { id: string }) => i.id)).toEqual([a.id]);
      expect(Object.keys(page.body.items[0])).not.toContain('description');
      expect((await t.api.get('/api/v1/travel-entries?pageSize=101')).status).toBe(400);
      expect((await t.api.get('/api/v1/travel-entries?status=9')).status).toBe(400);
      expect((await t.api.get('/api/v1/travel-entries?isRequest=maybe')).status).toBe(400);

      expect((await t.api.delete(`/api/v1/travel-entries/${b.id}`)).status).toBe(204);
      expect((await t.api.get(`/api/v1/travel-entries/${b.id}`)).status).toBe(404);
      expect((await t.api.delete(`/api/v1/travel-entries/${b.id}`)).status).toBe(404);
      expect(await ids()).toEqual([c.id, a.id]);
    });

    it("another tenant's entry is 404 for every operation", async () => {
      const e = await create(owner, TRIP);
      const other = (await stack.tenant('HR')).api;
      expect((await other.get(`/api/v1/travel-entries/${e.id}`)).status).toBe(404);
      expect((await other.put(`/api/v1/travel-entries/${e.id}`, TRIP)).status).toBe(404);
      expect((await other.delete(`/api/v1/travel-entries/${e.id}`)).status).toBe(404);
      expect((await other.get('/api/v1/travel-entries')).body.items.map((i: { id: string }) => i.id)).not.toContain(
        e.id,
      );
    });
  });

  it('the contract publishes the entry status, expense kind and TravelType allow-lists at /api-reference/', async () => {
    const doc = (await (await fetch(`${stack.gateway.url}/api-reference/openapi.json`)).json()) as {
      components: { schemas: Record<string, { enum?: unknown[] }> };
    };
    expect(doc.components.schemas.EntryStatus!.enum).toEqual([0, 1, 2, 3, 4, 5]);
    expect(doc.components.schemas.TravelType!.enum).toEqual(['Domestic', 'Foreign']);
    expect(doc.components.schemas.ExpenseKind!.enum).toContain('Mileage');
    // The reference page renders the contract it embeds (rendering itself: api-reference-page.test.ts).
    const page = await (await fetch(`${stack.gateway.url}/api-reference/`)).text();
    const embedded = /<script id="contract" type="application\/json">([\s\S]*?)<\/script>/.exec(page);
    const shown = JSON.parse(embedded![1]!) as typeof doc;
    for (const name of ['EntryStatus', 'ExpenseKind', 'TravelType'])
      expect(shown.components.schemas[name]!.enum).toEqual(doc.components.schemas[name]!.enum);
  });

  describe('who sees and edits what (decision 0044)', () => {
    it('without ReadAllEntries/EditAllEntries: own entries only; others are 404, naming another employee is 403', async () => {
      const plain = await limitedCaller(owner, []);
      const mine = await create(plain.api, TRIP);
      expect(mine.employeeId).toBe(plain.employeeId);
      const ownersEntry = await create(owner, TRIP);
      expect((await plain.api.get(`/api/v1/travel-entries/${ownersEntry.id}`)).status).toBe(404);
      expect((await plain.api.put(`/api/v1/travel-entries/${ownersEntry.id}`, TRIP)).status).toBe(404);
      const listed = (await plain.api.get(`/api/v1/travel-entries?employeeId=${ownerEmployeeId}`)).body;
      expect(listed.items).toEqual([]);
      expect((await plain.api.get('/api/v1/travel-entries')).body.items.map((i: { id: string }) => i.id)).toEqual([
        mine.id,
      ]);
      const forOwner = await plain.api.post('/api/v1/travel-entries', { ...TRIP, employeeId: ownerEmployeeId });
      expect(forOwner.status).toBe(403);
      expect((await plain.api.put(`/api/v1/travel-entries/${mine.id}`, { ...mine, destination: 'Mine' })).status).toBe(
        200,
      );
    });

    it('ReadAllEntries reads every entry but edits only its own (403)', async () => {
      const reader = await limitedCaller(owner, ['ReadAllEntries']);
      const ownersEntry = await create(owner, TRIP);
      const got = await reader.api.get(`/api/v1/travel-entries/${ownersEntry.id}`);
      expect(got.status).toBe(200);
      expect((await reader.api.put(`/api/v1/travel-entries/${ownersEntry.id}`, got.body)).status).toBe(403);
      expect((await reader.api.delete(`/api/v1/travel-entries/${ownersEntry.id}`)).status).toBe(403);
      expect((await reader.api.post('/api/v1/travel-entries', { ...TRIP, employeeId: ownerEmployeeId })).status).toBe(
        403,
      );
    });

    it('EditAllEntries creates, edits and deletes entries of other employees', async () => {
      const editor = await limitedCaller(owner, ['EditAllEntries']);
      const e = await create(editor.api, { ...TRIP, employeeId: ownerEmployeeId });
      expect(e.employeeId).toBe(ownerEmployeeId);
      expect(
        (await editor.api.put(`/api/v1/travel-entries/${e.id}`, { ...e, destination: 'Plzeň' })).body.destination,
      ).toBe('Plzeň');
      expect((await editor.api.delete(`/api/v1/travel-entries/${e.id}`)).status).toBe(204);
    });
  });
});
