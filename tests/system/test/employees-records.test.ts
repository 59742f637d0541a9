// Employees through the gateway as a partner uses them: the full record, full-replace updates, the list
// and its filters, field validation keyed by field, e-mail uniqueness, references and tenant isolation.
// Every response is validated against the contract (VALIDATE_RESPONSES=true): a mismatch would be a 500.
import type { ListParams, TravelClient } from '@travel/client';
import type { ApiClient } from '@travel/testkit';
import {
  MISSING_ID,
  VALID,
  costCenter,
  department,
  employee,
  unique,
  writable,
} from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

const FULL_KEYS = [
  'address',
  'bankAccount',
  'bic',
  'costCenterIds',
  'createdAt',
  'customFields',
  'departmentId',
  'editedAt',
  'email',
  'firstName',
  'id',
  'isAccountOwner',
  'isArchived',
  'lastName',
  'mobileRoadTransportWorker',
  'permissions',
  'phone',
  'position',
  'residency',
  'status',
  'taxId',
];

/** The filters of the employee list (the helpers page through it). */
type EmployeeQuery = ListParams<'/api/v1/employees'>['query'];

describe('employees: records', () => {
  let stack: E2eStack;
  let hr: ApiClient;
  let hrOwnerId: string;

  beforeAll(async () => {
    stack = await startE2eStack('emp-records', { RATE_LIMIT_BURST: '5000' });
    const t = await stack.tenant('HR');
    hr = t.api;
    hrOwnerId = t.employeeId;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('create and read', () => {
    it('stores and returns the full record, normalized', async () => {
      const dep = await department(hr);
      const cc = await costCenter(hr);
      const body = {
        firstName: '  Ana ',
        lastName: 'Horvat',
        email: 'Ana.Horvat@Example.HR',
        phone: '+385 91 555 0101',
        address: 'Ilica 1\n10000 Zagreb',
        taxId: 'HR 94577403194',
        bankAccount: 'hr12 1001 0051 8630 0016 0',
        bic: 'zabahr2x',
        position: 'Field Engineer',
        departmentId: dep,
        status: 'Active',
        isArchived: false,
        residency: 'Resident',
        costCenterIds: [cc],
        customFields: { badge: 'B-7', level: 3, remote: true, note: null },
        permissions: ['ReadAllEntries'],
      };
      const created = await hr.post('/api/v1/employees', body);
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(FULL_KEYS);
      expect(created.body).toMatchObject({
        firstName: 'Ana',
        lastName: 'Horvat',
        email: 'ana.horvat@example.hr',
        phone: '+385 91 555 0101',
        address: 'Ilica 1\n10000 Zagreb',
        taxId: '94577403194',
        bankAccount: 'HR1210010051863000160',
        bic: 'ZABAHR2X',
        position: 'Field Engineer',
        departmentId: dep,
        status: 'Active',
        isAccountOwner: false,
        isArchived: false,
        residency: 'Resident',
        costCenterIds: [cc],
        customFields: { badge: 'B-7', level: 3, remote: true, note: null },
        permissions: ['ReadAllEntries'],
      });
      expect(created.body.createdAt).toBe(created.body.editedAt);

      const read = await hr.get(`/api/v1/employees/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);
    });

    it('defaults: Active, not archived, Resident, no cost centers (unrestricted), no permissions, nulls', async () => {
      const created = await hr.post('/api/v1/employees', { firstName: 'Ivo', lastName: 'Kovač' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        status: 'Active',
        isArchived: false,
        isAccountOwner: false,
        residency: 'Resident',
        costCenterIds: [],
        customFields: {},
        permissions: [],
        email: null,
        phone: null,
        address: null,
        taxId: null,
        bankAccount: null,
        bic: null,
        position: null,
        departmentId: null,
      });
    });

    it('stores NonResident, and a non-resident tax id as given (trimmed)', async () => {
      const created = await hr.post('/api/v1/employees', {
        firstName: 'Jan',
        lastName: 'Novák',
        residency: 'NonResident',
        taxId: ' 710319/2745 ',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ residency: 'NonResident', taxId: '710319/2745' });
    });

    it('reads an id in upper case as the same employee', async () => {
      const e = await employee(hr);
      expect((await hr.get(`/api/v1/employees/${e.id.toUpperCase()}`)).body.id).toBe(e.id);
    });

    it('answers an unknown id with 404 and a malformed one with 400', async () => {
      expect((await hr.get(`/api/v1/employees/${MISSING_ID}`)).status).toBe(404);
      const bad = await hr.get('/api/v1/employees/not-a-uuid');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { id: expect.any(Array) } });
    });
  });

  describe('full-replace update', () => {
    it('replaces every field and clears what the body omits (status, isArchived, residency back to defaults)', async () => {
      const dep = await department(hr);
      const e = await employee(hr, {
        email: `${unique('full')}@example.hr`,
        phone: '01 234 5678',
        address: 'Ilica 1',
        ...VALID.HR,
        position: 'Engineer',
        departmentId: dep,
        status: 'Inactive',
        isArchived: true,
        residency: 'NonResident',
        mobileRoadTransportWorker: true,
        customFields: { badge: 'B-1' },
      });
      expect(e.mobileRoadTransportWorker).toBe(true);
      const put = await hr.put(`/api/v1/employees/${e.id}`, { firstName: 'Renamed', lastName: e.lastName });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({
        id: e.id,
        firstName: 'Renamed',
        email: null,
        phone: null,
        address: null,
        taxId: null,
        bankAccount: null,
        bic: null,
        position: null,
        departmentId: null,
        status: 'Active',
        isArchived: false,
        residency: 'Resident',
        mobileRoadTransportWorker: false,
        customFields: {},
        createdAt: e.createdAt,
      });
      expect(Date.parse(put.body.editedAt)).toBeGreaterThanOrEqual(Date.parse(e.editedAt));
      expect((await hr.get(`/api/v1/employees/${e.id}`)).body).toEqual(put.body);
    });

    it('takes back what GET returned, with or without the read-only fields: unchanged, a no-op', async () => {
      const e = await employee(hr, { ...VALID.HR, email: `${unique('echo')}@example.hr`, customFields: { a: 1 } });
      const put = await hr.put(`/api/v1/employees/${e.id}`, writable(e));
      expect(put.status).toBe(200);
      expect(put.body).toEqual(e);
      const echoed = await hr.put(`/api/v1/employees/${e.id}`, e);
      expect(echoed.status).toBe(200);
      expect(echoed.body).toEqual(e);
    });

    it('ignores read-only fields in the body, even changed ones; unknown fields stay 400', async () => {
      const e = await employee(hr);
      const put = await hr.put(`/api/v1/employees/${e.id}`, {
        ...e,
        id: MISSING_ID,
        isAccountOwner: true,
        createdAt: 'not even a timestamp',
        editedAt: 42,
        position: 'Changed',
      });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ id: e.id, isAccountOwner: false, createdAt: e.createdAt, position: 'Changed' });
      const unknown = await hr.put(`/api/v1/employees/${e.id}`, { ...e, salary: 1 });
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe('VALIDATION_FAILED');
    });

    it('answers 404 for an unknown employee', async () => {
      expect((await hr.put(`/api/v1/employees/${MISSING_ID}`, { firstName: 'A', lastName: 'B' })).status).toBe(404);
    });
  });

  describe('list', () => {
    let list: TravelClient;
    let listApi: ApiClient;
    let depA: string;
    const tag = unique('Lst');
    const employees = (query: EmployeeQuery = {}) => list.listAll('/api/v1/employees', { query });
    const firstNames = async (query: EmployeeQuery) => (await employees(query)).map((e) => e.firstName);

    beforeAll(async () => {
      // A company of its own, so counts are exact.
      ({ api: listApi, client: list } = await stack.tenant('SI'));
      depA = await department(listApi);
      const people = [
        { firstName: 'Maja', lastName: `Novak${tag}`, departmentId: depA },
        { firstName: 'Marko', lastName: `Novak${tag}`, status: 'Inactive' },
        { firstName: 'Ana', lastName: `Zupan${tag}`, isArchived: true, departmentId: depA },
        { firstName: 'Luka', lastName: `Kranjc${tag}`, email: `luka.${tag.toLowerCase()}@example.si` },
        { firstName: 'Dot.ted', lastName: `(Paren)${tag}` },
      ];
      for (const p of people) await employee(listApi, p);
    });

    it('pages sorted by last name, then first name, with the envelope', async () => {
      const page = (query: EmployeeQuery & { page?: number }) =>
        list.api.GET('/api/v1/employees', { params: { query } });
      const page1 = await page({ pageSize: 2 });
      expect(page1.response.status).toBe(200);
      expect(page1.data).toMatchObject({ page: 1, pageSize: 2, total: 6, totalPages: 3 }); // 5 + the owner
      const all = await employees();
      const names = all.map((e) => `${e.lastName}|${e.firstName}`);
      expect(names).toEqual([...names].sort());
      const page3 = await page({ pageSize: 2, page: 3 });
      expect(page3.data!.items.map((e) => e.id)).toEqual(all.slice(4, 6).map((e) => e.id));
      expect((await page({ page: 9 })).data).toMatchObject({ items: [], total: 6 });
    });

    it('filters by department, status and archived flag, together', async () => {
      expect((await firstNames({ departmentId: depA })).sort()).toEqual(['Ana', 'Maja']);
      expect(await firstNames({ status: 'Inactive' })).toEqual(['Marko']);
      expect(await firstNames({ isArchived: true })).toEqual(['Ana']);
      expect(await employees({ isArchived: false })).toHaveLength(5);
      expect(await firstNames({ departmentId: depA, isArchived: false, status: 'Active' })).toEqual(['Maja']);
    });

    it('finds by e-mail, case-insensitively', async () => {
      expect(await firstNames({ email: `LUKA.${tag}@EXAMPLE.SI` })).toEqual(['Luka']);
    });

    it('searches first and last names with q: case-insensitive, every word, literal', async () => {
      const q = async (text: string) => (await firstNames({ q: text })).sort();
      expect(await q(`novak${tag.toLowerCase()}`)).toEqual(['Maja', 'Marko']);
      expect(await q('MAR')).toEqual(['Marko']);
      expect(await q(`ma novak${tag}`)).toEqual(['Maja', 'Marko']);
      expect(await q(`maja novak${tag}`)).toEqual(['Maja']);
      // Regular-expression characters are matched literally, never interpreted.
      expect(await q('dot.ted')).toEqual(['Dot.ted']);
      expect(await q('d.t')).toEqual([]); // as a pattern, d.t would match Dot
      expect(await q('(paren)')).toEqual(['Dot.ted']);
      expect(await q('.*')).toEqual([]);
      expect(await q('[')).toEqual([]);
      expect(await q('o(')).toEqual([]);
      expect(await q('*')).toEqual([]);
    });

    it('refuses unknown and malformed filters with 400', async () => {
      for (const query of [
        'status=Gone',
        'isArchived=maybe',
        'departmentId=nope',
        'email=not-an-address',
        'unknown=1',
        'q=',
        `q=${'x'.repeat(101)}`,
      ]) {
        const res = await listApi.get(`/api/v1/employees?${query}`);
        expect({ query, status: res.status, code: res.body.code }).toEqual({
          query,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
      }
    });
  });

  describe('validation: 400 VALIDATION_FAILED keyed by field, never a 500', () => {
    async function errorsOf(body: Record<string, unknown>, api = hr) {
      const res = await api.post('/api/v1/employees', { firstName: 'Val', lastName: 'Idation', ...body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      return res.body.errors as Record<string, string[]>;
    }

    it.each([
      ['firstName', { firstName: '' }],
      ['firstName', { firstName: '   ' }],
      ['firstName', { firstName: 'x'.repeat(101) }],
      ['lastName', { lastName: 'Tab\there' }],
      ['email', { email: 'not-an-email' }],
      ['email', { email: `${'a'.repeat(250)}@x.hr` }],
      ['phone', { phone: 'call me maybe' }],
      ['phone', { phone: '+1' }],
      ['address', { address: 'x'.repeat(501) }],
      ['position', { position: 'x'.repeat(101) }],
      ['taxId', { taxId: '33392005962' }],
      ['taxId', { taxId: 'x'.repeat(33) }],
      ['bankAccount', { bankAccount: 'HR1210010051863000161' }],
      ['bankAccount', { bankAccount: 'HR121001005186300016' }],
      ['bankAccount', { bankAccount: 'DE8937040044053201300' }],
      ['bic', { bic: 'ZABAHR2' }],
      ['bic', { bic: 'ZABA1R2X' }],
      ['departmentId', { departmentId: 'not-a-uuid' }],
      ['departmentId', { departmentId: MISSING_ID }],
      ['status', { status: 'Retired' }],
      ['isArchived', { isArchived: 'yes' }],
      ['residency', { residency: 'Martian' }],
      ['mobileRoadTransportWorker', { mobileRoadTransportWorker: 'yes' }],
      ['customFields', { customFields: { 'bad.key': 1 } }],
      ['customFields.nested', { customFields: { nested: { no: 1 } } }],
      ['permissions[0]', { permissions: ['not a flag'] }],
    ])('%s: %j', async (key, body) => {
      const errors = await errorsOf(body);
      expect(Object.keys(errors)).toContain(key);
    });

    it('reports every invalid field at once (contract checks first, then the rules beyond the contract)', async () => {
      // The shapes of a name, an IBAN, a BIC and a phone number are the contract's patterns (0119).
      const contract = await errorsOf({
        email: 'x',
        status: 'Gone',
        residency: 'Mars',
        departmentId: 'nope',
        firstName: ' ',
        bankAccount: 'HR00',
        bic: 'B',
        phone: 'p',
      });
      expect(Object.keys(contract).sort()).toEqual([
        'bankAccount',
        'bic',
        'departmentId',
        'email',
        'firstName',
        'phone',
        'residency',
        'status',
      ]);
      // Beyond the contract: the market's tax id, the IBAN's check digits, a department that must exist.
      const rules = await errorsOf({ taxId: '1', bankAccount: 'HR12 1001 0051 8630 0016 1', departmentId: MISSING_ID });
      expect(Object.keys(rules).sort()).toEqual(['bankAccount', 'departmentId', 'taxId']);
    });

    it("checks the tax id by the company's market for residents, and only its shape for non-residents", async () => {
      const tenants = await Promise.all(
        (['SI', 'PL', 'CZ', 'SK'] as const).map(async (m) => [m, (await stack.tenant(m)).api] as const),
      );
      for (const [market, api] of tenants) {
        const ok = await api.post('/api/v1/employees', { firstName: 'T', lastName: market, ...VALID[market] });
        expect({ market, status: ok.status }).toEqual({ market, status: 201 });
      }
      const [[, si], [, pl]] = tenants;
      expect(Object.keys(await errorsOf({ taxId: '50223055' }, si))).toEqual(['taxId']);
      expect(Object.keys(await errorsOf({ taxId: '44051401358' }, pl))).toEqual(['taxId']);
      expect(
        (
          await hr.post('/api/v1/employees', {
            firstName: 'Non',
            lastName: 'Resident',
            residency: 'NonResident',
            taxId: '50223054',
          })
        ).status,
      ).toBe(201);
      const [, cz] = tenants[2]!;
      expect(Object.keys(await errorsOf({ taxId: '12#34' }, cz))).toEqual(['taxId']);
    });

    it('validates PUT bodies the same way, and changing residency re-checks the tax id', async () => {
      const e = await employee(hr, { residency: 'NonResident', taxId: '50223054' });
      const res = await hr.put(`/api/v1/employees/${e.id}`, { ...writable(e), residency: 'Resident' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['taxId']);
    });

    it('answers a number too large for JSON arithmetic in a custom field with 400', async () => {
      const res = await hr.post('/api/v1/employees', '{"firstName":"A","lastName":"B","customFields":{"n":1e400}}', {
        'content-type': 'application/json',
      });
      expect(res.status).toBe(400);
    });
  });

  describe('e-mail is unique within a company', () => {
    it('409 CONFLICT on create and on update, compared case-insensitively; another company may use it', async () => {
      const email = `${unique('dup')}@example.hr`;
      const first = await employee(hr, { email });
      const dup = await hr.post('/api/v1/employees', { firstName: 'B', lastName: 'B', email: email.toUpperCase() });
      expect(dup.status).toBe(409);
      expect(dup.body).toMatchObject({ code: 'CONFLICT', status: 409 });

      const second = await employee(hr, { email: `${unique('other')}@example.hr` });
      const clash = await hr.put(`/api/v1/employees/${second.id}`, { ...writable(second), email });
      expect(clash.status).toBe(409);
      expect((await hr.get(`/api/v1/employees/${second.id}`)).body.email).toBe(second.email);

      // Keeping one's own address is not a clash; nor is another company using it.
      expect((await hr.put(`/api/v1/employees/${first.id}`, writable(first))).status).toBe(200);
      const other = (await stack.tenant('HR')).api;
      expect((await other.post('/api/v1/employees', { firstName: 'C', lastName: 'C', email })).status).toBe(201);
    });

    it('lets any number of employees have no e-mail', async () => {
      for (let i = 0; i < 3; i++)
        expect((await hr.post('/api/v1/employees', { firstName: 'No', lastName: `Mail${i}` })).status).toBe(201);
    });

    it('frees an address once its employee changes it', async () => {
      const email = `${unique('moved')}@example.hr`;
      const a = await employee(hr, { email });
      expect((await hr.put(`/api/v1/employees/${a.id}`, { ...writable(a), email: null })).status).toBe(200);
      expect((await hr.post('/api/v1/employees', { firstName: 'New', lastName: 'Owner', email })).status).toBe(201);
    });
  });

  describe('the account owner', () => {
    it('can be renamed but stays Active, unarchived and with every permission (400 keyed by field)', async () => {
      const owner = (await hr.get(`/api/v1/employees/${hrOwnerId}`)).body;
      expect(owner.isAccountOwner).toBe(true);
      const renamed = await hr.put(`/api/v1/employees/${hrOwnerId}`, { ...writable(owner), firstName: 'Olga' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ firstName: 'Olga', isAccountOwner: true, permissions: owner.permissions });

      const refused = await hr.put(`/api/v1/employees/${hrOwnerId}`, {
        ...writable(owner),
        status: 'Inactive',
        isArchived: true,
        permissions: ['ReadAllEntries'],
      });
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.errors).sort()).toEqual(['isArchived', 'permissions', 'status']);
    });
  });

  describe('tenant isolation', () => {
    it("answers another company's employee with 404 on read and update, and never lists it", async () => {
      const mine = await employee(hr, { lastName: unique('Mine'), email: `${unique('mine')}@example.hr` });
      const other = (await stack.tenant('CZ')).api;
      expect((await other.get(`/api/v1/employees/${mine.id}`)).status).toBe(404);
      const put = await other.put(`/api/v1/employees/${mine.id}`, { firstName: 'Stolen', lastName: 'Record' });
      expect(put.status).toBe(404);
      expect((await hr.get(`/api/v1/employees/${mine.id}`)).body.firstName).toBe(mine.firstName);
      expect((await other.get(`/api/v1/employees?q=${mine.lastName}`)).body.total).toBe(0);
      expect((await other.get(`/api/v1/employees?email=${encodeURIComponent(mine.email)}`)).body.total).toBe(0);
    });

    it("refuses another company's department as departmentId (400)", async () => {
      const other = (await stack.tenant('CZ')).api;
      const theirs = await department(other);
      const res = await hr.post('/api/v1/employees', { firstName: 'A', lastName: 'B', departmentId: theirs });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ departmentId: ['must be a department of this company'] });
    });
  });
});
