// Cost centers through the gateway: create, read, full-replace update, delete and the paged list; codes
// unique per company (409); deletes refused while an employee may charge one (409); ManageCompanyData for
// every write, with and without the flag; another company's record is 404.
import type { ApiClient } from '@travel/testkit';
import { allBut, costCenter, employee, limitedCaller, unique } from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

describe('cost centers', () => {
  let stack: E2eStack;
  let api: ApiClient;

  beforeAll(async () => {
    stack = await startE2eStack('org-cc', { RATE_LIMIT_BURST: '5000' });
    api = (await stack.tenant('SI')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('create, read, update (full replace) and delete', async () => {
    const created = await api.post('/api/v1/cost-centers', {
      name: ' Field work ',
      code: 'CC-100',
      description: 'Trips to sites\nand customers',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Field work',
      code: 'CC-100',
      description: 'Trips to sites\nand customers',
      isActive: true,
      createdAt: expect.any(String),
      editedAt: created.body.createdAt,
    });
    const id = created.body.id;
    expect((await api.get(`/api/v1/cost-centers/${id}`)).body).toEqual(created.body);

    const deactivated = await api.put(`/api/v1/cost-centers/${id}`, {
      name: 'Field work',
      code: 'CC-100',
      isActive: false,
    });
    expect(deactivated.status).toBe(200);
    // Full replace: the omitted description is cleared.
    expect(deactivated.body).toMatchObject({
      id,
      isActive: false,
      description: null,
      createdAt: created.body.createdAt,
    });
    // …and an omitted isActive is true again.
    expect((await api.put(`/api/v1/cost-centers/${id}`, { name: 'Field work', code: 'CC-100' })).body.isActive).toBe(
      true,
    );

    expect((await api.delete(`/api/v1/cost-centers/${id}`)).status).toBe(204);
    expect((await api.get(`/api/v1/cost-centers/${id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/cost-centers/${id}`)).status).toBe(404);
  });

  it('codes are unique per company, case-insensitively: 409 on create and update; other companies may reuse them', async () => {
    const code = unique('CC-');
    await costCenter(api, code);
    const dup = await api.post('/api/v1/cost-centers', { name: 'Dup', code: code.toLowerCase() });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'CONFLICT' });
    const other = await costCenter(api);
    expect((await api.put(`/api/v1/cost-centers/${other}`, { name: 'x', code })).status).toBe(409);
    const another = (await stack.tenant('SI')).api;
    expect((await another.post('/api/v1/cost-centers', { name: 'Theirs', code })).status).toBe(201);
  });

  it('a cost center an employee may charge cannot be deleted (409) until no employee names it; archived employees count', async () => {
    const id = await costCenter(api);
    const e = await employee(api, { costCenterIds: [id], isArchived: true });
    const refused = await api.delete(`/api/v1/cost-centers/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('1 employee');
    expect((await api.get(`/api/v1/cost-centers/${id}`)).status).toBe(200);
    expect(
      (await api.put(`/api/v1/employees/${e.id}`, { firstName: e.firstName, lastName: e.lastName, costCenterIds: [] }))
        .status,
    ).toBe(200);
    expect((await api.delete(`/api/v1/cost-centers/${id}`)).status).toBe(204);
  });

  it('lists sorted by code, filtered by isActive and searched by name or code', async () => {
    const own = (await stack.tenant('CZ')).api;
    await costCenter(own, 'B-200', { name: 'Sales travel' });
    await costCenter(own, 'A-100', { name: 'Field work' });
    await costCenter(own, 'C-300', { name: 'Old projects', isActive: false });
    const all = await own.get('/api/v1/cost-centers');
    expect(all.body).toMatchObject({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
    expect(all.body.items.map((c: any) => c.code)).toEqual(['A-100', 'B-200', 'C-300']);
    expect((await own.get('/api/v1/cost-centers?isActive=true')).body.items.map((c: any) => c.code)).toEqual([
      'A-100',
      'B-200',
    ]);
    expect((await own.get('/api/v1/cost-centers?isActive=false')).body.items.map((c: any) => c.code)).toEqual([
      'C-300',
    ]);
    expect((await own.get('/api/v1/cost-centers?q=TRAVEL')).body.items.map((c: any) => c.code)).toEqual(['B-200']);
    expect((await own.get('/api/v1/cost-centers?q=a-1')).body.items.map((c: any) => c.code)).toEqual(['A-100']);
    expect((await own.get('/api/v1/cost-centers?pageSize=1&page=2')).body.items.map((c: any) => c.code)).toEqual([
      'B-200',
    ]);
  });

  it.each([
    ['name', { name: '', code: 'V1' }],
    ['code', { name: 'x', code: 'a b ' }],
    ['description', { name: 'x', code: 'V2', description: 'x'.repeat(501) }],
    ['description', { name: 'x', code: 'V3', description: 'bell\u0007' }],
    ['isActive', { name: 'x', code: 'V4', isActive: 'yes' }],
  ])('400 keyed %s for %j', async (key, body) => {
    const res = await api.post('/api/v1/cost-centers', body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toContain(key);
  });

  describe('ManageCompanyData guards every write', () => {
    it('without it: create, update and delete are 403; reads work', async () => {
      const id = await costCenter(api);
      const noFlag = await limitedCaller(api, allBut('ManageCompanyData'));
      expect((await noFlag.api.post('/api/v1/cost-centers', { name: 'x', code: unique('N-') })).status).toBe(403);
      expect((await noFlag.api.put(`/api/v1/cost-centers/${id}`, { name: 'x', code: unique('N-') })).status).toBe(403);
      expect((await noFlag.api.delete(`/api/v1/cost-centers/${id}`)).status).toBe(403);
      expect((await noFlag.api.get(`/api/v1/cost-centers/${id}`)).status).toBe(200);
      expect((await noFlag.api.get('/api/v1/cost-centers')).status).toBe(200);
      expect((await api.get(`/api/v1/cost-centers/${id}`)).status).toBe(200);
    });

    it('with it alone: create, update and delete succeed', async () => {
      const admin = await limitedCaller(api, ['ManageCompanyData']);
      const created = await admin.api.post('/api/v1/cost-centers', { name: 'By admin', code: unique('A-') });
      expect(created.status).toBe(201);
      expect(
        (await admin.api.put(`/api/v1/cost-centers/${created.body.id}`, { name: 'Renamed', code: created.body.code }))
          .status,
      ).toBe(200);
      expect((await admin.api.delete(`/api/v1/cost-centers/${created.body.id}`)).status).toBe(204);
    });
  });

  it("another company's cost center is 404 for read, update and delete, and never listed", async () => {
    const id = await costCenter(api);
    const other = (await stack.tenant('PL')).api;
    expect((await other.get(`/api/v1/cost-centers/${id}`)).status).toBe(404);
    expect((await other.put(`/api/v1/cost-centers/${id}`, { name: 'Stolen', code: unique('S-') })).status).toBe(404);
    expect((await other.delete(`/api/v1/cost-centers/${id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/cost-centers/${id}`)).status).toBe(200);
    expect((await other.get('/api/v1/cost-centers')).body.total).toBe(0);
  });
});
