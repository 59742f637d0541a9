// employee.created and employee.updated as a partner's HTTPS receiver gets them: raised through the
// outbox by every create and every update that changes the record, signed, with EXACTLY the
// EmployeeWebhookDto keys and never a personal value; refused writes and no-op replaces raise nothing.
import { verify } from '@travel/webhook-verify';
import { EMPLOYEE_WEBHOOK_DTO_KEYS, type HttpsReceiver } from '@travel/testkit';
import { VALID, costCenter, department, writable } from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

describe('employees: webhooks', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack('emp-hooks');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  function events(receiver: HttpsReceiver, secret: string) {
    return receiver.requests.map((r) => {
      verify(r.body, r.headers as Record<string, string>, secret);
      return {
        header: r.headers['svc-event'],
        raw: r.body.toString('utf8'),
        envelope: JSON.parse(r.body.toString('utf8')),
      };
    });
  }

  it('create and every changing update raise an event with exactly the summary keys and no personal data', async () => {
    const { api } = await stack.tenant('HR');
    const receiver = await stack.receiver();
    const sub = await api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['employee.created', 'employee.updated'],
    });
    expect(sub.status).toBe(201);
    const secret = sub.body.signingSecret;

    const dep = await department(api);
    const cc = await costCenter(api);
    const pii = {
      email: 'marija.pii@example.hr',
      phone: '+385 91 777 1234',
      address: 'Vukovarska 99, Split',
      ...VALID.HR,
      customFields: { emergencyContact: 'PII-CONTACT-7' },
    };
    const created = await api.post('/api/v1/employees', {
      firstName: 'Marija',
      lastName: 'Babić',
      position: 'Accountant',
      departmentId: dep,
      costCenterIds: [cc],
      residency: 'NonResident',
      permissions: ['FleetManager'],
      ...pii,
    });
    expect(created.status).toBe(201);
    const id = created.body.id;

    // A refused update (an invalid IBAN) raises nothing.
    expect((await api.put(`/api/v1/employees/${id}`, { ...writable(created.body), bankAccount: 'HR00' })).status).toBe(
      400,
    );

    const moved = await api.put(`/api/v1/employees/${id}`, {
      ...writable(created.body),
      position: 'Controller',
      status: 'Inactive',
    });
    expect(moved.status).toBe(200);
    // Sending the record back unchanged is a no-op: no event.
    const same = await api.put(`/api/v1/employees/${id}`, moved.body);
    expect(same.status).toBe(200);
    expect(same.body).toEqual(moved.body);
    const renamed = await api.put(`/api/v1/employees/${id}`, { ...moved.body, firstName: 'Mara' });
    expect(renamed.status).toBe(200);

    // The rename's event is the marker: once it is in, the no-op's would have been too.
    await receiver.waitForRequests(3);
    for (;;) {
      if (events(receiver, secret).some((e) => e.envelope.data.editedAt === renamed.body.editedAt)) break;
      await receiver.waitForRequests(receiver.requests.length + 1);
    }
    const got = events(receiver, secret);
    expect(got).toHaveLength(3);
    const created1 = got.filter((e) => e.envelope.type === 'employee.created');
    const updated = got
      .filter((e) => e.envelope.type === 'employee.updated')
      .sort((a, b) => a.envelope.data.editedAt.localeCompare(b.envelope.data.editedAt));
    expect(created1).toHaveLength(1);
    expect(updated).toHaveLength(2);

    for (const e of got) {
      expect(e.header).toBe(e.envelope.type);
      expect(Object.keys(e.envelope)).toEqual(['id', 'type', 'createdAt', 'data']);
      expect(Object.keys(e.envelope.data).sort()).toEqual(EMPLOYEE_WEBHOOK_DTO_KEYS);
      for (const value of [
        pii.email,
        pii.phone,
        pii.address,
        pii.taxId,
        pii.bankAccount,
        pii.bic,
        'PII-CONTACT-7',
        'NonResident',
        cc,
      ]) {
        expect(e.raw).not.toContain(value);
      }
      for (const key of [
        'email',
        'phone',
        'address',
        'taxId',
        'bankAccount',
        'bic',
        'residency',
        'mobileRoadTransportWorker',
        'costCenterIds',
        'customFields',
        'tenantId',
      ]) {
        expect(e.raw).not.toContain(`"${key}"`);
      }
    }

    expect(created1[0]!.envelope.data).toEqual({
      id,
      firstName: 'Marija',
      lastName: 'Babić',
      position: 'Accountant',
      departmentId: dep,
      status: 'Active',
      isAccountOwner: false,
      isArchived: false,
      permissions: ['ReadAllEntries', 'ManageVehicles'],
      createdAt: created.body.createdAt,
      editedAt: created.body.editedAt,
    });
    expect(updated[0]!.envelope.data).toMatchObject({
      id,
      position: 'Controller',
      status: 'Inactive',
      editedAt: moved.body.editedAt,
      createdAt: created.body.createdAt,
    });
    expect(updated[1]!.envelope.data).toMatchObject({
      id,
      firstName: 'Mara',
      position: 'Controller',
      status: 'Inactive',
      editedAt: renamed.body.editedAt,
    });
  });

  it('a forbidden update raises nothing', async () => {
    const { api } = await stack.tenant('SI');
    const receiver = await stack.receiver();
    await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.updated'] });
    const e = await api.post('/api/v1/employees', { firstName: 'A', lastName: 'B' });
    const noFlagEmployee = await api.post('/api/v1/employees', {
      firstName: 'No',
      lastName: 'Flag',
      permissions: ['ReadAllEntries'],
    });
    const key = await api.post('/api/v1/api-keys', { name: 'limited', employeeId: noFlagEmployee.body.id });
    const limited = api.withKey(key.body.key);
    expect((await limited.put(`/api/v1/employees/${e.body.id}`, { firstName: 'X', lastName: 'Y' })).status).toBe(403);
    // Then an allowed update, whose event is the only one to arrive.
    expect((await api.put(`/api/v1/employees/${e.body.id}`, { firstName: 'Allowed', lastName: 'B' })).status).toBe(200);
    // The allowed update comes after the refused one in the record's own outbox: it is the marker.
    const [only] = await receiver.waitForRequests(1);
    expect(receiver.requests).toHaveLength(1);
    expect(JSON.parse(only!.body.toString('utf8')).data.firstName).toBe('Allowed');
  });
});
