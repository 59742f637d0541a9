// Issue 20, section 3 (docs/decisions/0106): a change of an employee's bank data is recorded — who (the
// key's employee, the key, the key's issuer), when, old and new masked — and readable through the API by
// those who may see the employee's personal data (0036), paged; never in a webhook. Through the gateway.
import { registerModels } from '@travel/employees/src/infra/models';
import {
  allBut,
  employee,
  limitedCaller,
  MISSING_ID,
  VALID,
  writable,
} from '@travel/employees/test/support/org-fixtures';
import { eventually } from '@travel/testkit';
import { startE2eStack, type E2eStack } from './support/stack';

const NEW_IBAN = 'CZ5508000000001234567899';

describe('changes of bank data', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack('bank-data-changes', { RATE_LIMIT_BURST: '5000', API_KEY_CACHE_MS: '0' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('records who changed what and when, masked, newest first and paged; only readers of personal data see it; never a webhook', async () => {
    const { api: owner, employeeId: ownerId, tenantId } = await stack.tenant('CZ');
    const receiver = (await stack.receiver()).replyAlways({ status: 200 });
    const sub = await owner.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['employee.created', 'employee.updated'],
    });
    expect(sub.status).toBe(201);
    const hr = await limitedCaller(owner, ['ManageEmployees']);

    // Set at creation (by HR's key, which the owner issued), changed by HR, then the BIC cleared by the owner.
    const created = await employee(hr.api, { bankAccount: VALID.CZ.bankAccount, bic: VALID.CZ.bic });
    const put = (api: typeof owner, body: Record<string, unknown>) =>
      api.put(`/api/v1/employees/${created.id}`, body).then((r) => {
        expect(r.status).toBe(200);
        return r.body;
      });
    const changed = await put(hr.api, { ...writable(created), bankAccount: NEW_IBAN });
    await put(owner, { ...writable(changed), position: 'Engineer' }); // not bank data: no record
    const same = await put(owner, { ...writable(changed), position: 'Engineer' }); // a no-op
    await put(owner, { ...writable(same), bic: null });

    const path = `/api/v1/employees/${created.id}/bank-data-changes`;
    const all = await owner.get(path);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
    expect(all.body.items).toEqual([
      {
        id: expect.any(String),
        changedAt: expect.any(String),
        changedByEmployeeId: ownerId,
        apiKeyId: expect.any(String),
        keyIssuedByEmployeeId: null,
        changes: [{ field: 'bic', before: VALID.CZ.bic, after: null }],
      },
      {
        id: expect.any(String),
        changedAt: expect.any(String),
        changedByEmployeeId: hr.employeeId,
        apiKeyId: hr.keyId,
        keyIssuedByEmployeeId: ownerId,
        changes: [{ field: 'bankAccount', before: 'CZ…5399', after: 'CZ…7899' }],
      },
      {
        id: expect.any(String),
        changedAt: expect.any(String),
        changedByEmployeeId: hr.employeeId,
        apiKeyId: hr.keyId,
        keyIssuedByEmployeeId: ownerId,
        changes: [
          { field: 'bankAccount', before: null, after: 'CZ…5399' },
          { field: 'bic', before: null, after: VALID.CZ.bic },
        ],
      },
    ]);
    const times = all.body.items.map((c: { changedAt: string }) => Date.parse(c.changedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all.text).not.toContain(VALID.CZ.bankAccount);
    expect(all.text).not.toContain(NEW_IBAN);

    const second = await owner.get(`${path}?page=2&pageSize=1`);
    expect(second.body).toMatchObject({ page: 2, pageSize: 1, total: 3, totalPages: 3 });
    expect(second.body.items.map((c: { id: string }) => c.id)).toEqual([all.body.items[1].id]);

    // The same readers as the personal data: ManageEmployees, ManageCompanyData, the employee themself.
    const admin = await limitedCaller(owner, ['ManageCompanyData']);
    const own = await owner.post('/api/v1/api-keys', { name: 'own', employeeId: created.id });
    for (const reader of [hr.api, admin.api, owner.withKey(own.body.key)])
      expect((await reader.get(path)).body.items).toEqual(all.body.items);
    const other = await limitedCaller(owner, allBut('ManageEmployees', 'ManageCompanyData'));
    const refused = await other.api.get(path);
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(refused.text).not.toContain('CZ…');
    // Their own history they may read (none).
    expect((await other.api.get(`/api/v1/employees/${other.employeeId}/bank-data-changes`)).body.total).toBe(0);
    expect((await owner.get(`/api/v1/employees/${MISSING_ID}/bank-data-changes`)).status).toBe(404);

    // The store keeps the masked values only.
    const stored = await registerModels(stack.employees.deps.mongo)
      .Employee.findOne({ _id: created.id, tenantId })
      .lean();
    expect(stored!.bankDataChanges).toHaveLength(3);
    // Whole numbers only: random ids (uuids, event ids) may well contain "5399" by chance.
    expect(JSON.stringify(stored!.bankDataChanges)).not.toMatch(/192000145399|0000001234567899/);

    // Webhook payloads carry neither the bank data nor its changes (three employee.updated among them).
    const bodies = await eventually(async () => {
      const got = receiver.requests.map((r) => r.body.toString('utf8'));
      return got.filter((b) => b.includes('employee.updated')).length >= 3 ? got : undefined;
    });
    for (const body of bodies) {
      expect(body).not.toMatch(/bankDataChanges|bankAccount|"bic"|…|KOMBCZPP|192000145399|0000001234567899/);
    }
  });
});
