import {
  accountOwnerErrors,
  checkPhone,
  emailKeyOf,
  MAX_COST_CENTERS,
  nextCostCenterIds,
  nextPermissions,
  PHONE_PATTERN,
  replacedFields,
} from './employee';
import { blankOr } from '@travel/text-rules';
import { PERMISSIONS } from './permissions';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('replacedFields', () => {
  it('clears every omitted optional field and applies the defaults (a full replace)', () => {
    expect(replacedFields({ firstName: 'Ana', lastName: 'Horvat' }, 'HR')).toEqual({
      fields: {
        firstName: 'Ana',
        lastName: 'Horvat',
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
      },
      errors: {},
    });
    expect(
      replacedFields({ firstName: 'Ana', lastName: 'Horvat', mobileRoadTransportWorker: true }, 'SK').fields
        .mobileRoadTransportWorker,
    ).toBe(true);
  });

  it('trims text, stores blank optional text as null, lower-cases e-mail and ids', () => {
    const { fields, errors } = replacedFields(
      {
        firstName: '  Ana ',
        lastName: ' Horvat',
        email: ' Ana.Horvat@Example.HR ',
        phone: '   ',
        position: ' Engineer ',
        address: 'Ilica 1\n10000 Zagreb',
        departmentId: id(7).toUpperCase(),
      },
      'HR',
    );
    expect(errors).toEqual({});
    expect(fields).toMatchObject({
      firstName: 'Ana',
      lastName: 'Horvat',
      email: 'ana.horvat@example.hr',
      phone: null,
      position: 'Engineer',
      address: 'Ilica 1\n10000 Zagreb',
      departmentId: id(7),
    });
  });

  it('normalizes the bank identifiers and an HR resident OIB', () => {
    const { fields, errors } = replacedFields(
      {
        firstName: 'A',
        lastName: 'B',
        bankAccount: 'hr12 1001 0051 8630 0016 0',
        bic: 'zaba hr 2x',
        taxId: 'HR 94577403194',
      },
      'HR',
    );
    expect(errors).toEqual({});
    expect(fields).toMatchObject({ bankAccount: 'HR1210010051863000160', bic: 'ZABAHR2X', taxId: '94577403194' });
  });

  it('reports every invalid field under its own key, all at once', () => {
    const { errors } = replacedFields(
      {
        firstName: '  ',
        lastName: 'B\u0007',
        phone: 'call me',
        taxId: '33392005962',
        bankAccount: 'HR1210010051863000161',
        bic: 'ZABA',
        position: 'Boss\u0000',
      },
      'HR',
    );
    expect(Object.keys(errors).sort()).toEqual([
      'bankAccount',
      'bic',
      'firstName',
      'lastName',
      'phone',
      'position',
      'taxId',
    ]);
    expect(errors.firstName).toEqual(['must not be blank']);
    expect(errors.taxId).toEqual(['is not a valid OIB (wrong check digit)']);
  });

  it("applies the market's tax-id rule to residents only", () => {
    const foreign = '33392005962';
    expect(replacedFields({ firstName: 'A', lastName: 'B', taxId: foreign }, 'HR').errors).toHaveProperty('taxId');
    expect(
      replacedFields({ firstName: 'A', lastName: 'B', taxId: foreign, residency: 'NonResident' }, 'HR'),
    ).toMatchObject({
      fields: { taxId: foreign },
      errors: {},
    });
  });

  it('keeps custom-field values as given, in a copy', () => {
    const customFields = { badge: 'B-7', level: 3, remote: true, note: null };
    const { fields } = replacedFields({ firstName: 'A', lastName: 'B', customFields }, 'CZ');
    expect(fields.customFields).toEqual(customFields);
    expect(fields.customFields).not.toBe(customFields);
  });
});

describe('checkPhone', () => {
  it.each(['+385 91 555 0101', '(01) 234-5678', '091/555.0101', '112'])('accepts %p', (phone) => {
    expect(checkPhone(phone)).toBeUndefined();
  });

  it.each([
    ['letters', '+385 91 CALL', 'must be a phone number: digits, spaces and ( ) . / -, optionally starting with +'],
    ['a + in the middle', '385+91', 'must be a phone number: digits, spaces and ( ) . / -, optionally starting with +'],
    ['two digits', '+12', 'must have between 3 and 20 digits'],
    ['21 digits', '1'.repeat(21), 'must have between 3 and 20 digits'],
  ])('refuses %s', (_what, phone, message) => {
    expect(checkPhone(phone)).toBe(message);
  });

  // The contract's pattern says the same as checkPhone (docs/decisions/0119): what it lets through, the
  // check accepts (after trimming, as the write does), and the reverse.
  it.each([
    '+385 91 555 0101',
    '(01) 234-5678',
    '091/555.0101',
    '112',
    ' +385 1 ',
    '1'.repeat(20),
    '+12',
    '1'.repeat(21),
    '385+91',
    '+385 91 CALL',
    '++385 1 234',
    '(.) 12',
    '',
  ])('PHONE_PATTERN and checkPhone agree on %p', (phone) => {
    expect(blankOr(PHONE_PATTERN).test(phone)).toBe(phone.trim() === '' || checkPhone(phone.trim()) === undefined);
  });
});

