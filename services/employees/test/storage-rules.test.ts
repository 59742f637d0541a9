// What the store must guarantee without transactions, on the real MongoDB-wire server: uniqueness under
// concurrent writes (409, never 500, also where FerretDB reports a unique violation on update as an internal
// error), no lost update between concurrent full replaces, and documents written before the storage
// fields existed.
import { randomUUID } from 'node:crypto';
import { createTestEnv, type TestEnv } from '@travel/testkit';
import { backfillEmployeeStorage } from '../src/infra/migrations';
import { registerModels, type EmployeesModels } from '../src/infra/models';
import { start as startEmployees } from '../src/service';

type Running = Awaited<ReturnType<typeof startEmployees>>;

describe('employees storage rules', () => {
  let env: TestEnv;
  let service: Running;
  let models: EmployeesModels;
  const tenantId = randomUUID();

  beforeAll(async () => {
    env = await createTestEnv('emp-storage');
    service = await startEmployees({ ...process.env, ...env.vars });
    models = registerModels(service.deps.mongo);
  });
  afterAll(async () => {
    await service?.stop();
    await env?.cleanup();
  });

  const headers = () =>
    env.callerHeaders({ tenantId, market: 'HR', permissions: ['ManageEmployees', 'ManageCompanyData'] });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers: headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };

  it('concurrent creates with one e-mail address: exactly one 201, the rest 409', async () => {
    const email = `race-${randomUUID()}@example.hr`;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call('POST', '/api/v1/employees', { firstName: 'R', lastName: `${i}`, email }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await models.Employee.countDocuments({ tenantId, email })).toBe(1);
  });

  it('concurrent updates to one e-mail address: one 200, the rest 409, never a 500', async () => {
    const email = `race2-${randomUUID()}@example.hr`;
    const ids = await Promise.all(
      Array.from(
        { length: 5 },
        async (_, i) =>
          (await call('POST', '/api/v1/employees', { firstName: 'U', lastName: `${i}` })).body.id as string,
      ),
    );
    const results = await Promise.all(
      ids.map((id, i) => call('PUT', `/api/v1/employees/${id}`, { firstName: 'U', lastName: `${i}`, email })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await models.Employee.countDocuments({ tenantId, email })).toBe(1);
  });

  it('concurrent creates with one department code: exactly one 201, the rest 409', async () => {
    const code = `D-${randomUUID().slice(0, 8)}`;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', '/api/v1/departments', { name: 'Race', code })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('concurrent full replaces of one employee: each answered 200 or 409, no update lost, one event per success', async () => {
    const id = (
      await call('POST', '/api/v1/employees', {
        firstName: 'C',
        lastName: 'Oncurrent',
        permissions: ['ManageEmployees'],
      })
    ).body.id;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('PUT', `/api/v1/employees/${id}`, { firstName: 'C', lastName: 'Oncurrent', position: `P${i}` }),
      ),
    );
    for (const r of results) expect([200, 409]).toContain(r.status);
    const succeeded = results.filter((r) => r.status === 200);
    expect(succeeded.length).toBeGreaterThan(0);
    const stored = await models.Employee.findOne({ _id: id, tenantId }).lean();
    // Every success is one revision: none overwrote another unseen.
    expect(stored!.rev).toBe(succeeded.length);
    expect(succeeded.map((r) => r.body.position)).toContain(stored!.position);
    // Omitted permissions were kept by every one of them.
    expect(stored!.permissions).toEqual(['ManageEmployees']);
  });

  it('updates a document written before `rev` and `emailKey` existed, and backfills such documents', async () => {
    const legacyId = randomUUID();
    const now = new Date();
    await models.Employee.collection.insertOne({
      _id: legacyId as never,
      tenantId,
      firstName: 'Old',
      lastName: 'Record',
      email: 'old.record@example.hr',
      status: 'Active',
      isAccountOwner: false,
      isArchived: false,
      residency: 'Resident',
      costCenterIds: [],
      customFields: {},
      permissions: [],
      createdAt: now,
      editedAt: now,
    });
    // A real change (a replace that changes nothing is a no-op and writes nothing: 0035).
    const updated = await call('PUT', `/api/v1/employees/${legacyId}`, {
      firstName: 'Old',
      lastName: 'Record',
      email: 'old.record@example.hr',
      position: 'Archivist',
    });
    expect(updated.status).toBe(200);
    expect(await models.Employee.findOne({ _id: legacyId, tenantId }).lean()).toMatchObject({
      rev: 1,
      emailKey: 'old.record@example.hr',
    });

    const other = randomUUID();
    await models.Employee.collection.insertOne({
      _id: other as never,
      tenantId,
      firstName: 'No',
      lastName: 'Mail',
      email: null,
      createdAt: now,
      editedAt: now,
    });
    expect(await backfillEmployeeStorage(models)).toBe(1);
    expect(await models.Employee.findOne({ _id: other, tenantId }).lean()).toMatchObject({
      rev: 0,
      emailKey: `no-email:${other}`,
    });
    expect(await backfillEmployeeStorage(models)).toBe(0);
  });
});
