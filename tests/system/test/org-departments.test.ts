// Departments through the gateway: create, read, full-replace update, delete and the paged list; codes
// unique per company (409); the tree (parent of the same company, no cycles); deletes refused while used
// (409); ManageCompanyData for every write, with and without the flag; another company's record is 404.
import type { ApiClient } from '@travel/testkit';
import {
  MISSING_ID,
  allBut,
  department,
  employee,
  limitedCaller,
  unique,
  writable,
} from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

describe('departments', () => {
  let stack: E2eStack;
  let api: ApiClient;

  beforeAll(async () => {
    stack = await startE2eStack('org-deps', { RATE_LIMIT_BURST: '5000' });
    api = (await stack.tenant('PL')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('create, read, update (full replace) and delete', async () => {
    const parent = await department(api);
    const created = await api.post('/api/v1/departments', {
      name: '  Sales Zagreb ',
      code: 'SAL-ZG',
      parentId: parent,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Sales Zagreb',
      code: 'SAL-ZG',
      parentId: parent,
      createdAt: expect.any(String),
      editedAt: created.body.createdAt,
    });
    const id = created.body.id;
    expect((await api.get(`/api/v1/departments/${id}`)).body).toEqual(created.body);

    // Omitting parentId on PUT makes it a root department (full replace).
    const updated = await api.put(`/api/v1/departments/${id}`, { name: 'Sales', code: 'SAL' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id,
      name: 'Sales',
      code: 'SAL',
      parentId: null,
      createdAt: created.body.createdAt,
    });
    expect((await api.get(`/api/v1/departments/${id}`)).body).toEqual(updated.body);

    expect((await api.delete(`/api/v1/departments/${id}`)).status).toBe(204);
    expect((await api.get(`/api/v1/departments/${id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/departments/${id}`)).status).toBe(404);
    expect((await api.put(`/api/v1/departments/${id}`, { name: 'x', code: 'x' })).status).toBe(404);
  });

  describe('codes are unique per company, compared case-insensitively', () => {
    it('409 CONFLICT on create and on update; the refused update changes nothing', async () => {
      const code = unique('UQ-');
      await department(api, code);
      const dup = await api.post('/api/v1/departments', { name: 'Other', code: code.toLowerCase() });
      expect(dup.status).toBe(409);
      expect(dup.body).toMatchObject({ code: 'CONFLICT' });
      const other = await department(api);
      const clash = await api.put(`/api/v1/departments/${other}`, { name: 'Renamed', code });
      expect(clash.status).toBe(409);
      expect((await api.get(`/api/v1/departments/${other}`)).body.name).not.toBe('Renamed');
    });

    it('keeping its own code, or changing only its case, is not a clash', async () => {
      const code = unique('OWN-');
      const id = await department(api, code);
      expect((await api.put(`/api/v1/departments/${id}`, { name: 'Same code', code })).status).toBe(200);
      expect(
        (await api.put(`/api/v1/departments/${id}`, { name: 'Same code', code: code.toLowerCase() })).body.code,
      ).toBe(code.toLowerCase());
    });

    it('another company may use the same code', async () => {
      const code = unique('SHARED-');
      await department(api, code);
      const other = (await stack.tenant('PL')).api;
      expect((await other.post('/api/v1/departments', { name: 'Theirs', code })).status).toBe(201);
    });

    it('a deleted department frees its code', async () => {
      const code = unique('FREE-');
      const id = await department(api, code);
      expect((await api.delete(`/api/v1/departments/${id}`)).status).toBe(204);
      expect((await api.post('/api/v1/departments', { name: 'Again', code })).status).toBe(201);
    });
  });

  describe('the department tree', () => {
    it('refuses a parent that does not exist, or is itself, or is below it (400 keyed parentId)', async () => {
      const root = await department(api);
      const child = await department(api, unique('CH-'), { parentId: root });
      const grandchild = await department(api, unique('GC-'), { parentId: child });
      const cases: [string, Record<string, unknown>][] = [
        ['unknown parent', { parentId: MISSING_ID }],
        ['itself', { parentId: root }],
        ['its child', { parentId: child }],
        ['its grandchild', { parentId: grandchild }],
      ];
      for (const [what, body] of cases) {
        const res = await api.put(`/api/v1/departments/${root}`, { name: 'Root', code: unique('R-'), ...body });
        expect({ what, status: res.status, keys: Object.keys(res.body.errors ?? {}) }).toEqual({
          what,
          status: 400,
          keys: ['parentId'],
        });
      }
      expect(
        (await api.post('/api/v1/departments', { name: 'x', code: unique('X-'), parentId: MISSING_ID })).status,
      ).toBe(400);
    });

    it("refuses another company's department as parent (400)", async () => {
      const other = (await stack.tenant('CZ')).api;
      const theirs = await department(other);
      const res = await api.post('/api/v1/departments', { name: 'x', code: unique('X-'), parentId: theirs });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ parentId: ['must be a department of this company'] });
    });

    it('moves a department below another branch', async () => {
      const a = await department(api);
      const b = await department(api);
      const c = await department(api, unique('C-'), { parentId: a });
      const res = await api.put(`/api/v1/departments/${c}`, { name: 'C', code: unique('C-'), parentId: b });
      expect(res.body.parentId).toBe(b);
      const children = await api.get(`/api/v1/departments?parentId=${b}`);
      expect(children.body.items.map((d: any) => d.id)).toEqual([c]);
    });
  });

  describe('delete is refused while the department is used (409)', () => {
    it('by an employee, archived or not', async () => {
      const id = await department(api);
      const e = await employee(api, { departmentId: id, isArchived: true });
      const refused = await api.delete(`/api/v1/departments/${id}`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'CONFLICT', detail: expect.stringContaining('1 employee') });
      expect((await api.put(`/api/v1/employees/${e.id}`, { ...writable(e), departmentId: null })).status).toBe(200);
      expect((await api.delete(`/api/v1/departments/${id}`)).status).toBe(204);
    });

    it('by a sub-department', async () => {
      const parent = await department(api);
      const child = await department(api, unique('SUB-'), { parentId: parent });
      const refused = await api.delete(`/api/v1/departments/${parent}`);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toContain('1 sub-department');
      expect((await api.delete(`/api/v1/departments/${child}`)).status).toBe(204);
      expect((await api.delete(`/api/v1/departments/${parent}`)).status).toBe(204);
    });
  });

  describe('list', () => {
    it('pages sorted by name, searches name and code literally, filters by parent', async () => {
      const own = (await stack.tenant('SK')).api;
      const root = await department(own, 'ROOT', { name: 'Headquarters' });
      await department(own, 'B-1', { name: 'Bratislava (east)', parentId: root });
      await department(own, 'KE.1', { name: 'Košice', parentId: root });
      await department(own, 'ZA', { name: 'Žilina' });
      const all = await own.get('/api/v1/departments?pageSize=2');
      expect(all.body).toMatchObject({ page: 1, pageSize: 2, total: 4, totalPages: 2 });
      expect(all.body.items.map((d: any) => d.name)).toEqual(['Bratislava (east)', 'Headquarters']);
      const q = async (text: string) =>
        (await own.get(`/api/v1/departments?q=${encodeURIComponent(text)}`)).body.items.map((d: any) => d.code);
      expect(await q('(EAST)')).toEqual(['B-1']);
      expect(await q('ke.1')).toEqual(['KE.1']);
      expect(await q('k.')).toEqual([]);
      expect(await q('root')).toEqual(['ROOT']);
      const below = await own.get(`/api/v1/departments?parentId=${root}`);
      expect(below.body.items.map((d: any) => d.code).sort()).toEqual(['B-1', 'KE.1']);
    });
  });

  describe('validation', () => {
    it.each([
      ['name', { name: '', code: 'X' }],
      ['name', { name: '   ', code: 'X1' }],
      ['name', { name: 'x'.repeat(101), code: 'X2' }],
      ['code', { name: 'x', code: '' }],
      ['code', { name: 'x', code: ' lead' }],
      ['code', { name: 'x', code: 'bad#code' }],
      ['code', { name: 'x', code: 'C'.repeat(33) }],
      ['parentId', { name: 'x', code: 'X3', parentId: 'nope' }],
      ['surprise', { name: 'x', code: 'X4', surprise: true }],
    ])('400 keyed %s for %j', async (key, body) => {
      const res = await api.post('/api/v1/departments', body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toContain(key);
    });
  });

  describe('ManageCompanyData guards every write', () => {
    it('without it: create, update and delete are 403 and change nothing; reads work', async () => {
      const id = await department(api);
      const noFlag = await limitedCaller(api, allBut('ManageCompanyData'));
      const create = await noFlag.api.post('/api/v1/departments', { name: 'x', code: unique('N-') });
      expect(create.status).toBe(403);
      expect(create.body.code).toBe('FORBIDDEN');
      expect((await noFlag.api.put(`/api/v1/departments/${id}`, { name: 'Hijacked', code: unique('H-') })).status).toBe(
        403,
      );
      expect((await noFlag.api.delete(`/api/v1/departments/${id}`)).status).toBe(403);
      expect((await api.get(`/api/v1/departments/${id}`)).body.name).not.toBe('Hijacked');
      expect((await noFlag.api.get(`/api/v1/departments/${id}`)).status).toBe(200);
      expect((await noFlag.api.get('/api/v1/departments')).status).toBe(200);
    });

    it('with it alone: create, update and delete succeed', async () => {
      const admin = await limitedCaller(api, ['ManageCompanyData']);
      const created = await admin.api.post('/api/v1/departments', { name: 'By admin', code: unique('A-') });
      expect(created.status).toBe(201);
      expect(
        (await admin.api.put(`/api/v1/departments/${created.body.id}`, { name: 'Renamed', code: created.body.code }))
          .status,
      ).toBe(200);
      expect((await admin.api.delete(`/api/v1/departments/${created.body.id}`)).status).toBe(204);
    });
  });

  it("another company's department is 404 for read, update and delete, and never listed", async () => {
    const id = await department(api, unique('MINE-'));
    const other = (await stack.tenant('HR')).api;
    expect((await other.get(`/api/v1/departments/${id}`)).status).toBe(404);
    expect((await other.put(`/api/v1/departments/${id}`, { name: 'Stolen', code: unique('S-') })).status).toBe(404);
    expect((await other.delete(`/api/v1/departments/${id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/departments/${id}`)).status).toBe(200);
    expect((await other.get('/api/v1/departments')).body.total).toBe(0);
  });
});
