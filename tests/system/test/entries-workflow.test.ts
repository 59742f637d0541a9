// The approval workflow and trip requests through the gateway, observed at a real HTTPS receiver
// subscribed to all four entry.* types: for each row of the SPEC's entry state table and each line of the
// event catalog, the exact events an entry raises and their summary fields (status, phase, isRequest,
// entryNumber, isLocked). Status integers: API-SURFACE.md, Values (0 Draft, 1 Submitted, 2
// ChangesRequested, 3 Approved, 4 Rejected, 5 Cancelled); phase 1 PreApproval, 0 Standard, null outside.
import type { TravelClient, WebhookEventType } from '@travel/client';
import { verify } from '@travel/webhook-verify';
import { eventually, type ApiClient, type HttpsReceiver } from '@travel/testkit';
import { allBut, limitedCaller, MISSING_ID } from '@travel/employees/test/support/org-fixtures';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const ENTRY_EVENTS: WebhookEventType[] = ['entry.created', 'entry.updated', 'entry.approved', 'entry.paidout'];
const YEAR = new Date().getUTCFullYear();
const number = (seq: number) => `${YEAR}-${String(seq).padStart(5, '0')}`;

interface Seen {
  type: string;
  status: number;
  phase: number | null;
  isRequest: boolean;
  entryNumber: string;
  isLocked: boolean;
}

/** The summary fields a scenario asserts, in the order the events were raised. */
const seen = (
  type: string,
  status: number,
  phase: number | null,
  isRequest: boolean,
  entryNumber: string,
  isLocked: boolean,
): Seen => ({
  type,
  status,
  phase,
  isRequest,
  entryNumber,
  isLocked,
});

