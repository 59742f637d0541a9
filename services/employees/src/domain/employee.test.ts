import { toEmployeeResponse, toEmployeeSummary, toEmployeeView } from '../http/mappers';
import { sameEmployeeState, shownTo, toEmployeeWebhookDto, type Employee } from './employee';

// Distinctive values: if any of them shows up in the webhook DTO, personal data leaked.
const PII = {
  email: 'ana.pii-leak@example.test',
  phone: '+385-PII-PHONE-555',
  address: 'Ilica 1 PII-ADDRESS, Zagreb',
  taxId: 'PII-TAXID-12345678901',
  bankAccount: 'HR12PII-IBAN-1001005-1863000160',
  bic: 'PIIBICXX',
};

const employee: Employee = {
  _id: 'emp-0001',
  tenantId: 'tenant-PII-TENANT',
  firstName: 'Ana',
  lastName: 'Horvat',
  ...PII,
  position: 'Field Engineer',
  departmentId: 'dep-42',
  status: 'Active',
  isAccountOwner: true,
  isArchived: false,
  residency: 'NonResident',
  mobileRoadTransportWorker: false,
  costCenterIds: ['cc-PII-COSTCENTER'],
  customFields: { badge: 'PII-CUSTOM-FIELD', emergencyContact: 'PII-EMERGENCY' },
  permissions: ['ManageVehicles', 'ReadAllEntries', 'FutureFlag'],
  createdAt: new Date('2026-10-01T08:00:00.000Z'),
  editedAt: new Date('2026-10-07T12:30:15.250Z'),
};

const WEBHOOK_KEYS = [
  'id',
  'firstName',
  'lastName',
  'position',
  'departmentId',
  'status',
  'isAccountOwner',
  'isArchived',
  'permissions',
  'createdAt',
  'editedAt',
];

describe('toEmployeeWebhookDto', () => {
  const dto = toEmployeeWebhookDto(employee);
  const json = JSON.stringify(dto);

  it('has EXACTLY the summary keys', () => {
    expect(Object.keys(dto).sort()).toEqual([...WEBHOOK_KEYS].sort());
  });

  it('carries the summary values, timestamps as ISO 8601 UTC', () => {
    expect(dto).toEqual({
      id: 'emp-0001',
      firstName: 'Ana',
      lastName: 'Horvat',
      position: 'Field Engineer',
      departmentId: 'dep-42',
      status: 'Active',
      isAccountOwner: true,
      isArchived: false,
      permissions: ['ManageVehicles', 'ReadAllEntries', 'FutureFlag'],
      createdAt: '2026-10-01T08:00:00.000Z',
      editedAt: '2026-10-07T12:30:15.250Z',
    });
  });

  it.each([
    'email',
    'phone',
    'address',
    'taxId',
    'bankAccount',
    'bic',
    'tenantId',
    'residency',
    'costCenterIds',
    'customFields',
    '_id',
  ])('has no %s key', (key) => {
    expect(dto).not.toHaveProperty(key);
    expect(json).not.toContain(`"${key}"`);
  });

  it.each(Object.entries(PII))('does not carry the %s value anywhere', (_field, value) => {
    expect(json).not.toContain(value);
  });

  it('does not carry the tenant, cost centers or custom-field values anywhere', () => {
    expect(json).not.toMatch(/PII/);
  });

  it('uses null for an absent position and department', () => {
    const bare = toEmployeeWebhookDto({ ...employee, position: null, departmentId: null });
    expect(bare.position).toBeNull();
    expect(bare.departmentId).toBeNull();
    expect(Object.keys(bare).sort()).toEqual([...WEBHOOK_KEYS].sort());
  });

  it('uses an empty list when a legacy record has no permissions', () => {
    const legacy = { ...employee, permissions: undefined } as unknown as Employee;
    expect(toEmployeeWebhookDto(legacy).permissions).toEqual([]);
  });

  it('carries Inactive and archived employees as such', () => {
    const gone = toEmployeeWebhookDto({ ...employee, status: 'Inactive', isArchived: true, isAccountOwner: false });
    expect(gone).toMatchObject({ status: 'Inactive', isArchived: true, isAccountOwner: false });
  });
});

