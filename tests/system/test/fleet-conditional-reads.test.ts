// Conditional GETs and delta sync of vehicles and what hangs on them through the gateway (issue 25;
// docs/decisions/0155, 0156, 0159): the vehicle list, one vehicle, its costs, documents and deadlines
// answer with an ETag and 304 while nothing changed, 200 with the new body after a write, never a stale
// 304 under racing writes; every list syncs by updatedSince and nextCursor; a bad cursor is 400.
import type { ApiClient } from '@travel/testkit';
import { pdf } from '@travel/fleet/test/support/sample-files';
import { startFleetStack, type FleetStack } from './support/fleet-stack';
import {
  deltaSync,
  expectBadCursorsRefused,
  expectChangedAfter,
  expectNoStaleNotModified,
  expectNotModifiedWhileUnchanged,
  RACING_READERS_ENV,
} from './support/conditional-checks';

const fuel = (date = '2026-10-12') => ({ date, kind: 'Fuel', amount: 84.37, currency: 'EUR', odometerKm: 48210 });
const upload = (name: string) => {
  const f = new FormData();
  f.append('files', new Blob([new Uint8Array(pdf())], { type: 'application/pdf' }), name);
  return f;
};

describe('fleet: conditional reads and delta sync', () => {
  let stack: FleetStack;

  beforeAll(async () => {
    stack = await startFleetStack('fleet-conditional', RACING_READERS_ENV);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const vehicle = async (api: ApiClient, name = 'Van') => {
    const res = await api.post('/api/v1/vehicles', { type: 'Company', name, category: 1 });
    if (res.status !== 201) throw new Error(`vehicle: ${res.status} ${res.text}`);
    return res.body as { id: string };
  };
  const rename = async (api: ApiClient, id: string, name: string) => {
    const res = await api.put(`/api/v1/vehicles/${id}`, { type: 'Company', name, category: 1 });
    if (res.status !== 200) throw new Error(`put: ${res.status} ${res.text}`);
  };
  const post = async (api: ApiClient, path: string, body: unknown) => {
    const res = await api.post(path, body as never);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };

  it('answers the vehicles, a vehicle, its costs, documents and deadlines with an ETag and 304', async () => {
    const { api } = await stack.tenant('HR');
    const v = await vehicle(api);
    await post(api, `/api/v1/vehicles/${v.id}/costs`, fuel());
    await post(api, `/api/v1/vehicles/${v.id}/documents`, upload('a.pdf'));
    await post(api, `/api/v1/vehicles/${v.id}/deadlines`, { kind: 'Insurance', dueDate: '2027-01-01' });
    for (const path of [
      '/api/v1/vehicles',
      `/api/v1/vehicles/${v.id}`,
      `/api/v1/vehicles/${v.id}/costs`,
      `/api/v1/vehicles/${v.id}/documents`,
      `/api/v1/vehicles/${v.id}/deadlines`,
    ])
      await expectNotModifiedWhileUnchanged(api, path);
  });

  it('answers 200 with the new body after a write of the vehicle, a cost, a document and a deadline', async () => {
    const { api } = await stack.tenant('CZ');
    const v = await vehicle(api);
    const one = `/api/v1/vehicles/${v.id}`;
    expect((await expectChangedAfter(api, one, () => rename(api, v.id, 'Truck'))).name).toBe('Truck');
    const listed = await expectChangedAfter(api, '/api/v1/vehicles', () => expectArchived(api, v.id));
    expect(listed.items.find((x: { id: string }) => x.id === v.id).isArchived).toBe(true);
    await api.post(`/api/v1/vehicles/${v.id}/unarchive`);
    const costs = await expectChangedAfter(api, `${one}/costs`, () => post(api, `${one}/costs`, fuel()));
    expect(costs.items).toHaveLength(1);
    const documents = await expectChangedAfter(api, `${one}/documents`, () =>
      post(api, `${one}/documents`, upload('b.pdf')),
    );
    expect(documents.items.map((d: { fileName: string }) => d.fileName)).toEqual(['b.pdf']);
    const deadlines = await expectChangedAfter(api, `${one}/deadlines`, () =>
      post(api, `${one}/deadlines`, { kind: 'Insurance', dueDate: '2027-02-01' }),
    );
    expect(deadlines.items).toHaveLength(1);
    const gone = await expectChangedAfter(api, `${one}/costs`, async () =>
      expect((await api.delete(`${one}/costs/${costs.items[0].id}`)).status).toBe(204),
    );
    expect(gone.items).toHaveLength(0);
  });

  const expectArchived = async (api: ApiClient, id: string) =>
    expect((await api.post(`/api/v1/vehicles/${id}/archive`)).status).toBe(200);

  it('never answers 304 for a body older than a write finished before the read began', async () => {
    const { api } = await stack.tenant('PL');
    const v = await vehicle(api, 'v0');
    await expectNoStaleNotModified(
      api,
      [`/api/v1/vehicles/${v.id}`, '/api/v1/vehicles'],
      (k) => rename(api, v.id, `v${k}`),
      (body) => Number(String(body.items ? body.items[0].name : body.name).slice(1)),
    );
  });

  it('delta sync: vehicles, costs, documents and deadlines changed since, oldest change first', async () => {
    const { api } = await stack.tenant('SK');
    const vs = [];
    for (let i = 0; i < 4; i++) vs.push(await vehicle(api, `Sync${i}`));
    await new Promise((resolve) => setTimeout(resolve, 5)); // editedAt has millisecond precision
    const since = new Date().toISOString();
    const changed = [vs[2]!, vs[0]!, vs[3]!];
    for (const v of changed) await rename(api, v.id, `New ${v.id}`);
    expect(await deltaSync(api, '/api/v1/vehicles', since)).toEqual(changed.map((v) => v.id));

    const one = `/api/v1/vehicles/${vs[1]!.id}`;
    const costs = [];
    for (const date of ['2026-10-01', '2026-10-02', '2026-10-03'])
      costs.push(await post(api, `${one}/costs`, fuel(date)));
    expect(await deltaSync(api, `${one}/costs`, since)).toEqual(costs.map((c) => c.id));
    const docs = [];
    for (const name of ['x.pdf', 'y.pdf', 'z.pdf'])
      docs.push(...(await post(api, `${one}/documents`, upload(name))).items);
    expect(await deltaSync(api, `${one}/documents`, since, 2, { editedField: 'uploadedAt' })).toEqual(
      docs.map((d) => d.id),
    );
    const deadlines = [];
    for (const dueDate of ['2027-03-01', '2027-04-01', '2027-05-01'])
      deadlines.push(await post(api, `${one}/deadlines`, { kind: 'Custom', title: dueDate, dueDate }));
    expect(await deltaSync(api, `${one}/deadlines`, since)).toEqual(deadlines.map((d) => d.id));
  });

  it('refuses a malformed, altered or foreign cursor with 400 VALIDATION_FAILED under cursor', async () => {
    const { api } = await stack.tenant('SI');
    const v = await vehicle(api);
    await vehicle(api);
    await expectBadCursorsRefused(api, '/api/v1/vehicles', 'type=Company');
    const one = `/api/v1/vehicles/${v.id}`;
    await post(api, `${one}/costs`, fuel('2026-10-01'));
    await post(api, `${one}/costs`, fuel('2026-10-02'));
    await expectBadCursorsRefused(api, `${one}/costs`, 'kind=Fuel');
  });
});