describe('entries: approval workflow and trip requests', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-workflow');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A tenant with a receiver subscribed to every entry.* type. */
  async function company() {
    const t = await stack.tenant('CZ');
    const receiver = await stack.receiver();
    const sub = await t.client.api.POST('/api/v1/webhooks', { body: { url: receiver.url, eventTypes: ENTRY_EVENTS } });
    expect(sub.response.status).toBe(201);
    return { ...t, receiver, secret: sub.data!.signingSecret };
  }

  /**
   * Every event the receiver got for `entryId`, verified and in the order raised, once `count` of them and
   * a marker raised after them have arrived (so an extra event would be seen too).
   */
  async function eventsOf(
    c: { api: ApiClient; receiver: HttpsReceiver; secret: string },
    entryId: string,
    count: number,
  ): Promise<Seen[]> {
    const marker = await c.api.post('/api/v1/travel-entries', {
      departureDate: '2026-12-01',
      returnDate: '2026-12-01',
    });
    expect(marker.status).toBe(201);
    const parsed = () =>
      c.receiver.requests.map((r) => {
        verify(r.body, r.headers as Record<string, string>, c.secret);
        const envelope = JSON.parse(r.body.toString('utf8'));
        expect(r.headers['svc-event']).toBe(envelope.type);
        return envelope;
      });
    await eventually(async () => {
      const all = parsed();
      return all.some((e) => e.data.id === marker.body.id) && all.filter((e) => e.data.id === entryId).length >= count;
    }, 20_000).catch((err) => {
      throw new Error(
        `${err}: got ${JSON.stringify(parsed().map((e) => [e.type, e.data.id]))}, entry ${entryId}, marker ${marker.body.id}`,
      );
    });
    return parsed()
      .filter((e) => e.data.id === entryId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.data.editedAt.localeCompare(b.data.editedAt))
      .map((e) => seen(e.type, e.data.status, e.data.phase, e.data.isRequest, e.data.entryNumber, e.data.isLocked));
  }

  const order = { departureDate: '2026-11-02', returnDate: '2026-11-04', advancePayment: 1000 };
  const request = { ...order, isRequest: true };

  describe('a company without a workflow', () => {
    it('submit approves automatically: entry.updated only (Approved, locked), never entry.approved', async () => {
      const c = await company();
      expect((await c.api.get('/api/v1/approval-workflow')).body).toEqual({
        settlementSteps: [],
        tripApprovalSteps: [],
        fallbackApproverIds: [],
        editedAt: null,
      });
      const created = await c.api.post('/api/v1/travel-entries', order);
      expect(created.status).toBe(201);
      const id = created.body.id;
      const n = created.body.entryNumber;
      expect(n).toBe(number(1));

      const submitted = await c.api.post(`/api/v1/travel-entries/${id}/submit`, { comment: 'Trip done' });
      expect(submitted.status).toBe(200);
      expect(submitted.body).toMatchObject({ status: 3, phase: null, isRequest: false, locked: true, entryNumber: n });
      expect(submitted.body.approvedAt).toEqual(expect.any(String));
      expect(submitted.body.auditLog).toEqual([
        {
          action: 'Submitted',
          employeeId: c.employeeId,
          at: expect.any(String),
          comment: 'Trip done',
          status: 1,
          phase: null,
          step: null,
          keyIssuedByEmployeeId: null,
          onBehalfOfEmployeeId: null,
        },
        {
          action: 'AutoApproved',
          employeeId: c.employeeId,
          at: expect.any(String),
          comment: 'Trip done',
          status: 3,
          phase: null,
          step: null,
          keyIssuedByEmployeeId: null,
          onBehalfOfEmployeeId: null,
        },
      ]);
      // Approved is closed to writes and to the workflow.
      expect((await c.api.put(`/api/v1/travel-entries/${id}`, submitted.body)).status).toBe(409);
      const again = await c.api.post(`/api/v1/travel-entries/${id}/submit`);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('INVALID_STATE');
      expect((await c.api.post(`/api/v1/travel-entries/${id}/cancel`)).status).toBe(409);

      expect(await eventsOf(c, id, 2)).toEqual([
        seen('entry.created', 0, null, false, n, false),
        seen('entry.updated', 3, null, false, n, true),
      ]);
    });

    it('a submitted trip request is authorized at once: numbered, isRequest false, open for settlement, entry.updated only', async () => {
      const c = await company();
      const created = await c.api.post('/api/v1/travel-entries', request);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ entryNumber: '', isRequest: true, phase: 1, status: 0, locked: false });
      const id = created.body.id;
      // The body is optional: a POST without one.
      const submitted = await c.api.request('POST', `/api/v1/travel-entries/${id}/submit`);
      expect(submitted.status).toBe(200);
      expect(submitted.body).toMatchObject({
        status: 0,
        phase: 0,
        isRequest: false,
        locked: false,
        entryNumber: number(1),
      });
      expect(submitted.body.auditLog.map((r: any) => r.action)).toEqual(['Submitted', 'Authorized']);
      // Settled without a settlement workflow: approved automatically.
      const settled = await c.api.post(`/api/v1/travel-entries/${id}/submit`);
      expect(settled.body).toMatchObject({ status: 3, phase: 0, locked: true, entryNumber: number(1) });

      expect(await eventsOf(c, id, 3)).toEqual([
        seen('entry.created', 0, 1, true, '', false),
        seen('entry.updated', 0, 0, false, number(1), false),
        seen('entry.updated', 3, 0, false, number(1), true),
      ]);
    });
  });

  /**
   * A company with a workflow: approvers A and B hold no permission at all (eligibility comes from the steps).
   * Their keys come from an administrator, not from the owner, whose entries they decide on: nobody decides
   * on their own entry through a key they issued for the approver (docs/decisions/0194).
   */
  async function companyWithApprovers() {
    const c = await company();
    const admin = await limitedCaller(c.api, ['ManageCompanyData', 'ManageEmployees']);
    const a = await limitedCaller(admin.api, []);
    const b = await limitedCaller(admin.api, []);
    return { ...c, a, b };
  }

  const setWorkflow = async (client: TravelClient, settlement: string[][], trip: string[][] = []) => {
    const res = await client.api.PUT('/api/v1/approval-workflow', {
      body: {
        settlementSteps: settlement.map((approverIds) => ({ approverIds })),
        tripApprovalSteps: trip.map((approverIds) => ({ approverIds })),
      },
    });
    expect(res.response.status).toBe(200);
    return res.data!;
  };

  const op = (api: ApiClient, id: string, operation: string, comment?: string) =>
    api.post(`/api/v1/travel-entries/${id}/${operation}`, comment === undefined ? {} : { comment });

  describe('the approval-workflow resource', () => {
    it('GET / PUT: approvers must be employees of the company (400 keyed by field), ManageCompanyData writes, a GET body is a PUT body', async () => {
      const c = await companyWithApprovers();
      const stored = await setWorkflow(
        c.client,
        [[c.a.employeeId], [c.b.employeeId, c.a.employeeId]],
        [[c.b.employeeId]],
      );
      expect(stored).toEqual({
        settlementSteps: [{ approverIds: [c.a.employeeId] }, { approverIds: [c.b.employeeId, c.a.employeeId] }],
        tripApprovalSteps: [{ approverIds: [c.b.employeeId] }],
        fallbackApproverIds: [],
        editedAt: expect.any(String),
      });
      const read = await c.api.get('/api/v1/approval-workflow');
      expect(read.body).toEqual(stored);
      // The GET body goes back unchanged: a no-op (same editedAt).
      const echoed = await c.api.put('/api/v1/approval-workflow', read.body);
      expect(echoed.status).toBe(200);
      expect(echoed.body).toEqual(stored);

      const other = await stack.tenant('CZ');
      const bad = await c.api.put('/api/v1/approval-workflow', {
        settlementSteps: [{ approverIds: [c.a.employeeId, MISSING_ID] }],
        tripApprovalSteps: [{ approverIds: [other.employeeId] }],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(bad.body.errors).sort()).toEqual([
        'settlementSteps[0].approverIds[1]',
        'tripApprovalSteps[0].approverIds[0]',
      ]);
      expect((await c.api.put('/api/v1/approval-workflow', { settlementSteps: [] })).status).toBe(400);
      expect(
        (await c.api.put('/api/v1/approval-workflow', { ...stored, settlementSteps: [{ approverIds: ['x'] }] })).status,
      ).toBe(400);

      const noAdmin = await limitedCaller(c.api, allBut('ManageCompanyData'));
      const refused = await noAdmin.api.put('/api/v1/approval-workflow', {
        settlementSteps: [],
        tripApprovalSteps: [],
      });
      expect(refused.status).toBe(403);
      expect((await noAdmin.api.get('/api/v1/approval-workflow')).body).toEqual(stored);
      // Another tenant's workflow is its own.
      expect((await other.api.get('/api/v1/approval-workflow')).body.settlementSteps).toEqual([]);
    });
  });

  describe('a company with a settlement workflow', () => {
    it('two steps: submission and the first approval raise entry.updated, the final step Approved + entry.approved; only the current step decides', async () => {
      const c = await companyWithApprovers();
      // The owner is listed too: nobody approves their own entry, so for the owner's entries step 1 is A alone.
      await setWorkflow(c.client, [[c.a.employeeId, c.employeeId], [c.b.employeeId]]);
      const created = await c.api.post('/api/v1/travel-entries', order);
      const id = created.body.id;
      const n = created.body.entryNumber;
      // An approver without ReadAllEntries does not see the entry before it is submitted to them.
      expect((await c.a.api.get(`/api/v1/travel-entries/${id}`)).status).toBe(404);
      expect((await op(c.a.api, id, 'approve')).status).toBe(404);
      expect((await op(c.api, id, 'approve')).status).toBe(409);

      const submitted = await op(c.api, id, 'submit', 'Please approve');
      expect(submitted.status).toBe(200);
      expect(submitted.body).toMatchObject({
        status: 1,
        phase: 0,
        locked: true,
        approvedAt: null,
        approval: {
          phase: 0,
          currentStep: 0,
          steps: [{ approverIds: [c.a.employeeId] }, { approverIds: [c.b.employeeId] }],
        },
      });
      // Locked while in approval: writes 409, the workflow's operations go on.
      expect((await c.api.put(`/api/v1/travel-entries/${id}`, submitted.body)).status).toBe(409);
      expect(
        (await c.api.post(`/api/v1/travel-entries/${id}/expenses`, { kind: 'Parking', date: '2026-11-03', amount: 10 }))
          .status,
      ).toBe(409);
      expect((await op(c.api, id, 'submit')).body.code).toBe('INVALID_STATE');

      // Not the current step (B), their own entry (owner): 403.
      const early = await op(c.b.api, id, 'approve');
      expect(early.status).toBe(403);
      expect(early.body.code).toBe('FORBIDDEN');
      expect((await op(c.api, id, 'approve')).status).toBe(403);
      expect((await op(c.b.api, id, 'reject')).status).toBe(403);
      // Someone who may read every entry but is no approver: 403; an unrelated employee: 404.
      const reader = await limitedCaller(c.api, ['ReadAllEntries']);
      expect((await op(reader.api, id, 'approve')).status).toBe(403);
      const stranger = await limitedCaller(c.api, []);
      expect((await op(stranger.api, id, 'approve')).status).toBe(404);

      const first = await op(c.a.api, id, 'approve', 'Fine by me');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ status: 1, phase: 0, locked: true, approval: { currentStep: 1 } });
      expect((await op(c.a.api, id, 'approve')).status).toBe(403);
      const final = await op(c.b.api, id, 'approve');
      expect(final.status).toBe(200);
      expect(final.body).toMatchObject({
        status: 3,
        phase: 0,
        isRequest: false,
        locked: true,
        entryNumber: n,
        approval: null,
      });
      expect(final.body.approvedAt).toEqual(expect.any(String));
      expect((await op(c.b.api, id, 'approve')).status).toBe(409);
      expect((await op(c.api, id, 'cancel')).status).toBe(409);

      // The audit log, readable on the entry (by the owner and by the approvers who decided).
      const log = (await c.api.get(`/api/v1/travel-entries/${id}`)).body.auditLog;
      expect(log.map((r: any) => [r.action, r.employeeId, r.comment, r.status, r.phase, r.step])).toEqual([
        ['Submitted', c.employeeId, 'Please approve', 1, 0, null],
        ['Approved', c.a.employeeId, 'Fine by me', 1, 0, 0],
        ['Approved', c.b.employeeId, null, 3, 0, 1],
      ]);
      for (const r of log) expect(Date.parse(r.at)).not.toBeNaN();
      expect((await c.b.api.get(`/api/v1/travel-entries/${id}`)).body.auditLog).toEqual(log);

      expect(await eventsOf(c, id, 4)).toEqual([
        seen('entry.created', 0, null, false, n, false),
        seen('entry.updated', 1, 0, false, n, true),
        seen('entry.updated', 1, 0, false, n, true),
        seen('entry.approved', 3, 0, false, n, true),
      ]);
    });

    it('request-changes reopens the entry; an edit and the resubmission raise entry.updated; approval then entry.approved', async () => {
      const c = await companyWithApprovers();
      await setWorkflow(c.client, [[c.a.employeeId]]);
      const id = (await c.api.post('/api/v1/travel-entries', order)).body.id;
      const n = (await c.api.get(`/api/v1/travel-entries/${id}`)).body.entryNumber;
      await op(c.api, id, 'submit');
      const back = await op(c.a.api, id, 'request-changes', 'Attach the hotel bill');
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({ status: 2, phase: 0, locked: false, approval: null });
      expect((await op(c.a.api, id, 'approve')).status).toBe(409);
      const edited = await c.api.put(`/api/v1/travel-entries/${id}`, { ...back.body, returnDate: '2026-11-05' });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ status: 2, locked: false });
      expect((await op(c.api, id, 'submit', 'Bill attached')).body).toMatchObject({
        status: 1,
        phase: 0,
        locked: true,
      });
      expect((await op(c.a.api, id, 'approve')).body).toMatchObject({ status: 3, locked: true });
      const log = (await c.api.get(`/api/v1/travel-entries/${id}`)).body.auditLog;
      expect(log.map((r: any) => [r.action, r.comment])).toEqual([
        ['Submitted', null],
        ['ChangesRequested', 'Attach the hotel bill'],
        ['Submitted', 'Bill attached'],
        ['Approved', null],
      ]);

      expect(await eventsOf(c, id, 6)).toEqual([
        seen('entry.created', 0, null, false, n, false),
        seen('entry.updated', 1, 0, false, n, true),
        seen('entry.updated', 2, 0, false, n, false),
        seen('entry.updated', 2, 0, false, n, false),
        seen('entry.updated', 1, 0, false, n, true),
        seen('entry.approved', 3, 0, false, n, true),
      ]);
    });

    it('reject is terminal (entry.updated, Rejected, locked); cancel is terminal (entry.updated, Cancelled, locked)', async () => {
      const c = await companyWithApprovers();
      await setWorkflow(c.client, [[c.a.employeeId]]);
      const rejected = (await c.api.post('/api/v1/travel-entries', order)).body;
      await op(c.api, rejected.id, 'submit');
      expect((await op(c.a.api, rejected.id, 'reject', 'Not a business trip')).body).toMatchObject({
        status: 4,
        phase: 0,
        locked: true,
      });
      for (const operation of ['submit', 'approve', 'reject', 'cancel', 'request-changes'])
        expect(
          (await op(operation === 'submit' || operation === 'cancel' ? c.api : c.a.api, rejected.id, operation)).status,
        ).toBe(409);

      const cancelled = (await c.api.post('/api/v1/travel-entries', order)).body;
      await op(c.api, cancelled.id, 'submit');
      // Cancelling is the employee's (or EditAllEntries'), not the approver's.
      expect((await op(c.a.api, cancelled.id, 'cancel')).status).toBe(403);
      expect((await op(c.api, cancelled.id, 'cancel', 'Trip called off')).body).toMatchObject({
        status: 5,
        phase: 0,
        locked: true,
      });
      // Out of approval, A (who never decided on it) no longer sees it; the owner's approve is 409.
      expect((await op(c.a.api, cancelled.id, 'approve')).status).toBe(404);
      expect((await op(c.api, cancelled.id, 'approve')).status).toBe(409);
      expect((await c.api.delete(`/api/v1/travel-entries/${cancelled.id}`)).status).toBe(409);

      expect(await eventsOf(c, rejected.id, 3)).toEqual([
        seen('entry.created', 0, null, false, rejected.entryNumber, false),
        seen('entry.updated', 1, 0, false, rejected.entryNumber, true),
        seen('entry.updated', 4, 0, false, rejected.entryNumber, true),
      ]);
      expect(await eventsOf(c, cancelled.id, 3)).toEqual([
        seen('entry.created', 0, null, false, cancelled.entryNumber, false),
        seen('entry.updated', 1, 0, false, cancelled.entryNumber, true),
        seen('entry.updated', 5, 0, false, cancelled.entryNumber, true),
      ]);
    });

    it('an entry in approval keeps the steps it was submitted with when the workflow changes', async () => {
      const c = await companyWithApprovers();
      await setWorkflow(c.client, [[c.a.employeeId]]);
      const id = (await c.api.post('/api/v1/travel-entries', order)).body.id;
      await op(c.api, id, 'submit');
      await setWorkflow(c.client, [[c.b.employeeId]]);
      // B is no approver of this entry: it is not even visible to B (no ReadAllEntries).
      expect((await op(c.b.api, id, 'approve')).status).toBe(404);
      expect((await op(c.a.api, id, 'approve')).body.status).toBe(3);
      // The next submission takes the new steps.
      const next = (await c.api.post('/api/v1/travel-entries', order)).body.id;
      expect((await op(c.api, next, 'submit')).body.approval.steps).toEqual([{ approverIds: [c.b.employeeId] }]);
    });
  });

  describe('trip requests', () => {
    it('authorized, then settled: entry.updated on submission and on authorization (number issued there, isRequest false), entry.approved only at the end of the settlement', async () => {
      const c = await companyWithApprovers();
      await setWorkflow(c.client, [[c.b.employeeId]], [[c.a.employeeId]]);
      const created = await c.api.post('/api/v1/travel-entries', request);
      expect(created.body).toMatchObject({ isRequest: true, phase: 1, entryNumber: '', status: 0, locked: false });
      const id = created.body.id;
      const submitted = await op(c.api, id, 'submit');
      expect(submitted.body).toMatchObject({ status: 1, phase: 1, isRequest: true, entryNumber: '', locked: true });
      // The settlement approver is not the trip's approver (nor may B see the request: 404).
      expect((await op(c.b.api, id, 'approve')).status).toBe(404);
      // A delta-sync reader filtering on isRequest=false does not see it yet.
      const orders = async () =>
        (await c.api.get('/api/v1/travel-entries?isRequest=false&pageSize=100')).body.items.map((e: any) => e.id);
      expect(await orders()).not.toContain(id);

      const authorized = await op(c.a.api, id, 'approve', 'Go');
      expect(authorized.status).toBe(200);
      expect(authorized.body).toMatchObject({
        status: 0,
        phase: 0,
        isRequest: false,
        entryNumber: number(1),
        locked: false,
        approvedAt: null,
      });
      expect(await orders()).toContain(id);
      // Settlement: an expense, then the settlement workflow.
      expect(
        (await c.api.post(`/api/v1/travel-entries/${id}/expenses`, { kind: 'Parking', date: '2026-11-03', amount: 10 }))
          .status,
      ).toBe(201);
      expect((await op(c.api, id, 'submit')).body).toMatchObject({ status: 1, phase: 0, locked: true });
      expect((await op(c.a.api, id, 'approve')).status).toBe(403);
      expect((await op(c.b.api, id, 'approve')).body).toMatchObject({ status: 3, phase: 0, entryNumber: number(1) });
      const log = (await c.api.get(`/api/v1/travel-entries/${id}`)).body.auditLog;
      expect(log.map((r: any) => [r.action, r.phase])).toEqual([
        ['Submitted', 1],
        ['Approved', 1],
        ['Authorized', 0],
        ['Submitted', 0],
        ['Approved', 0],
      ]);

      expect(await eventsOf(c, id, 6)).toEqual([
        seen('entry.created', 0, 1, true, '', false),
        seen('entry.updated', 1, 1, true, '', true),
        seen('entry.updated', 0, 0, false, number(1), false),
        seen('entry.updated', 0, 0, false, number(1), false),
        seen('entry.updated', 1, 0, false, number(1), true),
        seen('entry.approved', 3, 0, false, number(1), true),
      ]);
    });

    it('rejected or cancelled: terminal, never numbered, entry.updated', async () => {
      const c = await companyWithApprovers();
      await setWorkflow(c.client, [], [[c.a.employeeId]]);
      const rejected = (await c.api.post('/api/v1/travel-entries', request)).body.id;
      await op(c.api, rejected, 'submit');
      expect((await op(c.a.api, rejected, 'reject', 'No budget')).body).toMatchObject({
        status: 4,
        phase: 1,
        isRequest: true,
        entryNumber: '',
        locked: true,
      });
      expect((await op(c.api, rejected, 'submit')).status).toBe(409);
      const cancelled = (await c.api.post('/api/v1/travel-entries', request)).body.id;
      await op(c.api, cancelled, 'submit');
      expect((await op(c.api, cancelled, 'cancel')).body).toMatchObject({
        status: 5,
        phase: 1,
        isRequest: true,
        entryNumber: '',
        locked: true,
      });
      expect((await op(c.a.api, cancelled, 'approve')).status).toBe(404);
      expect((await op(c.api, cancelled, 'approve')).body.code).toBe('INVALID_STATE');
      // The counter was never touched: the first order of the company is number 1.
      expect((await c.api.post('/api/v1/travel-entries', order)).body.entryNumber).toBe(number(1));

      expect(await eventsOf(c, rejected, 3)).toEqual([
        seen('entry.created', 0, 1, true, '', false),
        seen('entry.updated', 1, 1, true, '', true),
        seen('entry.updated', 4, 1, true, '', true),
      ]);
      expect(await eventsOf(c, cancelled, 3)).toEqual([
        seen('entry.created', 0, 1, true, '', false),
        seen('entry.updated', 1, 1, true, '', true),
        seen('entry.updated', 5, 1, true, '', true),
      ]);
    });

    it('50 authorizations at once get the numbers 1 to 50: no gap, no duplicate, each raised with its number', async () => {
      const c = await companyWithApprovers();
      await setWorkflow(c.client, [], [[c.a.employeeId]]);
      const ids: string[] = [];
      for (let i = 0; i < 50; i += 10)
        ids.push(
          ...(await Promise.all(
            Array.from({ length: 10 }, async () => {
              const id = (await c.api.post('/api/v1/travel-entries', request)).body.id as string;
              expect((await op(c.api, id, 'submit')).status).toBe(200);
              return id;
            }),
          )),
        );
      const answers = await Promise.all(ids.map((id) => op(c.a.api, id, 'approve')));
      expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
      const issued = answers.map((a) => a.body.entryNumber).sort();
      expect(issued).toEqual(Array.from({ length: 50 }, (_, i) => number(i + 1)));
      // Stored as answered, and the next number goes on from 50.
      for (const a of answers)
        expect((await c.api.get(`/api/v1/travel-entries/${a.body.id}`)).body.entryNumber).toBe(a.body.entryNumber);
      expect((await c.api.post('/api/v1/travel-entries', order)).body.entryNumber).toBe(number(51));
      // Each authorization raised one entry.updated carrying its number.
      const numbered = await eventually(async () => {
        const got = c.receiver.requests
          .map((r) => JSON.parse(r.body.toString('utf8')))
          .filter((e) => e.type === 'entry.updated' && e.data.entryNumber !== '' && ids.includes(e.data.id));
        return got.length >= 50 && got;
      }, 30_000);
      expect(numbered.map((e: any) => `${e.data.id} ${e.data.entryNumber}`).sort()).toEqual(
        answers.map((a) => `${a.body.id} ${a.body.entryNumber}`).sort(),
      );
    });
  });
});
