import type { FieldErrors, Market } from '@travel/platform';
import { checkBic, checkIban, type Checked } from '@travel/money';
import { expandPermissions, missingOwnerFlags } from './permissions';
import { sameValue } from './equality';
import { checkTaxId } from './tax-id';
import { addFieldError, optionalText, requiredText, tooLong } from './text';
import { customFieldErrors, employeeListErrors, TEXT_MAX_LENGTH as MAX } from './limits';

export type EmployeeStatus = 'Active' | 'Inactive';
export type Residency = 'Resident' | 'NonResident';

export interface Employee {
  _id: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  taxId: string | null;
  bankAccount: string | null;
  bic: string | null;
  position: string | null;
  departmentId: string | null;
  status: EmployeeStatus;
  isAccountOwner: boolean;
  isArchived: boolean;
  residency: Residency;
  /** SK: the higher foreign per-diem rates of opatrenie 9/2026 Z. z. apply to them (docs/decisions/0125). */
  mobileRoadTransportWorker: boolean;
  costCenterIds: string[];
  customFields: Record<string, unknown>;
  permissions: string[];
  createdAt: Date;
  editedAt: Date;
}

/**
 * What the per-company unique e-mail index compares: the e-mail address, or for an employee without one
 * a value no address can take (its id), so employees without e-mail never clash with each other.
 */
export const emailKeyOf = (e: Pick<Employee, '_id' | 'email'>): string => e.email ?? `no-email:${e._id}`;

/**
 * EmployeeWebhookDto: the PII-free summary pushed to partners. Built field by field (never by copying
 * and deleting) so a new personal field on the record can never leak into a webhook by accident.
 */
export function toEmployeeWebhookDto(e: Employee) {
  return {
    id: e._id,
    firstName: e.firstName,
    lastName: e.lastName,
    position: e.position ?? null,
    departmentId: e.departmentId ?? null,
    status: e.status,
    isAccountOwner: e.isAccountOwner,
    isArchived: e.isArchived,
    permissions: e.permissions ?? [],
    createdAt: e.createdAt.toISOString(),
    editedAt: e.editedAt.toISOString(),
  };
}
export type EmployeeWebhookDto = ReturnType<typeof toEmployeeWebhookDto>;

/** Flags that let a caller read every employee's personal data (the caller's own record needs none). */
export const PERSONAL_DATA_READERS = ['ManageEmployees', 'ManageCompanyData'] as const;

/** Who is asking: their employee and their flags. */
export interface Reader {
  employeeId: string;
  permissions: readonly string[];
}

export const readsAllPersonalData = (reader: Reader): boolean =>
  PERSONAL_DATA_READERS.some((flag) => reader.permissions.includes(flag));

/**
 * An employee as one reader may see them (docs/decisions/0036): `personal` is true for the caller's own
 * employee and for readers of personal data, who get the full record; anyone else gets the summary.
 */
export interface ShownEmployee {
  employee: Employee;
  personal: boolean;
}

export const shownTo = (reader: Reader, employee: Employee): ShownEmployee => ({
  employee,
  personal: readsAllPersonalData(reader) || reader.employeeId === employee._id,
});

const DEFAULTS: Partial<Record<keyof ReplacedFields | 'costCenterIds' | 'permissions', unknown>> = {
  mobileRoadTransportWorker: false,
};

/** Whether a full replace leaves the stored record as it is (then it is a no-op: no write, no event). */
export function sameEmployeeState(
  a: ReplacedFields & Pick<Employee, 'costCenterIds' | 'permissions'>,
  b: ReplacedFields & Pick<Employee, 'costCenterIds' | 'permissions'>,
): boolean {
  const keys: (keyof ReplacedFields | 'costCenterIds' | 'permissions')[] = [
    'firstName',
    'lastName',
    'email',
    'phone',
    'address',
    'taxId',
    'bankAccount',
    'bic',
    'position',
    'departmentId',
    'status',
    'isArchived',
    'residency',
    'mobileRoadTransportWorker',
    'costCenterIds',
    'permissions',
    'customFields',
  ];
  // A record stored before a field existed reads as its default (mobileRoadTransportWorker: false).
  return keys.every((k) => sameValue(a[k] ?? DEFAULTS[k] ?? null, b[k] ?? DEFAULTS[k] ?? null));
}

/** At most this many distinct cost centers per employee write (duplicates count once). */
export const MAX_COST_CENTERS = 100;

/** The body of an employee create or full-replace update, as the contract admits it. */
export interface EmployeeWrite {
  firstName: string;
  lastName: string;
  email?: string | null;
  phone?: string | null;
  address?: string | null;
  taxId?: string | null;
  bankAccount?: string | null;
  bic?: string | null;
  position?: string | null;
  departmentId?: string | null;
  status?: EmployeeStatus;
  isArchived?: boolean;
  residency?: Residency;
  mobileRoadTransportWorker?: boolean;
  costCenterIds?: string[];
  customFields?: Record<string, string | number | boolean | null>;
  permissions?: string[];
}

/** The fields a write replaces (every field but identity, ownership, cost centers, permissions and timestamps). */
export type ReplacedFields = Pick<
  Employee,
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'address'
  | 'taxId'
  | 'bankAccount'
  | 'bic'
  | 'position'
  | 'departmentId'
  | 'status'
  | 'isArchived'
  | 'residency'
  | 'mobileRoadTransportWorker'
  | 'customFields'
>;

