// Fixtures for tests of the organization context through the gateway: everything is set up the way a
// partner would, through the public API with the owner's key.
import { ApiClient } from '@travel/testkit';

export const PERMISSIONS = [
  'ManageVehicles',
  'ManageCompanyData',
  'ManageEmployees',
  'EditAllEntries',
  'ReadAllEntries',
  'ApproveEntries',
  'ManagePayouts',
] as const;

/** Every flag but the named ones. */
export const allBut = (...flags: string[]) => PERMISSIONS.filter((p) => !flags.includes(p));

/** Valid personal data per market, for residents (tax ids pass the market's rule). */
export const VALID = {
  HR: { taxId: '94577403194', bankAccount: 'HR1210010051863000160', bic: 'ZABAHR2X' },
  SI: { taxId: '50223054', bankAccount: 'SI56263300012039086', bic: 'LJBASI2X' },
  SK: { taxId: '7103192745', bankAccount: 'SK3112000000198742637541', bic: 'TATRSKBX' },
  CZ: { taxId: '7103192745', bankAccount: 'CZ6508000000192000145399', bic: 'KOMBCZPP' },
  PL: { taxId: '44051401359', bankAccount: 'PL61109010140000071219812874', bic: 'BPKOPLPW' },
} as const;

/** A uuid no record has. */
export const MISSING_ID = '00000000-0000-4000-8000-00000000dead';

let seq = 0;
/** A unique, recognizable name part per call, so tests in one company never collide. */
export const unique = (prefix = 'x') => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

export interface LimitedCaller {
  api: ApiClient;
  employeeId: string;
  keyId: string;
}

/**
 * An employee holding exactly `permissions`, created by `owner` through the API, and a client with a key
 * issued for that employee through POST /api-keys, as a company would hand a limited key to someone.
 */
export async function limitedCaller(
  owner: ApiClient,
  permissions: string[],
  name = unique('limited'),
): Promise<LimitedCaller> {
  const employee = await owner.post('/api/v1/employees', { firstName: 'Limited', lastName: name, permissions });
  if (employee.status !== 201) throw new Error(`creating the limited employee: ${employee.status} ${employee.text}`);
  const key = await owner.post('/api/v1/api-keys', { name: `key of ${name}`, employeeId: employee.body.id });
  if (key.status !== 201) throw new Error(`issuing the limited key: ${key.status} ${key.text}`);
  return { api: owner.withKey(key.body.key), employeeId: employee.body.id, keyId: key.body.id };
}

/** Creates a cost center and returns its id. */
export async function costCenter(
  api: ApiClient,
  code = unique('CC-'),
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await api.post('/api/v1/cost-centers', { name: `Cost center ${code}`, code, ...extra });
  if (res.status !== 201) throw new Error(`creating cost center ${code}: ${res.status} ${res.text}`);
  return res.body.id;
}

/** Creates a department and returns its id. */
export async function department(
  api: ApiClient,
  code = unique('D-'),
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await api.post('/api/v1/departments', { name: `Department ${code}`, code, ...extra });
  if (res.status !== 201) throw new Error(`creating department ${code}: ${res.status} ${res.text}`);
  return res.body.id;
}

/** Creates an employee (owner's key by default) and returns the response body. */
export async function employee(api: ApiClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post('/api/v1/employees', { firstName: 'Test', lastName: unique('Employee'), ...body });
  if (res.status !== 201) throw new Error(`creating an employee: ${res.status} ${res.text}`);
  return res.body;
}

/**
 * The writable part of an employee record as GET returns it. A client may also send the whole record back
 * (read-only fields are ignored, docs/decisions/0035); tests use this where they mean "the writable fields".
 */
export function writable(record: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, isAccountOwner: _owner, createdAt: _c, editedAt: _e, ...rest } = record;
  return rest;
}
