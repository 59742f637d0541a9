// Full replace as the spec asks partners to use it ("echo stored values"), through the gateway, for every
// full-replace resource: the body a GET returned is a valid PUT body. Read-only fields are accepted and
// ignored (even changed ones), unknown fields stay 400, an unchanged PUT is a no-op (same body back, no
// event), and changing one field changes exactly that field (docs/decisions/0035).
import { verify } from '@travel/webhook-verify';
import type { ApiClient, HttpsReceiver } from '@travel/testkit';
import { VALID, costCenter, department, employee, unique } from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

interface Resource {
  name: string;
  path: string;
  /** Read-only fields of the record, as the contract marks them. */
  readOnly: string[];
  /** Makes a record (through the API) and returns its id. */
  make(api: ApiClient): Promise<string>;
  /** One writable field and a new value for it. */
  change(record: any): [string, unknown];
}

const OTHER_ID = '11111111-2222-4333-8444-555555555555';

const RESOURCES: Resource[] = [
  {
    name: 'employee',
    path: '/api/v1/employees',
    readOnly: ['id', 'isAccountOwner', 'createdAt', 'editedAt'],
    make: async (api) => {
      const dep = await department(api);
      const cc = await costCenter(api);
      const e = await employee(api, {
        email: `${unique('rt')}@example.hr`,
        phone: '+385 1 234 5678',
        address: 'Ilica 1, Zagreb',
        ...VALID.HR,
        position: 'Engineer',
        departmentId: dep,
        residency: 'Resident',
        mobileRoadTransportWorker: true,
        costCenterIds: [cc],
        customFields: { badge: 'B-7', level: 3, remote: true, note: null },
        permissions: ['ReadAllEntries'],
      });
      return e.id;
    },
    change: () => ['position', 'Senior engineer'],
  },
  {
    name: 'department',
    path: '/api/v1/departments',
    readOnly: ['id', 'createdAt', 'editedAt'],
    make: async (api) => department(api, unique('RT-'), { parentId: await department(api) }),
    change: () => ['name', `Renamed ${unique()}`],
  },
  {
    name: 'cost center',
    path: '/api/v1/cost-centers',
    readOnly: ['id', 'createdAt', 'editedAt'],
    make: async (api) => costCenter(api, unique('RT-'), { description: 'Travel budget' }),
    change: () => ['isActive', false],
  },
];

describe('round-trip PUT', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack('round-trip', { RATE_LIMIT_BURST: '5000' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A company with a receiver subscribed to every employee event, and its signing secret. */
  async function subscribedTenant() {
    const { api } = await stack.tenant('HR');
    const receiver = await stack.receiver();
    const sub = await api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['employee.created', 'employee.updated'],
    });
    expect(sub.status).toBe(201);
    return { api, receiver, secret: sub.body.signingSecret as string };
  }

  const envelopes = (receiver: HttpsReceiver, secret: string) =>
    receiver.requests.map((r) => {
      verify(r.body, r.headers as Record<string, string>, secret);
      return JSON.parse(r.body.toString('utf8'));
    });

  /** Every event received once the marker (the employee.created of `markerId`) has arrived. */
  async function untilMarker(receiver: HttpsReceiver, secret: string, markerId: string) {
    for (;;) {
      const got = envelopes(receiver, secret);
      if (got.some((e) => e.type === 'employee.created' && e.data.id === markerId)) return got;
      await receiver.waitForRequests(got.length + 1);
    }
  }

  /** The events as [type, record id] pairs, sorted. */
  const summary = (got: any[]) => got.map((e) => [e.type, e.data.id]).sort();

  describe.each(RESOURCES)('$name', (resource) => {
    it('GET → PUT unchanged is a no-op: the same body back, the stored record untouched, no event', async () => {
      const { api, receiver, secret } = await subscribedTenant();
      const id = await resource.make(api);
      const url = `${resource.path}/${id}`;
      const read = await api.get(url);
      expect(read.status).toBe(200);
      for (const field of resource.readOnly) expect(read.body).toHaveProperty(field);

      const put = await api.put(url, read.body);
      expect(put.status).toBe(200);
      expect(put.body).toEqual(read.body);
      expect((await api.get(url)).body).toEqual(read.body);

      // Changed read-only values are ignored too, not an error.
      const tampered = {
        ...read.body,
        id: OTHER_ID,
        createdAt: '2000-01-01T00:00:00.000Z',
        editedAt: '2000-01-01T00:00:00.000Z',
        ...(resource.readOnly.includes('isAccountOwner') ? { isAccountOwner: true } : {}),
      };
      const again = await api.put(url, tampered);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(read.body);
      expect((await api.get(url)).body).toEqual(read.body);
      expect((await api.get(`${resource.path}/${OTHER_ID}`)).status).toBe(404);

      // The marker: an event raised after the no-op PUTs. Once it has arrived, anything they had raised
      // would have arrived before it. Only the creations are there.
      const marker = await employee(api, { lastName: unique('Marker') });
      const got = await untilMarker(receiver, secret, marker.id);
      const created = resource.name === 'employee' ? [['employee.created', id]] : [];
      expect(summary(got)).toEqual([...created, ['employee.created', marker.id]].sort());
    });

    it('GET → change one field → PUT changes exactly that field (and editedAt)', async () => {
      const { api, receiver, secret } = await subscribedTenant();
      const id = await resource.make(api);
      const url = `${resource.path}/${id}`;
      const read = await api.get(url);
      const [field, value] = resource.change(read.body);
      expect(read.body[field]).not.toEqual(value);

      const put = await api.put(url, { ...read.body, [field]: value });
      expect(put.status).toBe(200);
      const { [field]: changed, editedAt, ...rest } = put.body;
      const { [field]: before, editedAt: editedBefore, ...restBefore } = read.body;
      expect(changed).toEqual(value);
      expect(rest).toEqual(restBefore);
      expect(Date.parse(editedAt)).toBeGreaterThan(Date.parse(editedBefore));
      expect(before).not.toEqual(changed);
      expect((await api.get(url)).body).toEqual(put.body);

      // An employee's change raises employee.updated, once, carrying the change; the others raise nothing.
      const marker = await employee(api, { lastName: unique('Marker') });
      const got = await untilMarker(receiver, secret, marker.id);
      const own =
        resource.name === 'employee'
          ? [
              ['employee.created', id],
              ['employee.updated', id],
            ]
          : [];
      expect(summary(got)).toEqual([...own, ['employee.created', marker.id]].sort());
      if (resource.name === 'employee') {
        expect(got.find((e) => e.type === 'employee.updated').data).toMatchObject({ id, [field]: value, editedAt });
      }
    });

    it('refuses a field the resource does not have (400), read-only fields or not', async () => {
      const { api } = await subscribedTenant();
      const id = await resource.make(api);
      const url = `${resource.path}/${id}`;
      const read = await api.get(url);
      const put = await api.put(url, { ...read.body, nickname: 'Unknown field' });
      expect(put.status).toBe(400);
      expect(put.body).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
      expect(JSON.stringify(put.body.errors)).toContain('additional properties');
      expect((await api.get(url)).body).toEqual(read.body);
    });
  });
});