const PHONE = /^\+?[0-9 ()./-]+$/;
/**
 * The rule of checkPhone as one pattern (the contract's, with a blank alternative; a drift test compares):
 * an optional leading +, then 3 to 20 digits among spaces and ( ) . / -.
 */
export const PHONE_PATTERN = /^\+?[ ()./-]*(?:[0-9][ ()./-]*){3,20}$/;

/** Digits, spaces and ( ) . / -, an optional leading +, and 3 to 20 digits in all. */
export function checkPhone(value: string): string | undefined {
  if (!PHONE.test(value)) return 'must be a phone number: digits, spaces and ( ) . / -, optionally starting with +';
  const digits = value.replace(/\D/g, '').length;
  if (digits < 3 || digits > 20) return 'must have between 3 and 20 digits';
  return undefined;
}

/** The e-mail as stored: trimmed, lower case, null when blank; longer than 254 characters is a problem. */
function emailText(value: string | null | undefined): { value: string | null; problem?: string } {
  if (value !== undefined && value !== null && typeof value !== 'string')
    return { value: null, problem: 'must be string' };
  const email = value?.trim().toLowerCase() || null;
  return { value: email, problem: email === null ? undefined : tooLong(email, MAX.email) };
}

/**
 * Normalizes and checks the fields a create or full-replace update writes. An omitted optional field is
 * cleared (null, or its default for status, isArchived, residency and mobileRoadTransportWorker). References to other records
 * (department, cost centers) and uniqueness are checked by the use case, which can read the database.
 */
export function replacedFields(input: EmployeeWrite, market: Market): { fields: ReplacedFields; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const text = <T>(field: string, checked: { value: T; problem?: string }): T => {
    addFieldError(errors, field, checked.problem);
    return checked.value;
  };
  const fields: ReplacedFields = {
    firstName: text('firstName', requiredText(input.firstName, MAX.personName)),
    lastName: text('lastName', requiredText(input.lastName, MAX.personName)),
    email: text('email', emailText(input.email)),
    phone: text('phone', optionalText(input.phone, false, MAX.phone)),
    address: text('address', optionalText(input.address, true, MAX.address)),
    taxId: text('taxId', optionalText(input.taxId, false, MAX.taxId)),
    bankAccount: text('bankAccount', optionalText(input.bankAccount, false, MAX.bankAccount)),
    bic: text('bic', optionalText(input.bic, false, MAX.bic)),
    position: text('position', optionalText(input.position, false, MAX.position)),
    departmentId: input.departmentId?.toLowerCase() ?? null,
    status: input.status ?? 'Active',
    isArchived: input.isArchived ?? false,
    residency: input.residency ?? 'Resident',
    mobileRoadTransportWorker: input.mobileRoadTransportWorker ?? false,
    customFields: { ...(input.customFields ?? {}) },
  };
  if (fields.phone) addFieldError(errors, 'phone', checkPhone(fields.phone));
  const normalize = (field: 'taxId' | 'bankAccount' | 'bic', checked: Checked) => {
    if (checked.ok) fields[field] = checked.value;
    else addFieldError(errors, field, checked.message);
  };
  if (fields.taxId) normalize('taxId', checkTaxId(fields.taxId, market, fields.residency === 'Resident'));
  if (fields.bankAccount) normalize('bankAccount', checkIban(fields.bankAccount));
  if (fields.bic) normalize('bic', checkBic(fields.bic));
  Object.assign(errors, customFieldErrors(input.customFields), employeeListErrors(input)); // keys of their own
  return { fields, errors };
}

/**
 * The cost-center list after a write: omitted keeps the current list (an empty one on create), `[]`
 * clears it, a non-empty list replaces it. Ids are compared case-insensitively and kept once, in the
 * order first given; more than MAX_COST_CENTERS distinct ids is an error.
 */
export function nextCostCenterIds(
  current: readonly string[],
  input: readonly string[] | undefined,
): { ids: string[]; error?: string } {
  if (input === undefined) return { ids: [...current] };
  if (!Array.isArray(input) || input.some((id) => typeof id !== 'string'))
    return { ids: [...current], error: 'must be an array of cost-center ids' };
  const ids = [...new Set(input.map((id) => id.toLowerCase()))];
  if (ids.length > MAX_COST_CENTERS) {
    return { ids, error: `must name at most ${MAX_COST_CENTERS} distinct cost centers (names ${ids.length})` };
  }
  return { ids };
}

/** The permission list after a write: omitted keeps the current list; presets expand; unknown flags stay. */
export const nextPermissions = (current: readonly string[], input: readonly string[] | undefined): string[] =>
  input === undefined ? [...current] : expandPermissions(input);

/**
 * The account owner is the company's way in: it stays Active, unarchived, and holds every known flag.
 * Returns the field errors a write would cause on an owner (none for anyone else).
 */
export function accountOwnerErrors(
  next: Pick<Employee, 'isAccountOwner' | 'status' | 'isArchived' | 'permissions'>,
): FieldErrors {
  if (!next.isAccountOwner) return {};
  const errors: FieldErrors = {};
  if (next.status !== 'Active') addFieldError(errors, 'status', 'the account owner must stay Active');
  if (next.isArchived) addFieldError(errors, 'isArchived', 'the account owner cannot be archived');
  const missing = missingOwnerFlags(next.permissions);
  if (missing.length) {
    addFieldError(errors, 'permissions', `the account owner holds every permission; missing: ${missing.join(', ')}`);
  }
  return errors;
}
