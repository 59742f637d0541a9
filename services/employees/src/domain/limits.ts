// Size limits of an employee write that hold whether or not the contract validator ran
// (docs/decisions/0107). The figures are the contract's (`EmployeeWrite`, `CustomFieldValues`);
// limits.test.ts reads the contract and compares. MAX_COST_CENTERS lives beside its rule in employee.ts.
import { BIC_MAX_LENGTH, IBAN_MAX_LENGTH } from '@travel/money';
import type { FieldErrors } from '@travel/platform';
import { checkItems } from '@travel/platform/src/limits';
import { tooLong } from './text';

export const MAX_PERMISSION_ENTRIES = 64;

/** Text an employee, department or cost-center write stores, in characters. */
export const TEXT_MAX_LENGTH = {
  personName: 100,
  email: 254,
  phone: 40,
  address: 500,
  taxId: 32,
  bankAccount: IBAN_MAX_LENGTH,
  bic: BIC_MAX_LENGTH,
  position: 100,
  recordName: 100,
  recordCode: 32,
  costCenterDescription: 500,
} as const;
/** A department's or cost center's code: letters and digits, inner spaces and `._/-` (the contract's pattern). */
export const RECORD_CODE = /^[A-Za-z0-9](?:[A-Za-z0-9 ._/-]*[A-Za-z0-9])?$/;

/** Why a record code is refused (not text, longer than 32, outside the pattern), or undefined. */
export function recordCodeProblem(code: unknown): string | undefined {
  if (typeof code !== 'string') return 'must be string';
  const trimmed = code.trim();
  return (
    tooLong(trimmed, TEXT_MAX_LENGTH.recordCode) ??
    (RECORD_CODE.test(trimmed) ? undefined : `must match pattern "${RECORD_CODE.source}"`)
  );
}
export const MAX_CUSTOM_FIELDS = 50;
export const MAX_CUSTOM_FIELD_TEXT = 1000;
/** A custom field's key: a letter or underscore, then up to 63 letters, digits, `_` or `-` (never `$` or `.`). */
export const CUSTOM_FIELD_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** Errors of the custom fields: at most 50 keys of the key pattern; values text (≤ 1000), finite number, boolean or null. */
export function customFieldErrors(value: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (value === undefined || value === null) return errors;
  if (typeof value !== 'object' || Array.isArray(value)) return { customFields: ['must be object'] };
  const entries = Object.entries(value);
  if (entries.length > MAX_CUSTOM_FIELDS)
    return { customFields: [`must NOT have more than ${MAX_CUSTOM_FIELDS} properties`] };
  for (const [key, v] of entries) {
    if (!CUSTOM_FIELD_KEY.test(key)) add('customFields', `property name "${key.slice(0, 70)}" is invalid`);
    else if (typeof v === 'string' ? v.length > MAX_CUSTOM_FIELD_TEXT : !isScalar(v))
      add(
        `customFields.${key}`,
        `must be text of at most ${MAX_CUSTOM_FIELD_TEXT} characters, a number, a boolean or null`,
      );
  }
  return errors;
}

const isScalar = (v: unknown): boolean =>
  v === null || typeof v === 'boolean' || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Errors of the lists an employee write carries besides the cost centers (those dedupe first: employee.ts). */
export function employeeListErrors(input: { permissions?: unknown }): FieldErrors {
  const errors: FieldErrors = {};
  checkItems(errors, 'permissions', input.permissions, MAX_PERMISSION_ENTRIES);
  return errors;
}
