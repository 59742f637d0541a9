// API keys through the gateway: issued for an employee (default the caller), shown once, stored hashed,
// listed by hint only, revocable; a revoked key stops working at the gateway within API_KEY_CACHE_MS.
// ManageCompanyData for every operation, with and without the flag; no key is a way to gain permissions;
// another company's key is 404.
import { createHash } from 'node:crypto';
import { registerModels } from '@travel/employees/src/infra/models';
import { eventually, type ApiClient } from '@travel/testkit';
import {
  MISSING_ID,
  PERMISSIONS,
  allBut,
  employee,
  limitedCaller,
  writable,
} from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

const CACHE_MS = 300;

describe('API keys', () => {
  let stack: E2eStack;
  let owner: ApiClient;
  let ownerId: string;
  let tenantId: string;

  beforeAll(async () => {
    stack = await startE2eStack('api-keys', { RATE_LIMIT_BURST: '5000', API_KEY_CACHE_MS: String(CACHE_MS) });
    const t = await stack.tenant('HR');
    owner = t.api;
    ownerId = t.employeeId;
    tenantId = t.tenantId;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const models = () => registerModels(stack.employees.deps.mongo);

  it('issues a key for the caller by default: shown once, stored as its SHA-256 digest, listed by hint', async () => {
    const created = await owner.post('/api/v1/api-keys', { name: 'CI integration' });
    expect(created.status).toBe(201);
    const key: string = created.body.key;
    expect(key).toMatch(/^tek_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'CI integration',
      employeeId: ownerId,
      hint: key.slice(0, 10),
      createdByEmployeeId: ownerId,
      // Capped at what the issuer (the owner: every flag) holds now, also a key of one's own (decision 0104).
      permissionCap: expect.arrayContaining([...PERMISSIONS]),
      createdAt: expect.any(String),
      revokedAt: null,
      key,
    });

    const stored = await models().ApiKey.findOne({ _id: created.body.id, tenantId }).lean();
    expect(stored!.hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(key);

    const list = await owner.get('/api/v1/api-keys');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(key);
    expect(list.text).not.toContain(stored!.hash);
    const row = list.body.items.find((k: any) => k.id === created.body.id);
    expect(row).toEqual({ ...created.body, key: undefined });
    expect(Object.keys(row)).not.toContain('key');

    // The new key works through the gateway, as the same employee.
    const company = await owner.withKey(key).get('/api/v1/company');
    expect(company.status).toBe(200);
  });

  it('lists newest first, with the operator-issued key, filtered by employee and by revoked state', async () => {
    const t = await stack.tenant('SI');
    const e = await employee(t.api, { permissions: ['ReadAllEntries'] });
    const k1 = (await t.api.post('/api/v1/api-keys', { name: 'first', employeeId: e.id })).body;
    const k2 = (await t.api.post('/api/v1/api-keys', { name: 'second' })).body;
    const all = await t.api.get('/api/v1/api-keys');
    expect(all.body).toMatchObject({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
    expect(all.body.items.map((k: any) => k.name)).toEqual(['second', 'first', 'Owner key (created by operator)']);
    expect(all.body.items[2]).toMatchObject({
      employeeId: t.employeeId,
      createdByEmployeeId: null,
      permissionCap: null,
    });
    expect((await t.api.get(`/api/v1/api-keys?employeeId=${e.id}`)).body.items.map((k: any) => k.id)).toEqual([k1.id]);
    expect((await t.api.delete(`/api/v1/api-keys/${k1.id}`)).status).toBe(204);
    expect((await t.api.get('/api/v1/api-keys?revoked=true')).body.items.map((k: any) => k.id)).toEqual([k1.id]);
    expect((await t.api.get('/api/v1/api-keys?revoked=false')).body.items.map((k: any) => k.id)).toContain(k2.id);
    expect((await t.api.get('/api/v1/api-keys?revoked=false')).body.total).toBe(2);
  });

  it('a revoked key stops working at the gateway within API_KEY_CACHE_MS, and stays listed with revokedAt', async () => {
    const created = (await owner.post('/api/v1/api-keys', { name: 'to revoke' })).body;
    const doomed = owner.withKey(created.key);
    expect((await doomed.get('/api/v1/company')).status).toBe(200); // resolved and cached by the gateway

    const revokedAt = Date.now();
    expect((await owner.delete(`/api/v1/api-keys/${created.id}`)).status).toBe(204);
    const refusedAt = await eventually(
      async () => ((await doomed.get('/api/v1/company')).status === 401 ? Date.now() : undefined),
      5000,
      25,
    );
    expect(refusedAt - revokedAt).toBeLessThanOrEqual(CACHE_MS + 500);
    const res = await doomed.get('/api/v1/company');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });

    const row = (await owner.get('/api/v1/api-keys')).body.items.find((k: any) => k.id === created.id);
    expect(row.revokedAt).toEqual(expect.any(String));
    // Revoking again changes nothing (and keeps the first revocation time).
    expect((await owner.delete(`/api/v1/api-keys/${created.id}`)).status).toBe(204);
    expect((await owner.get('/api/v1/api-keys')).body.items.find((k: any) => k.id === created.id).revokedAt).toBe(
      row.revokedAt,
    );
  });

  it('a key stops working when its employee is archived or made Inactive', async () => {
    const limited = await limitedCaller(owner, ['ReadAllEntries']);
    expect((await limited.api.get('/api/v1/company')).status).toBe(200);
    const me = (await owner.get(`/api/v1/employees/${limited.employeeId}`)).body;
    expect((await owner.put(`/api/v1/employees/${me.id}`, { ...writable(me), isArchived: true })).status).toBe(200);
    await eventually(async () => (await limited.api.get('/api/v1/company')).status === 401, 5000, 25);
    expect((await owner.put(`/api/v1/employees/${me.id}`, { ...writable(me), isArchived: false })).status).toBe(200);
    await eventually(async () => (await limited.api.get('/api/v1/company')).status === 200, 5000, 25);
    expect((await owner.put(`/api/v1/employees/${me.id}`, { ...writable(me), status: 'Inactive' })).status).toBe(200);
    await eventually(async () => (await limited.api.get('/api/v1/company')).status === 401, 5000, 25);
  });

  describe('issuing for another employee', () => {
    it('the key carries that employee’s permissions', async () => {
      const limited = await limitedCaller(owner, ['ReadAllEntries']);
      expect((await limited.api.post('/api/v1/employees', { firstName: 'A', lastName: 'B' })).status).toBe(403);
      expect((await limited.api.get('/api/v1/employees')).status).toBe(200);
    });

    it('needs the caller to hold every permission of that employee (no key is a way to gain one)', async () => {
      const keyAdmin = await limitedCaller(owner, ['ManageCompanyData']);
      const res = await keyAdmin.api.post('/api/v1/api-keys', { name: 'escalate', employeeId: ownerId });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
      for (const flag of PERMISSIONS.filter((p) => p !== 'ManageCompanyData')) expect(res.body.detail).toContain(flag);
      const peer = await employee(owner, { permissions: ['ManageCompanyData'] });
      expect((await keyAdmin.api.post('/api/v1/api-keys', { name: 'peer', employeeId: peer.id })).status).toBe(201);
      const nobody = await employee(owner);
      expect((await keyAdmin.api.post('/api/v1/api-keys', { name: 'nobody', employeeId: nobody.id })).status).toBe(201);
    });

    it.each([
      ['unknown', async () => MISSING_ID, 'must be an employee of this company'],
      ['of another company', async () => (await stack.tenant('CZ')).employeeId, 'must be an employee of this company'],
      [
        'archived',
        async () => (await employee(owner, { isArchived: true })).id,
        'must be an active, unarchived employee (a key of anyone else would not work)',
      ],
      [
        'inactive',
        async () => (await employee(owner, { status: 'Inactive' })).id,
        'must be an active, unarchived employee (a key of anyone else would not work)',
      ],
    ])('refuses an employee that is %s (400 keyed employeeId)', async (_what, idOf, message) => {
      const res = await owner.post('/api/v1/api-keys', { name: 'x', employeeId: await idOf() });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ employeeId: [message] });
    });
  });

  it.each([
    ['name', {}],
    ['name', { name: '' }],
    ['name', { name: '   ' }],
    ['name', { name: 'x'.repeat(101) }],
    ['employeeId', { name: 'x', employeeId: 'nope' }],
    ['key', { name: 'x', key: 'tek_choose-my-own' }],
  ])('refuses a bad body with 400 keyed %s: %j', async (key, body) => {
    const res = await owner.post('/api/v1/api-keys', body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toContain(key);
  });

  describe('ManageCompanyData guards every operation', () => {
    it('without it: list, issue and revoke are 403', async () => {
      const target = (await owner.post('/api/v1/api-keys', { name: 'target' })).body;
      const noFlag = await limitedCaller(owner, allBut('ManageCompanyData'));
      expect((await noFlag.api.get('/api/v1/api-keys')).status).toBe(403);
      expect((await noFlag.api.post('/api/v1/api-keys', { name: 'mine' })).status).toBe(403);
      const revoke = await noFlag.api.delete(`/api/v1/api-keys/${target.id}`);
      expect(revoke.status).toBe(403);
      expect(revoke.body.code).toBe('FORBIDDEN');
      expect((await owner.withKey(target.key).get('/api/v1/company')).status).toBe(200);
    });

    it('with it alone: list, issue (for itself) and revoke succeed', async () => {
      const admin = await limitedCaller(owner, ['ManageCompanyData']);
      expect((await admin.api.get('/api/v1/api-keys')).status).toBe(200);
      const own = await admin.api.post('/api/v1/api-keys', { name: 'own' });
      expect(own.status).toBe(201);
      expect(own.body.employeeId).toBe(admin.employeeId);
      expect((await admin.api.delete(`/api/v1/api-keys/${own.body.id}`)).status).toBe(204);
    });
  });

  it("another company's key is 404 to revoke and never listed; its unknown id is 404", async () => {
    const mine = (await owner.post('/api/v1/api-keys', { name: 'mine' })).body;
    const other = (await stack.tenant('PL')).api;
    expect((await other.delete(`/api/v1/api-keys/${mine.id}`)).status).toBe(404);
    expect((await owner.withKey(mine.key).get('/api/v1/company')).status).toBe(200);
    const theirs = await other.get('/api/v1/api-keys');
    expect(theirs.body.items.map((k: any) => k.id)).not.toContain(mine.id);
    expect(theirs.body.total).toBe(1);
    expect((await owner.delete(`/api/v1/api-keys/${MISSING_ID}`)).status).toBe(404);
  });
});
