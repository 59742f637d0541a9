import { contractAt } from '@travel/contracts';
import { MAX_AMOUNT } from '@travel/money';
import { costFields } from './cost';
import { deadlineFields } from './deadline';
import { MAX_FILES_PER_REQUEST } from './document-file';
import {
  MAX_CATEGORY,
  MAX_ENGINE_CAPACITY_CC,
  MAX_FUEL_CONSUMPTION,
  MAX_ODOMETER_KM,
  MAX_REMIND_DAYS_BEFORE,
  TEXT_MAX_LENGTH,
} from './limits';
import { MAX_ENGINE_POWER_KW, vehicleFields } from './vehicle';

// Issue 20 §2: fleet writes that skipped the contract validator keep the contract's ranges
// (docs/decisions/0107). Each test calls the domain with the value the validator would have refused.

const S = '/components/schemas';

describe('the contract states the figures the domain enforces', () => {
  it.each([
    [`${S}/VehicleCostAmount/exclusiveMinimum`, 0],
    [`${S}/VehicleCostAmount/maximum`, MAX_AMOUNT],
    [`${S}/VehicleCostWrite/properties/odometerKm/maximum`, MAX_ODOMETER_KM],
    [`${S}/VehicleWrite/properties/category/maximum`, MAX_CATEGORY],
    [`${S}/VehicleWrite/properties/engineCapacityCc/maximum`, MAX_ENGINE_CAPACITY_CC],
    [`${S}/VehicleWrite/properties/enginePowerKw/maximum`, MAX_ENGINE_POWER_KW],
    [`${S}/VehicleWrite/properties/fuelConsumption/maximum`, MAX_FUEL_CONSUMPTION],
    [`${S}/VehicleWrite/properties/fuelConsumption/minimum`, 0],
    [`${S}/VehicleDeadlineWrite/properties/remindDaysBefore/maximum`, MAX_REMIND_DAYS_BEFORE],
    [
      '/paths/~1api~1v1~1vehicles~1{id}~1documents/post/requestBody/content/multipart~1form-data/schema/properties/files/anyOf/1/maxItems',
      MAX_FILES_PER_REQUEST,
    ],
    [`${S}/RecordName/maxLength`, TEXT_MAX_LENGTH.vehicleName],
    [`${S}/VehicleWrite/properties/licensePlate/maxLength`, TEXT_MAX_LENGTH.licensePlate],
    [`${S}/VehicleWrite/properties/make/maxLength`, TEXT_MAX_LENGTH.make],
    [`${S}/VehicleWrite/properties/model/maxLength`, TEXT_MAX_LENGTH.model],
    [`${S}/VehicleCostWrite/properties/note/maxLength`, TEXT_MAX_LENGTH.note],
    [`${S}/VehicleDeadlineWrite/properties/note/maxLength`, TEXT_MAX_LENGTH.note],
    [`${S}/VehicleDeadlineWrite/properties/title/maxLength`, TEXT_MAX_LENGTH.deadlineTitle],
  ])('%s is %d', (pointer, value) => {
    expect(contractAt(pointer)).toBe(value);
  });
});

describe('a vehicle cost', () => {
  const cost = { date: '2026-11-20', kind: 'Fuel' as const, currency: 'EUR' };
  it.each([
    [{ amount: -84.37 }, 'amount', 'must be greater than 0'],
    [{ amount: 1_000_000_000 }, 'amount', 'must be <= 999999999'],
    [{ amount: 999_999_999.01 }, 'amount', 'must be <= 999999999'],
    [{ amount: 10, odometerKm: -1 }, 'odometerKm', 'must be >= 0'],
    [{ amount: 10, odometerKm: 10_000_000 }, 'odometerKm', 'must be <= 9999999'],
    [{ amount: 10, odometerKm: 1.5 }, 'odometerKm', 'must be integer'],
  ])('%j is refused under %s', (input, field, message) => {
    expect(costFields({ ...cost, ...input }).errors).toEqual({ [field]: [message] });
  });

  it('the maximum itself is taken', () => {
    expect(costFields({ ...cost, amount: MAX_AMOUNT, odometerKm: MAX_ODOMETER_KM }).errors).toEqual({});
  });
});

describe('a vehicle and a deadline', () => {
  const vehicle = { type: 'Company' as const, name: 'Octavia', category: 1 };
  it.each([
    [{ category: -1 }, 'category', 'must be >= 0'],
    [{ category: 100 }, 'category', 'must be <= 99'],
    [{ engineCapacityCc: 20_001 }, 'engineCapacityCc', 'must be <= 20000'],
    [{ enginePowerKw: -5 }, 'enginePowerKw', 'must be >= 0'],
  ])('vehicle %j is refused under %s', (input, field, message) => {
    expect(vehicleFields({ ...vehicle, ...input }).errors).toEqual({ [field]: [message] });
  });

  it.each([
    [{ remindDaysBefore: -3 }, 'remindDaysBefore', 'must be >= 0'],
    [{ remindDaysBefore: 366 }, 'remindDaysBefore', 'must be <= 365'],
    [{ remindEmployeeIds: 'e1' }, 'remindEmployeeIds', 'must be array'],
  ])('deadline %j is refused under %s', (input, field, message) => {
    const errors = deadlineFields({ kind: 'Inspection', dueDate: '2027-01-10', ...input } as never).errors;
    expect(errors).toEqual({ [field]: [message] });
  });
});

describe('stored text keeps the contract’s lengths', () => {
  it('a vehicle’s name, plate, make and model; a cost’s note; a deadline’s title and note', () => {
    expect(
      vehicleFields({
        type: 'Company',
        category: 1,
        name: 'n'.repeat(101),
        licensePlate: 'ZG-1234-AB-XXXXXXXXXX',
        make: 'm'.repeat(61),
        model: 'm'.repeat(61),
      }).errors,
    ).toEqual({
      name: ['must NOT have more than 100 characters'],
      licensePlate: ['must NOT have more than 20 characters'],
      make: ['must NOT have more than 60 characters'],
      model: ['must NOT have more than 60 characters'],
    });
    expect(
      costFields({ date: '2026-11-20', kind: 'Fuel', amount: 1, currency: 'EUR', note: 'x'.repeat(501) }).errors,
    ).toEqual({ note: ['must NOT have more than 500 characters'] });
    expect(
      deadlineFields({ kind: 'Custom', dueDate: '2027-01-10', title: 't'.repeat(101), note: 'x'.repeat(501) }).errors,
    ).toEqual({
      title: ['must NOT have more than 100 characters'],
      note: ['must NOT have more than 500 characters'],
    });
  });
});