describe('nextCostCenterIds', () => {
  const stored = [id(1), id(2)];

  it('omitted: keeps the stored list (an empty one on create)', () => {
    expect(nextCostCenterIds(stored, undefined)).toEqual({ ids: stored });
    expect(nextCostCenterIds([], undefined)).toEqual({ ids: [] });
  });

  it('empty: clears it', () => {
    expect(nextCostCenterIds(stored, [])).toEqual({ ids: [] });
  });

  it('non-empty: replaces it entirely', () => {
    expect(nextCostCenterIds(stored, [id(3)])).toEqual({ ids: [id(3)] });
  });

  it('keeps each id once, first-seen order, comparing case-insensitively', () => {
    expect(nextCostCenterIds([], [id(2), id(1), id(2).toUpperCase(), id(1)])).toEqual({ ids: [id(2), id(1)] });
  });

  it(`accepts ${MAX_COST_CENTERS} distinct ids however often repeated, refuses ${MAX_COST_CENTERS + 1}`, () => {
    const hundred = Array.from({ length: MAX_COST_CENTERS }, (_, i) => id(i));
    const withRepeats = [...hundred, ...hundred, id(0)];
    expect(withRepeats).toHaveLength(2 * MAX_COST_CENTERS + 1);
    expect(nextCostCenterIds([], withRepeats)).toEqual({ ids: hundred });
    const tooMany = [...hundred, id(MAX_COST_CENTERS)];
    expect(nextCostCenterIds([], tooMany).error).toBe(
      `must name at most ${MAX_COST_CENTERS} distinct cost centers (names ${MAX_COST_CENTERS + 1})`,
    );
  });
});

describe('nextPermissions', () => {
  it('omitted keeps the stored list; a list replaces it, presets expanded and unknown flags kept', () => {
    expect(nextPermissions(['ManageVehicles', 'FutureFlag'], undefined)).toEqual(['ManageVehicles', 'FutureFlag']);
    expect(nextPermissions(['ManageVehicles'], ['FleetManager', 'FutureFlag'])).toEqual([
      'ReadAllEntries',
      'ManageVehicles',
      'FutureFlag',
    ]);
    expect(nextPermissions(['ManageVehicles'], [])).toEqual([]);
  });
});

describe('accountOwnerErrors', () => {
  const owner = { isAccountOwner: true, status: 'Active' as const, isArchived: false, permissions: [...PERMISSIONS] };

  it('accepts an owner that stays Active, unarchived, with every flag (and any extra ones)', () => {
    expect(accountOwnerErrors(owner)).toEqual({});
    expect(accountOwnerErrors({ ...owner, permissions: [...PERMISSIONS, 'FutureFlag'] })).toEqual({});
  });

  it('refuses to deactivate, archive or strip an owner', () => {
    expect(
      accountOwnerErrors({ ...owner, status: 'Inactive', isArchived: true, permissions: ['ManageVehicles'] }),
    ).toEqual({
      status: ['the account owner must stay Active'],
      isArchived: ['the account owner cannot be archived'],
      permissions: [
        `the account owner holds every permission; missing: ${PERMISSIONS.filter((p) => p !== 'ManageVehicles').join(', ')}`,
      ],
    });
  });

  it('does not apply to anyone else', () => {
    expect(
      accountOwnerErrors({ ...owner, isAccountOwner: false, status: 'Inactive', isArchived: true, permissions: [] }),
    ).toEqual({});
  });
});

describe('emailKeyOf', () => {
  it('is the address, or a per-employee value no address can take', () => {
    expect(emailKeyOf({ _id: id(1), email: 'a@b.hr' })).toBe('a@b.hr');
    expect(emailKeyOf({ _id: id(1), email: null })).not.toBe(emailKeyOf({ _id: id(2), email: null }));
    expect(emailKeyOf({ _id: id(1), email: null })).not.toContain('@');
  });
});
