import { contractAt } from '@travel/contracts';
import { MAX_COST_CENTERS, nextCostCenterIds, replacedFields } from './employee';
import {
  CUSTOM_FIELD_KEY,
  MAX_CUSTOM_FIELD_TEXT,
  MAX_CUSTOM_FIELDS,
  MAX_PERMISSION_ENTRIES,
  RECORD_CODE,
  TEXT_MAX_LENGTH,
} from './limits';
import { costCenterFields, departmentFields } from './org';

// Issue 20 §2: an employee write that skipped the contract validator keeps the contract's sizes
// (docs/decisions/0107). Each test calls the domain with the value the validator would have refused.

const S = '/components/schemas';
const base = { firstName: 'Ana', lastName: 'Horvat' };
const ids = (n: number) =>
  Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

describe('the contract states the figures the domain enforces', () => {
  it.each([
    [`${S}/EmployeeWrite/properties/costCenterIds/x-maxDistinctItems`, MAX_COST_CENTERS],
    [`${S}/Employee/properties/costCenterIds/maxItems`, MAX_COST_CENTERS],
    [`${S}/EmployeeWrite/properties/permissions/maxItems`, MAX_PERMISSION_ENTRIES],
    [`${S}/CustomFieldValues/maxProperties`, MAX_CUSTOM_FIELDS],
    [`${S}/CustomFieldValues/additionalProperties/anyOf/0/maxLength`, MAX_CUSTOM_FIELD_TEXT],
    [`${S}/CustomFieldValues/propertyNames/pattern`, CUSTOM_FIELD_KEY.source],
    [`${S}/PersonName/maxLength`, TEXT_MAX_LENGTH.personName],
    [`${S}/EmployeeWrite/properties/email/maxLength`, TEXT_MAX_LENGTH.email],
    [`${S}/EmployeeWrite/properties/phone/maxLength`, TEXT_MAX_LENGTH.phone],
    [`${S}/EmployeeWrite/properties/address/maxLength`, TEXT_MAX_LENGTH.address],
    [`${S}/EmployeeWrite/properties/taxId/maxLength`, TEXT_MAX_LENGTH.taxId],
    [`${S}/EmployeeWrite/properties/bankAccount/maxLength`, TEXT_MAX_LENGTH.bankAccount],
    [`${S}/EmployeeWrite/properties/bic/maxLength`, TEXT_MAX_LENGTH.bic],
    [`${S}/EmployeeWrite/properties/position/maxLength`, TEXT_MAX_LENGTH.position],
    [`${S}/RecordName/maxLength`, TEXT_MAX_LENGTH.recordName],
    [`${S}/RecordCode/maxLength`, TEXT_MAX_LENGTH.recordCode],
    [`${S}/RecordCode/pattern`, RECORD_CODE.source],
    [`${S}/CostCenterWrite/properties/description/maxLength`, TEXT_MAX_LENGTH.costCenterDescription],
  ])('%s is %s', (pointer, value) => {
    expect(contractAt(pointer)).toBe(value);
  });
});

describe('employee write sizes', () => {
  it('101 distinct cost centers are refused; duplicates count once', () => {
    expect(nextCostCenterIds([], ids(101)).error).toMatch(/at most 100 distinct/);
    expect(nextCostCenterIds([], [...ids(100), ...ids(100)]).error).toBeUndefined();
  });

  it('cost centers that are not a list of ids are refused, not a 500', () => {
    expect(nextCostCenterIds([], 'cc1' as unknown as string[]).error).toBe('must be an array of cost-center ids');
    expect(nextCostCenterIds([], [{}] as unknown as string[]).error).toBe('must be an array of cost-center ids');
  });

  it('more than 64 permission entries', () => {
    const permissions = new Array(65).fill('ReadAllEntries');
    expect(replacedFields({ ...base, permissions }, 'HR').errors).toEqual({
      permissions: ['must NOT have more than 64 items'],
    });
  });

  it('more than 50 custom fields', () => {
    const customFields = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, i]));
    expect(replacedFields({ ...base, customFields }, 'HR').errors).toEqual({
      customFields: ['must NOT have more than 50 properties'],
    });
  });

  it('custom field keys outside the pattern (an operator key) and oversized or nested values', () => {
    const customFields = { $where: 'x', 'a.b': 1, long: 'x'.repeat(1001), nested: { a: 1 }, ok: 'fine', n: null };
    expect(replacedFields({ ...base, customFields } as never, 'HR').errors).toEqual({
      customFields: ['property name "$where" is invalid', 'property name "a.b" is invalid'],
      'customFields.long': ['must be text of at most 1000 characters, a number, a boolean or null'],
      'customFields.nested': ['must be text of at most 1000 characters, a number, a boolean or null'],
    });
  });
});

describe('stored text keeps the contract’s lengths', () => {
  it('an employee’s names, e-mail, address and position', () => {
    const errors = replacedFields(
      {
        firstName: 'A'.repeat(101),
        lastName: 'Horvat',
        email: `${'a'.repeat(250)}@x.hr`,
        address: 'x'.repeat(501),
        position: 'p'.repeat(101),
      },
      'HR',
    ).errors;
    expect(errors).toEqual({
      firstName: ['must NOT have more than 100 characters'],
      email: ['must NOT have more than 254 characters'],
      address: ['must NOT have more than 500 characters'],
      position: ['must NOT have more than 100 characters'],
    });
  });

  it('text fields that are not text are refused, not a 500', () => {
    expect(replacedFields({ firstName: 42, lastName: 'H', position: {} } as never, 'HR').errors).toEqual({
      firstName: ['must be string'],
      position: ['must be string'],
    });
  });

  it('a department’s and a cost center’s name, code and description', () => {
    expect(departmentFields({ name: 'n'.repeat(101), code: 'C'.repeat(33) }).errors).toEqual({
      name: ['must NOT have more than 100 characters'],
      code: ['must NOT have more than 32 characters'],
    });
    expect(costCenterFields({ name: 'Sales', code: 'CC$1', description: 'd'.repeat(501) }).errors).toEqual({
      code: [`must match pattern "${RECORD_CODE.source}"`],
      description: ['must NOT have more than 500 characters'],
    });
  });
});
