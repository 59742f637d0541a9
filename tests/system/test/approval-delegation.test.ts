// Issue 39 §2 (docs/decisions/0205): an approver names a delegate for a period; during it the delegate
// decides the approver's approval steps, and the audit log names both. Outside the period, after it was
// withdrawn, and on an entry the delegate owns or created, the delegate is refused (403, the documented
// problem body). Only the approver or ManageCompanyData manages an approver's delegations. Through the gateway.
import { limitedCaller, MISSING_ID, type LimitedCaller } from '@travel/employees/test/support/org-fixtures';
import { eventually, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const order = { departureDate: '2026-11-02', returnDate: '2026-11-04', advancePayment: 1000, currencyCode: 'CZK' };

/** Today in Prague's calendar (the CZ market's), `days` later: the day a delegation period is written in. */
const pragueDay = (days = 0): string => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Prague' }).format(new Date());
  return new Date(Date.parse(`${today}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
};

const FORBIDDEN = {
  type: 'https://docs.travel-expense.example/errors/forbidden',
  status: 403,
  code: 'FORBIDDEN',
};

describe('approval delegation (issue 39 §2)', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('approval-delegation');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A CZ company whose settlement has one step, decided by `approver` (no special permissions). */
  async function company() {
    const { api: owner, tenantId, client } = await stack.tenant('CZ');
    const approver = await limitedCaller(owner, []);
    const employee = await limitedCaller(owner, []);
    const put = await owner.put('/api/v1/approval-workflow', {
      settlementSteps: [{ approverIds: [approver.employeeId] }],
      tripApprovalSteps: [],
    });
    expect(put.status).toBe(200);
    return { owner, client, tenantId, approver, employee };
  }

  const delegate = (by: ApiClient, approverId: string, body: Record<string, unknown>) =>
    by.post(`/api/v1/employees/${approverId}/delegations`, body);

  /** A submitted entry of `employee` (created by `creator`, the employee by default), waiting at the approver's step. */
  async function submitted(employee: LimitedCaller, creator: LimitedCaller = employee): Promise<string> {
    const created = await creator.api.post('/api/v1/travel-entries', {
      ...order,
      ...(creator === employee ? {} : { employeeId: employee.employeeId }),
    });
    expect(created.status).toBe(201);
    const res = await employee.api.post(`/api/v1/travel-entries/${created.body.id}/submit`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 1, approval: { currentStep: 0 } });
    return created.body.id as string;
  }

  const decide = (who: LimitedCaller, id: string, operation: string) =>
    who.api.post(`/api/v1/travel-entries/${id}/${operation}`, { comment: `${operation} as delegate` });

  it('an approver on holiday names a delegate, who approves inside the period; the audit log names both', async () => {
    const { owner, client, approver, employee } = await company();
    // Webhooks: the entry's events are exactly as if the approver had decided; the delegation raises none.
    const receiver = await stack.receiver();
    const sub = await client.api.POST('/api/v1/webhooks', {
      body: {
        url: receiver.url,
        eventTypes: ['entry.created', 'entry.updated', 'entry.approved', 'employee.created', 'employee.updated'],
      },
    });
    expect(sub.response.status).toBe(201);
    const deputy = await limitedCaller(owner, []);
    const named = await delegate(approver.api, approver.employeeId, {
      delegateId: deputy.employeeId,
      firstDay: pragueDay(0),
      lastDay: pragueDay(13),
      reason: 'Holiday',
    });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({
      delegateId: deputy.employeeId,
      firstDay: pragueDay(0),
      lastDay: pragueDay(13),
      reason: 'Holiday',
      createdByEmployeeId: approver.employeeId,
      withdrawnAt: null,
    });
    const listed = await approver.api.get(`/api/v1/employees/${approver.employeeId}/delegations`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 1, items: [{ id: named.body.id }] });

    const id = await submitted(employee);
    // The deputy holds no ReadAllEntries: the delegation lets them read the entry waiting for them.
    expect((await deputy.api.get(`/api/v1/travel-entries/${id}`)).status).toBe(200);
    const approved = await decide(deputy, id, 'approve');
    expect(approved.status).toBe(200);
    // One step: the delegate's approval is the final one, exactly as the approver's would be.
    expect(approved.body).toMatchObject({ status: 3, phase: 0, approval: null });
    expect(approved.body.approvedAt).not.toBeNull();
    expect(approved.body.auditLog.at(-1)).toMatchObject({
      action: 'Approved',
      employeeId: deputy.employeeId,
      onBehalfOfEmployeeId: approver.employeeId,
      step: 0,
      status: 3,
      comment: 'approve as delegate',
    });
    // The employee's submission is nobody's delegation.
    expect(approved.body.auditLog[0]).toMatchObject({ action: 'Submitted', onBehalfOfEmployeeId: null });

    // A marker raised after everything: once it arrived, an extra event would have arrived too.
    const marker = await owner.post('/api/v1/travel-entries', { ...order });
    const events = () => receiver.requests.map((r) => JSON.parse(r.body.toString('utf8')));
    await eventually(async () => events().some((e) => e.data.id === marker.body.id), 20_000);
    const of = (entity: string) =>
      events()
        .filter((e) => e.data.id === entity)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map((e) => [e.type, e.data.status]);
    expect(of(id)).toEqual([
      ['entry.created', 0],
      ['entry.updated', 1],
      ['entry.approved', 3],
    ]);
    // The deputy's creation, nothing for the approver (naming a delegate changes no employee record).
    expect(of(deputy.employeeId).map(([type]) => type)).toEqual(['employee.created']);
    expect(of(approver.employeeId)).toEqual([]);
  });

  it('the delegate is refused before the period, after it, and after the delegation was withdrawn', async () => {
    const { owner, tenantId, approver, employee } = await company();
    // ReadAllEntries: the delegate reads every entry, so a refusal is the decision's (403), not a 404.
    const deputy = await limitedCaller(owner, ['ReadAllEntries']);
    const id = await submitted(employee);
    const refusedEvery = async () => {
      for (const operation of ['approve', 'reject', 'request-changes']) {
        const res = await decide(deputy, id, operation);
        expect([operation, res.status]).toEqual([operation, 403]);
        expect(res.body).toMatchObject({ ...FORBIDDEN, detail: expect.stringContaining('current step (1 of 1)') });
      }
    };

    // Before: from tomorrow.
    const later = await delegate(approver.api, approver.employeeId, {
      delegateId: deputy.employeeId,
      firstDay: pragueDay(1),
      lastDay: pragueDay(3),
    });
    expect(later.status).toBe(201);
    await refusedEvery();

    // Withdrawn while it runs: today only, then withdrawn.
    const today = await delegate(approver.api, approver.employeeId, {
      delegateId: deputy.employeeId,
      firstDay: pragueDay(0),
      lastDay: pragueDay(0),
    });
    expect(today.status).toBe(201);
    const withdrawn = await approver.api.delete(
      `/api/v1/employees/${approver.employeeId}/delegations/${today.body.id}`,
    );
    expect(withdrawn.status).toBe(204);
    await refusedEvery();
    const list = await approver.api.get(`/api/v1/employees/${approver.employeeId}/delegations`);
    expect(list.body.items.find((d: { id: string }) => d.id === today.body.id)).toMatchObject({
      withdrawnAt: expect.any(String),
      withdrawnByEmployeeId: approver.employeeId,
    });

    // After: a period that is over (one cannot name it: a stored one is moved back, as the days pass).
    const again = await delegate(approver.api, approver.employeeId, {
      delegateId: deputy.employeeId,
      firstDay: pragueDay(0),
      lastDay: pragueDay(0),
    });
    expect(again.status).toBe(201);
    const stored = stack.employees.deps.mongo.collection('delegations');
    const doc = await stored.findOne({ tenantId, _id: approver.employeeId as never });
    const moved = (doc!.delegations as { id: string; firstDay: string; lastDay: string }[]).map((d) =>
      d.id === again.body.id ? { ...d, firstDay: pragueDay(-10), lastDay: pragueDay(-1) } : d,
    );
    await stored.updateOne({ tenantId, _id: approver.employeeId as never }, { $set: { delegations: moved } });
    await refusedEvery();

    // The approver decides all along; the entry was never moved by the refusals.
    const approved = await decide(approver, id, 'approve');
    expect(approved.body).toMatchObject({ status: 3 });
    expect(approved.body.auditLog.map((r: { action: string }) => r.action)).toEqual(['Submitted', 'Approved']);
    expect(approved.body.auditLog[1]).toMatchObject({ employeeId: approver.employeeId, onBehalfOfEmployeeId: null });
  });

  it('a delegate outside the period does not even learn the entry exists (404, no existence oracle)', async () => {
    const { owner, approver, employee } = await company();
    const deputy = await limitedCaller(owner, []);
    expect(
      (
        await delegate(approver.api, approver.employeeId, {
          delegateId: deputy.employeeId,
          firstDay: pragueDay(2),
          lastDay: pragueDay(4),
        })
      ).status,
    ).toBe(201);
    const id = await submitted(employee);
    expect((await deputy.api.get(`/api/v1/travel-entries/${id}`)).status).toBe(404);
    expect((await decide(deputy, id, 'approve')).status).toBe(404);
  });

  it("the delegate cannot decide an entry that is their own or that they created, as the approver's delegate", async () => {
    const { owner, approver, employee } = await company();
    const deputy = await limitedCaller(owner, ['EditAllEntries']);
    expect(
      (
        await delegate(owner, approver.employeeId, {
          delegateId: deputy.employeeId,
          firstDay: pragueDay(0),
          lastDay: pragueDay(6),
        })
      ).status,
    ).toBe(201);

    const own = await submitted(deputy);
    const createdForEmployee = await submitted(employee, deputy);
    for (const operation of ['approve', 'reject', 'request-changes']) {
      expect(await decide(deputy, own, operation)).toMatchObject({
        status: 403,
        body: { ...FORBIDDEN, detail: 'Nobody decides on their own entry.' },
      });
      expect(await decide(deputy, createdForEmployee, operation)).toMatchObject({
        status: 403,
        body: { ...FORBIDDEN, detail: 'Nobody decides on an entry they created, even for someone else.' },
      });
    }
    // The approver still decides both.
    expect((await decide(approver, own, 'approve')).body).toMatchObject({ status: 3 });
    expect((await decide(approver, createdForEmployee, 'approve')).body).toMatchObject({ status: 3 });
  });

  it("a non-admin cannot create, list or withdraw someone else's delegations; ManageCompanyData can", async () => {
    const { owner, approver, employee } = await company();
    const body = { delegateId: employee.employeeId, firstDay: pragueDay(0), lastDay: pragueDay(1) };
    const path = `/api/v1/employees/${approver.employeeId}/delegations`;
    // The employee names themself the approver's delegate: refused.
    const created = await delegate(employee.api, approver.employeeId, body);
    expect(created.status).toBe(403);
    expect(created.body).toMatchObject({ ...FORBIDDEN, detail: expect.stringContaining('ManageCompanyData') });
    expect((await employee.api.get(path)).status).toBe(403);
    // An administrator (the account owner holds ManageCompanyData) names it for the approver.
    const byOwner = await delegate(owner, approver.employeeId, body);
    expect(byOwner.status).toBe(201);
    expect((await employee.api.delete(`${path}/${byOwner.body.id}`)).status).toBe(403);
    expect((await approver.api.delete(`${path}/${byOwner.body.id}`)).status).toBe(204);
    expect((await approver.api.delete(`${path}/${MISSING_ID}`)).status).toBe(404);
  });

  it('refuses a bad delegation with field-keyed 400s', async () => {
    const { owner, approver, employee } = await company();
    const path = approver.employeeId;
    const ok = { delegateId: employee.employeeId, firstDay: pragueDay(0), lastDay: pragueDay(1) };
    const refusal = async (body: Record<string, unknown>) => {
      const res = await delegate(owner, path, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      return res.body.errors as Record<string, string[]>;
    };
    expect(await refusal({ ...ok, delegateId: approver.employeeId })).toEqual({
      delegateId: ['must be someone other than the approver'],
    });
    expect(await refusal({ ...ok, delegateId: MISSING_ID })).toEqual({
      delegateId: ['must be an employee of this company'],
    });
    expect(await refusal({ ...ok, firstDay: pragueDay(3), lastDay: pragueDay(2) })).toEqual({
      lastDay: ['must not be before firstDay'],
    });
    expect(await refusal({ ...ok, firstDay: pragueDay(-3), lastDay: pragueDay(-1) })).toEqual({
      lastDay: [`must not be before today (${pragueDay(0)}): the period is over`],
    });
    // 92 days with both ends counted is the most: today + 91 is allowed, today + 92 is 93 days.
    expect(await refusal({ ...ok, lastDay: pragueDay(92) })).toEqual({
      lastDay: ['must be at most 92 days after firstDay, both days counted'],
    });
    const archived = await limitedCaller(owner, []);
    const read = await owner.get(`/api/v1/employees/${archived.employeeId}`);
    const { id: _id, isAccountOwner: _o, createdAt: _c, editedAt: _e, ...writable } = read.body;
    expect(
      (await owner.put(`/api/v1/employees/${archived.employeeId}`, { ...writable, isArchived: true })).status,
    ).toBe(200);
    expect(await refusal({ ...ok, delegateId: archived.employeeId })).toEqual({
      delegateId: ['must be an active, unarchived employee'],
    });

    const first = await delegate(owner, path, { ...ok, lastDay: pragueDay(91) });
    expect(first.status).toBe(201);
    expect(await refusal({ ...ok, firstDay: pragueDay(91), lastDay: pragueDay(95) })).toEqual({
      firstDay: [
        `overlaps delegation ${first.body.id} (${pragueDay(0)} to ${pragueDay(91)}); withdraw it or choose another period`,
      ],
    });
    // The day after it ends is free.
    expect((await delegate(owner, path, { ...ok, firstDay: pragueDay(92), lastDay: pragueDay(92) })).status).toBe(201);
  });
});
