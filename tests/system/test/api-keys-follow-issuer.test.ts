// Issue 35 §2 (docs/decisions/0194, 0197): rights follow people, not the moment a key was made. A key
// issued for someone else acts within its issuer's current rights too and dies with the issuer's
// archiving; an administrator sees what a colleague issued; nobody decides on an entry they own or created
// through a key they issued. Through the gateway, with a key cache of CACHE_MS (the window the issue allows).
import { employee, limitedCaller, MISSING_ID, writable } from '@travel/employees/test/support/org-fixtures';
import { eventually, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const CACHE_MS = 1000;
const order = { departureDate: '2026-11-02', returnDate: '2026-11-04', advancePayment: 1000, currencyCode: 'CZK' };

describe('API keys follow their issuer; segregation of duties counts the issuer', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('api-keys-issuer', { API_KEY_CACHE_MS: String(CACHE_MS) });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** Replaces an employee's record (owner's key) with `changes`; answers when the write is stored. */
  const change = async (owner: ApiClient, id: string, changes: Record<string, unknown>) => {
    const current = (await owner.get(`/api/v1/employees/${id}`)).body;
    const res = await owner.put(`/api/v1/employees/${id}`, { ...writable(current), ...changes });
    expect(res.status).toBe(200);
    return Date.now();
  };

  /** Polls until `path` answers `status` through `api`; answers when it did (never a fixed sleep). */
  const until = (api: ApiClient, path: string, status: number) =>
    eventually(async () => ((await api.get(path)).status === status ? Date.now() : undefined), CACHE_MS + 5000, 25);

  it('an issuer who loses a flag takes it from every key they issued, within the key cache', async () => {
    const { api: owner } = await stack.tenant('CZ');
    const issuer = await limitedCaller(owner, ['ManageCompanyData', 'ReadAllEntries']);
    const colleague = await employee(owner, { permissions: ['ManageCompanyData'] });
    const issued = await issuer.api.post('/api/v1/api-keys', { name: 'sync', employeeId: colleague.id });
    expect(issued.status).toBe(201);
    const integration = owner.withKey(issued.body.key);
    const colleaguesOwn = owner.withKey(
      (await owner.post('/api/v1/api-keys', { name: 'own', employeeId: colleague.id })).body.key,
    );
    expect((await integration.get('/api/v1/api-keys')).status).toBe(200);

    const demotedAt = await change(owner, issuer.employeeId, { permissions: ['ReadAllEntries'] });
    const refusedAt = await until(integration, '/api/v1/api-keys', 403);
    expect(refusedAt - demotedAt).toBeLessThanOrEqual(CACHE_MS + 1000);
    expect((await integration.get('/api/v1/api-keys')).body.code).toBe('FORBIDDEN');
    // The colleague still holds the flag: a key from an issuer who holds it keeps it, and so does the
    // demoted issuer's key for the rest of what the colleague may do (reading the company).
    expect((await colleaguesOwn.get('/api/v1/api-keys')).status).toBe(200);
    expect((await integration.get('/api/v1/company')).status).toBe(200);

    // Given back, it returns (within the cap given at issue time).
    await change(owner, issuer.employeeId, { permissions: ['ManageCompanyData', 'ReadAllEntries'] });
    await until(integration, '/api/v1/api-keys', 200);
  });

  it('archiving an issuer stops the keys they issued for others (401) and their own; unarchiving brings them back', async () => {
    const { api: owner } = await stack.tenant('CZ');
    const issuer = await limitedCaller(owner, ['ManageCompanyData']);
    const colleague = await employee(owner, { permissions: [] });
    const forColleague = owner.withKey(
      (await issuer.api.post('/api/v1/api-keys', { name: 'for a colleague', employeeId: colleague.id })).body.key,
    );
    const ownKey = owner.withKey((await issuer.api.post('/api/v1/api-keys', { name: 'mine' })).body.key);
    const colleaguesFromOwner = owner.withKey(
      (await owner.post('/api/v1/api-keys', { name: 'from the owner', employeeId: colleague.id })).body.key,
    );
    for (const api of [forColleague, ownKey]) expect((await api.get('/api/v1/company')).status).toBe(200);

    const archivedAt = await change(owner, issuer.employeeId, { isArchived: true });
    for (const api of [forColleague, ownKey]) {
      const refusedAt = await until(api, '/api/v1/company', 401);
      expect(refusedAt - archivedAt).toBeLessThanOrEqual(CACHE_MS + 1000);
      expect((await api.get('/api/v1/company')).body.code).toBe('UNAUTHORIZED');
    }
    // The colleague is not touched: a key someone else issued for them works.
    expect((await colleaguesFromOwner.get('/api/v1/company')).status).toBe(200);

    await change(owner, issuer.employeeId, { isArchived: false });
    for (const api of [forColleague, ownKey]) await until(api, '/api/v1/company', 200);
    // Made Inactive, the same as archived.
    await change(owner, issuer.employeeId, { status: 'Inactive' });
    await until(forColleague, '/api/v1/company', 401);
  });

  it('lists the keys one employee issued (createdByEmployeeId), within the company', async () => {
    const { api: owner, employeeId: ownerId } = await stack.tenant('CZ');
    const issuer = await limitedCaller(owner, ['ManageCompanyData']);
    const colleague = await employee(owner, { permissions: [] });
    const forColleague = await issuer.api.post('/api/v1/api-keys', {
      name: 'for a colleague',
      employeeId: colleague.id,
    });
    const own = await issuer.api.post('/api/v1/api-keys', { name: 'mine' });
    const revoked = await issuer.api.post('/api/v1/api-keys', { name: 'gone', employeeId: colleague.id });
    expect((await owner.delete(`/api/v1/api-keys/${revoked.body.id}`)).status).toBe(204);
    await owner.post('/api/v1/api-keys', { name: 'the owner’s', employeeId: colleague.id });

    const ids = async (query: string) => {
      const res = await owner.get(`/api/v1/api-keys?${query}`);
      expect([query, res.status]).toEqual([query, 200]);
      return (res.body.items as Array<{ id: string; createdByEmployeeId: string }>).map((k) => k.id).sort();
    };
    expect(await ids(`createdByEmployeeId=${issuer.employeeId}`)).toEqual(
      [forColleague.body.id, own.body.id, revoked.body.id].sort(),
    );
    expect(await ids(`createdByEmployeeId=${issuer.employeeId.toUpperCase()}&revoked=false`)).toEqual(
      [forColleague.body.id, own.body.id].sort(),
    );
    expect(await ids(`createdByEmployeeId=${issuer.employeeId}&employeeId=${colleague.id}&revoked=false`)).toEqual([
      forColleague.body.id,
    ]);
    // Only what the owner issued (the keys of limitedCaller, the colleague's one), never the issuer's.
    expect(await ids(`createdByEmployeeId=${ownerId}`)).not.toContain(forColleague.body.id);
    expect(await ids(`createdByEmployeeId=${MISSING_ID}`)).toEqual([]);
    // Another company's employee issued nothing here.
    const other = await stack.tenant('CZ');
    expect(await other.api.get(`/api/v1/api-keys?createdByEmployeeId=${issuer.employeeId}`)).toMatchObject({
      status: 200,
      body: { items: [] },
    });

    const bad = await owner.get('/api/v1/api-keys?createdByEmployeeId=nope');
    expect([bad.status, bad.body.code, Object.keys(bad.body.errors)]).toEqual([
      400,
      'VALIDATION_FAILED',
      ['createdByEmployeeId'],
    ]);
  });

  describe('segregation of duties counts the issuer of the key', () => {
    const op = (api: ApiClient, id: string, operation: string) =>
      api.post(`/api/v1/travel-entries/${id}/${operation}`, {});
    const setWorkflow = async (api: ApiClient, approverIds: string[], fallbackApproverIds?: string[]) => {
      const res = await api.put('/api/v1/approval-workflow', {
        settlementSteps: [{ approverIds }],
        tripApprovalSteps: [],
        ...(fallbackApproverIds ? { fallbackApproverIds } : {}),
      });
      expect(res.status).toBe(200);
    };
    const submittedEntry = async (api: ApiClient, body: Record<string, unknown> = {}, submitter = api) => {
      const created = await api.post('/api/v1/travel-entries', { ...order, ...body });
      expect(created.status).toBe(201);
      const submitted = await op(submitter, created.body.id, 'submit');
      expect(submitted.status).toBe(200);
      return submitted.body;
    };

    it('an administrator cannot decide their own entry through a key they issued for the approver', async () => {
      const { api: owner } = await stack.tenant('CZ');
      const admin = await limitedCaller(owner, ['ManageCompanyData']);
      const approver = await limitedCaller(owner, ['ManageCompanyData']);
      const colleague = await limitedCaller(owner, []);
      await setWorkflow(owner, [approver.employeeId]);
      const adminsEntry = await submittedEntry(admin.api);
      expect(adminsEntry.approval.steps).toEqual([{ approverIds: [approver.employeeId] }]);

      const issued = await admin.api.post('/api/v1/api-keys', {
        name: 'for the approver',
        employeeId: approver.employeeId,
      });
      expect(issued.status).toBe(201);
      const throughAdmin = owner.withKey(issued.body.key);
      for (const operation of ['approve', 'reject', 'request-changes']) {
        const res = await op(throughAdmin, adminsEntry.id, operation);
        expect([operation, res.status, res.body.code]).toEqual([operation, 403, 'FORBIDDEN']);
      }

      // The approver's own key decides it: the approver is not the admin.
      const ownKey = owner.withKey((await approver.api.post('/api/v1/api-keys', { name: 'mine' })).body.key);
      const approved = await op(ownKey, adminsEntry.id, 'approve');
      expect([approved.status, approved.body.status]).toEqual([200, 3]);
      expect(approved.body.auditLog.at(-1)).toMatchObject({
        action: 'Approved',
        employeeId: approver.employeeId,
        keyIssuedByEmployeeId: null,
      });

      // The admin-issued key decides anyone else's entry: the issuer only counts for their own.
      const colleaguesEntry = await submittedEntry(colleague.api);
      const decided = await op(throughAdmin, colleaguesEntry.id, 'approve');
      expect([decided.status, decided.body.status]).toEqual([200, 3]);
      expect(decided.body.auditLog.at(-1)).toMatchObject({
        employeeId: approver.employeeId,
        keyIssuedByEmployeeId: admin.employeeId,
      });
    });

    it('the creator of an entry cannot decide it through a key they issued; the issuer of the creator’s key can', async () => {
      const { api: owner } = await stack.tenant('CZ');
      const admin = await limitedCaller(owner, ['ManageCompanyData', 'EditAllEntries']);
      const approver = await employee(owner, { permissions: [] });
      const traveller = await limitedCaller(owner, []);
      await setWorkflow(owner, [approver.id]);
      const throughAdmin = owner.withKey(
        (await admin.api.post('/api/v1/api-keys', { name: 'approver', employeeId: approver.id })).body.key,
      );

      // The admin creates an entry for a colleague (EditAllEntries), who submits it.
      const forColleague = await submittedEntry(admin.api, { employeeId: traveller.employeeId }, traveller.api);
      const refused = await op(throughAdmin, forColleague.id, 'approve');
      expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);

      // The colleague's own entry, created through a key the owner issued: a key the owner issued decides it
      // (the issuer of the creator's key is not counted, decision 0194).
      const fromOwner = owner.withKey(
        (await owner.post('/api/v1/api-keys', { name: 'approver', employeeId: approver.id })).body.key,
      );
      const own = await submittedEntry(traveller.api);
      const approved = await op(fromOwner, own.id, 'approve');
      expect([approved.status, approved.body.status]).toEqual([200, 3]);
      expect((await op(fromOwner, forColleague.id, 'approve')).body.status).toBe(3);
    });
  });
});