describe('toEmployeeResponse (the full record, for contrast)', () => {
  it('does carry the personal data the webhook summary leaves out', () => {
    const full = toEmployeeResponse(employee);
    expect(full).toMatchObject({
      id: 'emp-0001',
      ...PII,
      residency: 'NonResident',
      costCenterIds: ['cc-PII-COSTCENTER'],
    });
    expect(full).not.toHaveProperty('tenantId');
    expect(full.createdAt).toBe('2026-10-01T08:00:00.000Z');
  });
});

// docs/decisions/0036: the summary is the webhook DTO plus residency and cost centers, nothing personal.
describe('toEmployeeSummary', () => {
  const summary = toEmployeeSummary(employee);
  const json = JSON.stringify(summary);

  it('has EXACTLY the webhook keys plus residency and costCenterIds', () => {
    expect(Object.keys(summary).sort()).toEqual([...WEBHOOK_KEYS, 'residency', 'costCenterIds'].sort());
    expect(summary).toMatchObject({ residency: 'NonResident', costCenterIds: ['cc-PII-COSTCENTER'] });
  });

  it.each(Object.entries(PII))('does not carry the %s value anywhere', (_field, value) => {
    expect(json).not.toContain(value);
  });

  it('carries no custom-field values and no tenant', () => {
    expect(json).not.toContain('PII-CUSTOM-FIELD');
    expect(json).not.toContain('tenant');
  });
});

describe('shownTo and toEmployeeView', () => {
  const full = toEmployeeResponse(employee);
  const summary = toEmployeeSummary(employee);

  it.each([
    ['ManageEmployees', ['ManageEmployees']],
    ['ManageCompanyData', ['ManageCompanyData']],
    ['every flag', ['ManageVehicles', 'ManageCompanyData', 'ManageEmployees', 'ReadAllEntries']],
  ])('gives the full record to a caller holding %s', (_name, permissions) => {
    expect(toEmployeeView(shownTo({ employeeId: 'someone-else', permissions }, employee))).toEqual(full);
  });

  it("gives the full record to the employee's own caller, without any flag", () => {
    expect(toEmployeeView(shownTo({ employeeId: 'emp-0001', permissions: [] }, employee))).toEqual(full);
  });

  it.each([
    ['no flag', []],
    ['flags that do not read people', ['ManageVehicles', 'EditAllEntries', 'ReadAllEntries', 'ApproveEntries']],
    ['an unknown flag named like one', ['manageemployees', 'ManageEmployeesX']],
  ])('gives the summary to anyone else (%s)', (_name, permissions) => {
    expect(toEmployeeView(shownTo({ employeeId: 'someone-else', permissions }, employee))).toEqual(summary);
  });
});

describe('sameEmployeeState', () => {
  it('a record stored before mobileRoadTransportWorker existed equals the same record with its default false', () => {
    const { mobileRoadTransportWorker: _absent, ...legacy } = employee;
    expect(sameEmployeeState(legacy as Employee, { ...employee, mobileRoadTransportWorker: false })).toBe(true);
    expect(sameEmployeeState(legacy as Employee, { ...employee, mobileRoadTransportWorker: true })).toBe(false);
  });

  it('is true for the same values, whatever the key order of custom fields', () => {
    const reordered = { ...employee, customFields: { emergencyContact: 'PII-EMERGENCY', badge: 'PII-CUSTOM-FIELD' } };
    expect(sameEmployeeState(employee, reordered)).toBe(true);
  });

  it.each<[string, Partial<Employee>]>([
    ['a name', { firstName: 'Anna' }],
    ['an e-mail cleared', { email: null }],
    ['a custom-field value', { customFields: { badge: 'other', emergencyContact: 'PII-EMERGENCY' } }],
    ['a custom field added', { customFields: { ...employee.customFields, extra: 1 } }],
    ['the order of permissions', { permissions: ['ReadAllEntries', 'ManageVehicles', 'FutureFlag'] }],
    ['cost centers', { costCenterIds: [] }],
    ['residency', { residency: 'Resident' }],
    ['archived', { isArchived: true }],
    ['the mobile road-transport flag', { mobileRoadTransportWorker: true }],
  ])('is false when %s changes', (_name, change) => {
    expect(sameEmployeeState(employee, { ...employee, ...change })).toBe(false);
  });
});
