// Issue 20, section 3 (docs/decisions/0105): nobody approves an entry they own or created, directly or by
// auto-approval. A step that leaving them out empties goes to the company's fallback approvers (default:
// the account owner), never straight to Approved; when nobody may approve, submitting is 409 CONFLICT and
// the entry stays a Draft. A company without a workflow keeps the spec's auto-approval. Through the gateway.
import { limitedCaller, MISSING_ID } from '@travel/employees/test/support/org-fixtures';
import type { ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const order = { departureDate: '2026-11-02', returnDate: '2026-11-04', advancePayment: 1000, currencyCode: 'CZK' };

describe('segregation of duties in the approval workflow', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-sod');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const op = (api: ApiClient, id: string, operation: string) =>
    api.post(`/api/v1/travel-entries/${id}/${operation}`, {});

  const setWorkflow = async (api: ApiClient, settlement: string[][], fallbackApproverIds?: string[]) => {
    const res = await api.put('/api/v1/approval-workflow', {
      settlementSteps: settlement.map((approverIds) => ({ approverIds })),
      tripApprovalSteps: [],
      ...(fallbackApproverIds ? { fallbackApproverIds } : {}),
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  const entryOf = async (api: ApiClient, body: Record<string, unknown> = {}) => {
    const res = await api.post('/api/v1/travel-entries', { ...order, ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it("a sole approver's own entry goes to the account owner (the default fallback), not to Approved", async () => {
    const { api: owner, employeeId: ownerId } = await stack.tenant('CZ');
    const approver = await limitedCaller(owner, []);
    await setWorkflow(owner, [[approver.employeeId]]);
    const id = await entryOf(approver.api);

    const submitted = await op(approver.api, id, 'submit');
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({
      status: 1,
      phase: 0,
      approvedAt: null,
      approval: { phase: 0, currentStep: 0, steps: [{ approverIds: [ownerId] }] },
    });
    expect(submitted.body.auditLog.map((r: { action: string }) => r.action)).toEqual(['Submitted']);
    for (const operation of ['approve', 'reject', 'request-changes']) {
      const res = await op(approver.api, id, operation);
      expect([operation, res.status, res.body.code]).toEqual([operation, 403, 'FORBIDDEN']);
    }
    const approved = await op(owner, id, 'approve');
    expect(approved.body).toMatchObject({ status: 3 });
    expect(approved.body.auditLog.map((r: { action: string; employeeId: string }) => [r.action, r.employeeId])).toEqual(
      [
        ['Submitted', approver.employeeId],
        ['Approved', ownerId],
      ],
    );
  });

  it('an entry created on someone’s behalf by its sole approver: the creator may not decide, the fallback does', async () => {
    const { api: owner } = await stack.tenant('CZ');
    const approver = await limitedCaller(owner, ['EditAllEntries']);
    const employee = await limitedCaller(owner, []);
    const fallback = await limitedCaller(owner, []);
    await setWorkflow(owner, [[approver.employeeId]], [fallback.employeeId]);
    const id = await entryOf(approver.api, { employeeId: employee.employeeId });

    // Submitted by the entry's employee, or by the creator (EditAllEntries): never decided by the creator.
    const submitted = await op(employee.api, id, 'submit');
    expect(submitted.body).toMatchObject({ status: 1, approval: { steps: [{ approverIds: [fallback.employeeId] }] } });
    const refused = await op(approver.api, id, 'approve');
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await op(fallback.api, id, 'approve')).body).toMatchObject({ status: 3 });

    const second = await entryOf(approver.api, { employeeId: employee.employeeId });
    expect((await op(approver.api, second, 'submit')).body).toMatchObject({
      status: 1,
      approval: { steps: [{ approverIds: [fallback.employeeId] }] },
    });
  });

  it('the fallback path: only the steps the ineligible empty go to the fallback approvers, in their place', async () => {
    const { api: owner } = await stack.tenant('CZ');
    const [a, b, f] = [await limitedCaller(owner, []), await limitedCaller(owner, []), await limitedCaller(owner, [])];
    const stored = await setWorkflow(owner, [[a.employeeId], [b.employeeId]], [f.employeeId, a.employeeId]);
    expect(stored.fallbackApproverIds).toEqual([f.employeeId, a.employeeId]);
    // A GET body is a valid PUT body, fallback included.
    const read = await owner.get('/api/v1/approval-workflow');
    expect((await owner.put('/api/v1/approval-workflow', read.body)).body).toEqual(stored);

    const id = await entryOf(a.api);
    const submitted = await op(a.api, id, 'submit');
    expect(submitted.body.approval.steps).toEqual([{ approverIds: [f.employeeId] }, { approverIds: [b.employeeId] }]);
    expect((await op(f.api, id, 'approve')).body).toMatchObject({ status: 1, approval: { currentStep: 1 } });
    expect((await op(b.api, id, 'approve')).body).toMatchObject({ status: 3 });

    const bad = await owner.put('/api/v1/approval-workflow', { ...read.body, fallbackApproverIds: [MISSING_ID] });
    expect([bad.status, Object.keys(bad.body.errors ?? {})]).toEqual([400, ['fallbackApproverIds[0]']]);
  });

  it('when the fallback approvers are the entry’s employee or creator too, submitting is 409 and the entry stays a Draft', async () => {
    const { api: owner, employeeId: ownerId } = await stack.tenant('CZ');
    // The account owner is the sole approver and the default fallback: nobody may approve their own entry.
    await setWorkflow(owner, [[ownerId]]);
    const id = await entryOf(owner);
    const res = await op(owner, id, 'submit');
    expect([res.status, res.body.code]).toEqual([409, 'CONFLICT']);
    expect(res.body.detail).toMatch(/fallback/);
    const entry = (await owner.get(`/api/v1/travel-entries/${id}`)).body;
    expect(entry).toMatchObject({ status: 0, locked: false, approval: null, approvedAt: null, auditLog: [] });

    // Named fallback approvers who are the entry's employee: the same.
    const approver = await limitedCaller(owner, []);
    await setWorkflow(owner, [[approver.employeeId]], [approver.employeeId]);
    const own = await entryOf(approver.api);
    expect((await op(approver.api, own, 'submit')).status).toBe(409);

    // Once someone else may decide, the same entries go through.
    const finance = await limitedCaller(owner, []);
    await setWorkflow(owner, [[ownerId]], [finance.employeeId]);
    expect((await op(owner, id, 'submit')).body).toMatchObject({
      status: 1,
      approval: { steps: [{ approverIds: [finance.employeeId] }] },
    });
  });

  it('a company without a workflow keeps the spec’s auto-approval, also for an entry created on someone’s behalf', async () => {
    const { api: owner } = await stack.tenant('CZ');
    const editor = await limitedCaller(owner, ['EditAllEntries']);
    const employee = await limitedCaller(owner, []);
    const id = await entryOf(editor.api, { employeeId: employee.employeeId });
    const submitted = await op(employee.api, id, 'submit');
    expect(submitted.body).toMatchObject({ status: 3, approval: null });
    expect(submitted.body.auditLog.map((r: { action: string }) => r.action)).toEqual(['Submitted', 'AutoApproved']);
  });
});
