import { canSee, deleteBlocker, vehicleFields, type VehicleFields } from './vehicle';

const stored: VehicleFields = {
  type: 'Company',
  name: 'Pool car',
  licensePlate: 'ZG-1',
  make: 'Škoda',
  model: 'Octavia',
  fuelType: 'Diesel',
  fuelConsumption: '5.40',
  category: 2,
  engineCapacityCc: 1968,
  enginePowerKw: 110,
  ownerEmployeeId: null,
};

describe('vehicleFields', () => {
  it.each([['Truck'], ['company'], [3], [0], [null], [undefined], [true], [['Company']]])(
    'type %p is an error under Type (SPEC: Company or Personal only)',
    (type) => {
      const { errors } = vehicleFields({ type, name: 'x', category: 1 });
      expect(Object.keys(errors)).toEqual(['Type']);
    },
  );

  it('category is required on create only', () => {
    expect(Object.keys(vehicleFields({ type: 'Company', name: 'x' }).errors)).toEqual(['category']);
    expect(vehicleFields({ type: 'Company', name: 'x' }, stored).errors).toEqual({});
  });

  it('on update, omitted category and engine figures keep the stored values; 0 clears them', () => {
    expect(vehicleFields({ type: 'Company', name: 'x' }, stored).fields).toMatchObject({
      category: 2,
      engineCapacityCc: 1968,
      enginePowerKw: 110,
      // Other omitted fields are cleared (full replace).
      make: null,
      model: null,
      licensePlate: null,
      fuelType: null,
    });
    const cleared = vehicleFields(
      { type: 'Company', name: 'x', category: 0, engineCapacityCc: 0, enginePowerKw: 0 },
      stored,
    );
    expect(cleared.fields).toMatchObject({ category: null, engineCapacityCc: null, enginePowerKw: null });
  });

  describe('fuelConsumption (issue 22 §5: the technical certificate, per 100 km)', () => {
    const write = { type: 'Company', name: 'x', category: 1, fuelType: 'Diesel' } as const;

    it('is stored as decimal text with 2 places and returned as a number', () => {
      const { fields, errors } = vehicleFields({ ...write, fuelConsumption: 5.4 });
      expect(errors).toEqual({});
      expect(fields.fuelConsumption).toBe('5.40');
      expect(vehicleFields({ ...write, fuelConsumption: 0.1 }).fields.fuelConsumption).toBe('0.10');
    });

    it('create: omitted, null or 0 stores none', () => {
      for (const fuelConsumption of [undefined, null, 0])
        expect(vehicleFields({ ...write, fuelConsumption }).fields.fuelConsumption).toBeNull();
    });

    it('update: omitted keeps the stored figure, 0 or null clears it, a value replaces it', () => {
      expect(vehicleFields(write, stored).fields.fuelConsumption).toBe('5.40');
      expect(vehicleFields({ ...write, fuelConsumption: 0 }, stored).fields.fuelConsumption).toBeNull();
      expect(vehicleFields({ ...write, fuelConsumption: null }, stored).fields.fuelConsumption).toBeNull();
      expect(vehicleFields({ ...write, fuelConsumption: 6.25 }, stored).fields.fuelConsumption).toBe('6.25');
    });

    it('update: omitted with another fuel type clears it (litres of diesel are not kWh)', () => {
      expect(vehicleFields({ ...write, fuelType: 'Electric' }, stored).fields.fuelConsumption).toBeNull();
      expect(vehicleFields({ type: 'Company', name: 'x' }, stored).fields.fuelConsumption).toBeNull();
      expect(
        vehicleFields({ ...write, fuelType: 'Electric', fuelConsumption: 16.8 }, stored).fields.fuelConsumption,
      ).toBe('16.80');
    });

    it.each([
      [-1, 'must be >= 0'],
      [100.01, 'must be <= 100'],
      [5.456, 'must have at most 2 decimal places'],
    ])('%p is refused under fuelConsumption', (fuelConsumption, message) => {
      expect(vehicleFields({ ...write, fuelConsumption }).errors).toEqual({ fuelConsumption: [message] });
    });
  });

  it('enginePowerKw is 1..2000 (SPEC Limits)', () => {
    for (const ok of [1, 2000])
      expect(vehicleFields({ type: 'Company', name: 'x', category: 1, enginePowerKw: ok }).errors).toEqual({});
    for (const bad of [2001, -5])
      expect(
        Object.keys(vehicleFields({ type: 'Company', name: 'x', category: 1, enginePowerKw: bad }).errors),
      ).toEqual(['enginePowerKw']);
  });

  it('a Personal vehicle needs an owner; a Company one has none', () => {
    expect(Object.keys(vehicleFields({ type: 'Personal', name: 'x', category: 1 }).errors)).toEqual([
      'ownerEmployeeId',
    ]);
    expect(
      Object.keys(
        vehicleFields({
          type: 'Company',
          name: 'x',
          category: 1,
          ownerEmployeeId: '3f2b8a4e-1c7d-4e8a-9b1f-2a6c5d4e3f21',
        }).errors,
      ),
    ).toEqual(['ownerEmployeeId']);
  });
});

describe('canSee', () => {
  const personal = { type: 'Personal' as const, ownerEmployeeId: 'owner' };
  it('company vehicles: everyone; personal: the owner, ManageVehicles, EditAllEntries', () => {
    expect(canSee({ employeeId: 'x', permissions: [] }, { type: 'Company', ownerEmployeeId: null })).toBe(true);
    expect(canSee({ employeeId: 'owner', permissions: [] }, personal)).toBe(true);
    expect(canSee({ employeeId: 'x', permissions: ['ManageVehicles'] }, personal)).toBe(true);
    expect(canSee({ employeeId: 'x', permissions: ['EditAllEntries'] }, personal)).toBe(true);
    expect(canSee({ employeeId: 'x', permissions: ['ReadAllEntries', 'ManageCompanyData'] }, personal)).toBe(false);
  });
});

describe('deleteBlocker (SPEC States: Vehicle)', () => {
  it('blocks on live uses or costs, and says why', () => {
    expect(deleteBlocker({ inUse: 0, costCount: 0 })).toBeUndefined();
    expect(deleteBlocker({ inUse: 1, costCount: 0 })).toContain('1 live mileage expense');
    expect(deleteBlocker({ inUse: 2, costCount: 3 })).toContain('3 costs');
  });
});
