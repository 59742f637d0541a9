// Personal data through the gateway (docs/decisions/0036): the full employee record only for the
// caller's own employee and for callers holding ManageEmployees or ManageCompanyData; everyone else gets
// the summary (the EmployeeWebhookDto fields plus costCenterIds and residency) on detail and list, and
// cannot use the e-mail filter to find out whose address is whose (403, whether the address exists or not).
import type { ApiClient } from '@travel/testkit';
import { EMPLOYEE_WEBHOOK_DTO_KEYS } from '@travel/testkit';
import {
  VALID,
  allBut,
  costCenter,
  employee,
  limitedCaller,
  unique,
} from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

const FULL_KEYS = [
  ...EMPLOYEE_WEBHOOK_DTO_KEYS,
  'address',
  'bankAccount',
  'bic',
  'costCenterIds',
  'customFields',
  'email',
  'mobileRoadTransportWorker',
  'phone',
  'residency',
  'taxId',
].sort();
const SUMMARY_KEYS = [...EMPLOYEE_WEBHOOK_DTO_KEYS, 'costCenterIds', 'residency'].sort();

describe('employees: personal data', () => {
  let stack: E2eStack;
  let owner: ApiClient;
  let target: any;
  const pii = {
    email: `${unique('pii')}@example.hr`,
    phone: '+385 91 555 0101',
    address: 'Radnička 77, Zagreb PII',
    ...VALID.HR,
    customFields: { emergencyContact: 'PII-CONTACT-42' },
  };

  beforeAll(async () => {
    stack = await startE2eStack('emp-pii', { RATE_LIMIT_BURST: '5000' });
    owner = (await stack.tenant('HR')).api;
    const cc = await costCenter(owner);
    target = await employee(owner, {
      lastName: unique('Target'),
      position: 'Accountant',
      residency: 'NonResident',
      costCenterIds: [cc],
      ...pii,
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const keysOf = (record: object) => Object.keys(record).sort();

  function expectNoPersonalData(raw: string) {
    for (const value of [pii.email, pii.phone, pii.address, pii.taxId, pii.bankAccount, pii.bic, 'PII-CONTACT-42']) {
      expect(raw).not.toContain(value);
    }
    for (const key of ['email', 'phone', 'address', 'taxId', 'bankAccount', 'bic', 'customFields']) {
      expect(raw).not.toContain(`"${key}"`);
    }
  }

  describe.each([
    ['the account owner (every flag)', async () => owner],
    ['ManageEmployees alone', async () => (await limitedCaller(owner, ['ManageEmployees'])).api],
    ['ManageCompanyData alone', async () => (await limitedCaller(owner, ['ManageCompanyData'])).api],
  ])('a caller holding %s', (_name, callerOf) => {
    let caller: ApiClient;
    beforeAll(async () => {
      caller = await callerOf();
    });

    it('reads the full record on detail and list', async () => {
      const detail = await caller.get(`/api/v1/employees/${target.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(target);
      expect(keysOf(detail.body)).toEqual(FULL_KEYS);
      const list = await caller.get(`/api/v1/employees?q=${encodeURIComponent(target.lastName)}`);
      expect(list.body.items).toEqual([target]);
    });

    it('finds an employee by e-mail', async () => {
      const found = await caller.get(`/api/v1/employees?email=${encodeURIComponent(pii.email.toUpperCase())}`);
      expect(found.status).toBe(200);
      expect(found.body.items.map((e: any) => e.id)).toEqual([target.id]);
    });
  });

  describe.each([
    ['no flag', []],
    ['every flag but the two that read people', allBut('ManageEmployees', 'ManageCompanyData')],
  ])('a caller holding %s', (_name, flags) => {
    let caller: Awaited<ReturnType<typeof limitedCaller>>;
    beforeAll(async () => {
      caller = await limitedCaller(owner, flags);
    });

    it("gets the summary of someone else's record: the webhook fields, residency and cost centers, nothing personal", async () => {
      const detail = await caller.api.get(`/api/v1/employees/${target.id}`);
      expect(detail.status).toBe(200);
      expect(keysOf(detail.body)).toEqual(SUMMARY_KEYS);
      expect(detail.body).toEqual({
        id: target.id,
        firstName: target.firstName,
        lastName: target.lastName,
        position: 'Accountant',
        departmentId: null,
        status: 'Active',
        isAccountOwner: false,
        isArchived: false,
        residency: 'NonResident',
        costCenterIds: target.costCenterIds,
        permissions: [],
        createdAt: target.createdAt,
        editedAt: target.editedAt,
      });
      expectNoPersonalData(detail.text);
    });

    it('gets summaries in the list, and its own record in full', async () => {
      const list = await caller.api.get('/api/v1/employees?pageSize=100');
      expect(list.status).toBe(200);
      const own = list.body.items.filter((e: any) => e.id === caller.employeeId);
      const others = list.body.items.filter((e: any) => e.id !== caller.employeeId);
      expect(own).toHaveLength(1);
      expect(keysOf(own[0])).toEqual(FULL_KEYS);
      expect(others.length).toBeGreaterThan(1);
      for (const e of others) expect(keysOf(e)).toEqual(SUMMARY_KEYS);
      expect(others.map((e: any) => e.id)).toContain(target.id);
      expectNoPersonalData(JSON.stringify(others));
    });

    it('reads its own record in full', async () => {
      const mine = await caller.api.get(`/api/v1/employees/${caller.employeeId}`);
      expect(mine.status).toBe(200);
      expect(keysOf(mine.body)).toEqual(FULL_KEYS);
      expect(mine.body).toEqual((await owner.get(`/api/v1/employees/${caller.employeeId}`)).body);
    });

    it('cannot filter by e-mail (403), whether the address exists or not: no oracle', async () => {
      const known = await caller.api.get(`/api/v1/employees?email=${encodeURIComponent(pii.email)}`);
      const unknown = await caller.api.get(
        `/api/v1/employees?email=${encodeURIComponent(`${unique('no')}@example.hr`)}`,
      );
      for (const res of [known, unknown]) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: 'FORBIDDEN', status: 403 });
      }
      const { traceId: _a, ...knownBody } = known.body;
      const { traceId: _b, ...unknownBody } = unknown.body;
      expect(knownBody).toEqual(unknownBody);
    });
  });
});
