// Permissions on employees, through the gateway with keys issued by the api-keys endpoint: atomic flags
// and presets, unknown flags preserved on write-back, omitted permissions kept on PUT, ManageEmployees for
// every employee write, and no privilege escalation (a caller grants or takes away only flags it holds).
import { registerModels } from '@travel/employees/src/infra/models';
import type { ApiClient } from '@travel/testkit';
import { eventually } from '@travel/testkit';
import { PERMISSIONS, allBut, employee, limitedCaller, writable } from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

describe('employees: permissions', () => {
  let stack: E2eStack;
  let owner: ApiClient;

  beforeAll(async () => {
    // A short key cache, so permission changes reach the gateway quickly in the last test.
    stack = await startE2eStack('emp-perms', { RATE_LIMIT_BURST: '5000', API_KEY_CACHE_MS: '200' });
    const t = await stack.tenant('SK');
    // The owner also holds a flag of a newer version, as if written by one (before any request is cached).
    await registerModels(stack.employees.deps.mongo).Employee.updateOne(
      { _id: t.employeeId, tenantId: t.tenantId },
      { $push: { permissions: 'FutureFlag' } },
    );
    owner = t.api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('flags and presets', () => {
    it('FleetManager is stored and returned as ReadAllEntries + ManageVehicles', async () => {
      const e = await employee(owner, { permissions: ['FleetManager'] });
      expect(e.permissions).toEqual(['ReadAllEntries', 'ManageVehicles']);
      expect((await owner.get(`/api/v1/employees/${e.id}`)).body.permissions).toEqual([
        'ReadAllEntries',
        'ManageVehicles',
      ]);
    });

    it('CompanyAdmin expands to every atomic flag, ManageVehicles included', async () => {
      const e = await employee(owner, { permissions: ['CompanyAdmin'] });
      expect([...e.permissions].sort()).toEqual([...PERMISSIONS].sort());
      expect(e.permissions).toContain('ManageVehicles');
    });

    it('responses list atomic flags only, each once', async () => {
      const e = await employee(owner, {
        permissions: ['ManageVehicles', 'FleetManager', 'ReadAllEntries', 'ManageVehicles'],
      });
      expect(e.permissions).toEqual(['ManageVehicles', 'ReadAllEntries']);
      expect(e.permissions).not.toContain('FleetManager');
    });

    it('a flag this version does not know is stored and returned verbatim', async () => {
      const e = await employee(owner, { permissions: ['FutureFlag', 'ManageVehicles'] });
      expect(e.permissions).toEqual(['FutureFlag', 'ManageVehicles']);
    });
  });

  describe('on PUT', () => {
    it('omitted permissions keep the stored list', async () => {
      const e = await employee(owner, { permissions: ['FleetManager', 'FutureFlag'] });
      const { permissions: _dropped, ...body } = writable(e);
      const res = await owner.put(`/api/v1/employees/${e.id}`, { ...body, position: 'Fleet' });
      expect(res.status).toBe(200);
      expect(res.body.permissions).toEqual(['ReadAllEntries', 'ManageVehicles', 'FutureFlag']);
    });

    it('a list replaces it; [] removes every flag', async () => {
      const e = await employee(owner, { permissions: ['FleetManager'] });
      expect(
        (await owner.put(`/api/v1/employees/${e.id}`, { ...writable(e), permissions: ['ApproveEntries'] })).body
          .permissions,
      ).toEqual(['ApproveEntries']);
      expect(
        (await owner.put(`/api/v1/employees/${e.id}`, { ...writable(e), permissions: [] })).body.permissions,
      ).toEqual([]);
    });

    it('writing back the list read keeps unknown flags, even by a caller who holds none of them', async () => {
      const e = await employee(owner, { permissions: ['FutureFlag', 'ManageVehicles', 'ApproveEntries'] });
      const hr = await limitedCaller(owner, ['ManageEmployees']);
      const read = (await hr.api.get(`/api/v1/employees/${e.id}`)).body;
      const res = await hr.api.put(`/api/v1/employees/${read.id}`, { ...writable(read), position: 'Renamed' });
      expect(res.status).toBe(200);
      expect(res.body.permissions).toEqual(['FutureFlag', 'ManageVehicles', 'ApproveEntries']);
    });
  });

  describe('ManageEmployees guards every employee write', () => {
    it('without it: create and update are 403, reads still work', async () => {
      const e = await employee(owner);
      const noFlag = await limitedCaller(owner, allBut('ManageEmployees'));
      const create = await noFlag.api.post('/api/v1/employees', { firstName: 'A', lastName: 'B' });
      expect(create.status).toBe(403);
      expect(create.body).toMatchObject({ code: 'FORBIDDEN', status: 403 });
      const update = await noFlag.api.put(`/api/v1/employees/${e.id}`, writable(e));
      expect(update.status).toBe(403);
      expect((await noFlag.api.get(`/api/v1/employees/${e.id}`)).status).toBe(200);
      expect((await noFlag.api.get('/api/v1/employees')).status).toBe(200);
    });

    it('with it alone: create and update succeed', async () => {
      const hr = await limitedCaller(owner, ['ManageEmployees']);
      const created = await hr.api.post('/api/v1/employees', { firstName: 'New', lastName: 'Hire' });
      expect(created.status).toBe(201);
      const updated = await hr.api.put(`/api/v1/employees/${created.body.id}`, {
        ...writable(created.body),
        position: 'Clerk',
      });
      expect(updated.status).toBe(200);
      expect(updated.body.position).toBe('Clerk');
    });
  });

  describe('no privilege escalation: grant or take away only flags the caller holds', () => {
    let hr: Awaited<ReturnType<typeof limitedCaller>>;
    beforeAll(async () => {
      hr = await limitedCaller(owner, ['ManageEmployees', 'ReadAllEntries']);
    });

    it.each([
      [['ManageVehicles'], 'ManageVehicles'],
      [['FleetManager'], 'ManageVehicles'],
      [['CompanyAdmin'], 'ManageVehicles, ManageCompanyData, EditAllEntries, ApproveEntries, ManagePayouts'],
      [['FutureFlag'], 'FutureFlag'],
    ])('creating with %j is 403 naming what the caller lacks', async (permissions, lacking) => {
      const res = await hr.api.post('/api/v1/employees', { firstName: 'A', lastName: 'B', permissions });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
      expect(res.body.detail).toContain(lacking);
    });

    it('creating with flags the caller holds is allowed', async () => {
      const res = await hr.api.post('/api/v1/employees', {
        firstName: 'A',
        lastName: 'B',
        permissions: ['ReadAllEntries', 'ManageEmployees'],
      });
      expect(res.status).toBe(201);
      expect(res.body.permissions).toEqual(['ReadAllEntries', 'ManageEmployees']);
    });

    it('adding a flag the caller lacks is 403, and nothing changes', async () => {
      const e = await employee(owner, { permissions: ['ReadAllEntries'], position: 'Before' });
      const res = await hr.api.put(`/api/v1/employees/${e.id}`, {
        ...writable(e),
        position: 'After',
        permissions: ['ReadAllEntries', 'ManagePayouts'],
      });
      expect(res.status).toBe(403);
      expect((await owner.get(`/api/v1/employees/${e.id}`)).body).toMatchObject({
        position: 'Before',
        permissions: ['ReadAllEntries'],
      });
    });

    it('taking away a known flag the caller lacks is 403; an unknown one may be removed', async () => {
      const e = await employee(owner, { permissions: ['ApproveEntries', 'FutureFlag', 'ReadAllEntries'] });
      const strip = await hr.api.put(`/api/v1/employees/${e.id}`, {
        ...writable(e),
        permissions: ['FutureFlag', 'ReadAllEntries'],
      });
      expect(strip.status).toBe(403);
      expect(strip.body.detail).toContain('ApproveEntries');
      const dropUnknown = await hr.api.put(`/api/v1/employees/${e.id}`, {
        ...writable(e),
        permissions: ['ApproveEntries', 'ReadAllEntries'],
      });
      expect(dropUnknown.status).toBe(200);
      expect(dropUnknown.body.permissions).toEqual(['ApproveEntries', 'ReadAllEntries']);
      const removeHeld = await hr.api.put(`/api/v1/employees/${e.id}`, {
        ...writable(dropUnknown.body),
        permissions: ['ApproveEntries'],
      });
      expect(removeHeld.status).toBe(200);
    });

    it('a caller cannot raise its own permissions', async () => {
      const me = (await hr.api.get(`/api/v1/employees/${hr.employeeId}`)).body;
      const res = await hr.api.put(`/api/v1/employees/${hr.employeeId}`, {
        ...writable(me),
        permissions: [...me.permissions, 'ManageCompanyData'],
      });
      expect(res.status).toBe(403);
    });

    it('a caller holding a flag may grant it (and the owner may grant a flag of a newer version it holds)', async () => {
      const fleet = await limitedCaller(owner, ['ManageEmployees', 'ManageVehicles']);
      const e = await employee(owner);
      const res = await fleet.api.put(`/api/v1/employees/${e.id}`, { ...writable(e), permissions: ['ManageVehicles'] });
      expect(res.status).toBe(200);
      expect((await employee(owner, { permissions: ['FutureFlag'] })).permissions).toEqual(['FutureFlag']);
    });
  });

  it('a permission taken away stops working at the gateway within the key cache time', async () => {
    const hr = await limitedCaller(owner, ['ManageEmployees']);
    expect((await hr.api.post('/api/v1/employees', { firstName: 'Still', lastName: 'Allowed' })).status).toBe(201);
    const me = (await owner.get(`/api/v1/employees/${hr.employeeId}`)).body;
    expect((await owner.put(`/api/v1/employees/${hr.employeeId}`, { ...writable(me), permissions: [] })).status).toBe(
      200,
    );
    const status = await eventually(
      async () => {
        const res = await hr.api.post('/api/v1/employees', { firstName: 'No', lastName: 'Longer' });
        return res.status === 403 ? res.status : undefined;
      },
      3000,
      50,
    );
    expect(status).toBe(403);
  });
});
