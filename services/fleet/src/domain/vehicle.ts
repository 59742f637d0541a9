import { outOfRange, parseWireDecimal, WireFormatError } from '@travel/money';
import type { FieldErrors } from '@travel/platform';
import { addFieldError, optionalText, requiredText } from '@travel/text-rules';
import {
  checkWholeNumber,
  FUEL_CONSUMPTION_DECIMALS,
  FUEL_CONSUMPTION_RANGE,
  MAX_CATEGORY,
  MAX_ENGINE_CAPACITY_CC,
  TEXT_MAX_LENGTH as MAX,
} from './limits';

// Vehicles (SPEC "Vehicle (fields known)", "States: Vehicle"). Pure rules: no I/O.

export const VEHICLE_TYPES = ['Company', 'Personal'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];
export const FUEL_TYPES = ['Petrol', 'Diesel', 'Lpg', 'Cng', 'Electric', 'PlugInHybrid', 'Hybrid'] as const;
export type FuelType = (typeof FUEL_TYPES)[number];

/** The flag every fleet write needs (SPEC Authentication 3): nothing else grants it. */
export const MANAGE_VEHICLES = 'ManageVehicles';
/** Flags that let a caller see other employees' Personal vehicles (SPEC Endpoints, Vehicles). */
const SEE_ALL_PERSONAL = ['ManageVehicles', 'EditAllEntries'];

/** The spec's key for an unknown vehicle type (SPEC Errors; API-SURFACE). */
export const TYPE_KEY = 'Type';

export interface VehicleFields {
  type: VehicleType;
  name: string;
  licensePlate: string | null;
  make: string | null;
  model: string | null;
  fuelType: FuelType | null;
  /**
   * Consumption from the technical certificate, per 100 km: litres, kWh for an `Electric` vehicle.
   * Decimal text with 2 places ("6.50"); it is priced with money, so never a binary float.
   */
  fuelConsumption: string | null;
  category: number | null;
  engineCapacityCc: number | null;
  enginePowerKw: number | null;
  ownerEmployeeId: string | null;
}

export interface Vehicle extends VehicleFields {
  _id: string;
  tenantId: string;
  isArchived: boolean;
  createdAt: Date;
  editedAt: Date;
}

/** A create or full-replace body, after the contract has checked shapes (except `type`, checked here). */
export interface VehicleWrite {
  type?: unknown;
  name: string;
  licensePlate?: string | null;
  make?: string | null;
  model?: string | null;
  fuelType?: FuelType | null;
  fuelConsumption?: number | null;
  category?: number | null;
  engineCapacityCc?: number | null;
  enginePowerKw?: number | null;
  ownerEmployeeId?: string | null;
}

export const MAX_ENGINE_POWER_KW = 2000;

/** `0` clears; omitted keeps `current` (update) or stores none (create, where `current` is null). */
/** Omitted keeps the stored figure; `0` or null (what a GET shows for none) clears it. */
const keepOrClear = (value: number | null | undefined, current: number | null): number | null =>
  value === undefined ? current : value === 0 || value === null ? null : value;

/**
 * The consumption a write stores (docs/decisions/0133): `0` or null clears; omitted keeps the stored
 * figure only while the fuel type stays the same, since litres of one fuel are not litres (or kWh) of another.
 */
function fuelConsumptionOf(
  errors: FieldErrors,
  input: VehicleWrite,
  fuelType: FuelType | null,
  current: VehicleFields | undefined,
): string | null {
  const value = input.fuelConsumption;
  if (value === undefined)
    return current && (current.fuelType ?? null) === fuelType ? (current.fuelConsumption ?? null) : null;
  if (value === null) return null;
  try {
    const d = parseWireDecimal(value, { maxDecimals: FUEL_CONSUMPTION_DECIMALS });
    const problem = outOfRange(d, FUEL_CONSUMPTION_RANGE);
    if (problem) addFieldError(errors, 'fuelConsumption', problem);
    return problem || d.isZero() ? null : d.toFixed(FUEL_CONSUMPTION_DECIMALS);
  } catch (err) {
    if (!(err instanceof WireFormatError)) throw err;
    addFieldError(errors, 'fuelConsumption', err.message);
    return null;
  }
}

/**
 * The stored fields of a create (`current` undefined) or a full replace. Omitted `category`,
 * `engineCapacityCc` and `enginePowerKw` keep the stored value on update; `0` or null clears them. Omitted
 * `fuelConsumption` keeps it while `fuelType` stays the same; `0` or null clears it. Other omitted
 * optional fields are cleared. The owner's existence in the company is checked by the caller (it needs I/O).
 */
export function vehicleFields(
  input: VehicleWrite,
  current?: VehicleFields,
): { fields: VehicleFields; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const type = input.type;
  if (type === undefined || type === null) addFieldError(errors, TYPE_KEY, 'is required: Company or Personal');
  else if (typeof type !== 'string' || !(VEHICLE_TYPES as readonly string[]).includes(type))
    addFieldError(errors, TYPE_KEY, `must be Company or Personal, not ${JSON.stringify(type)}`);

  const name = requiredText(input.name, MAX.vehicleName);
  addFieldError(errors, 'name', name.problem);
  const licensePlate = optionalText(input.licensePlate, false, MAX.licensePlate);
  addFieldError(errors, 'licensePlate', licensePlate.problem);
  const make = optionalText(input.make, false, MAX.make);
  addFieldError(errors, 'make', make.problem);
  const model = optionalText(input.model, false, MAX.model);
  addFieldError(errors, 'model', model.problem);

  if (!current && (input.category === undefined || input.category === null))
    addFieldError(errors, 'category', 'is required');
  checkWholeNumber(errors, 'category', input.category, MAX_CATEGORY);
  checkWholeNumber(errors, 'engineCapacityCc', input.engineCapacityCc, MAX_ENGINE_CAPACITY_CC);
  checkWholeNumber(errors, 'enginePowerKw', input.enginePowerKw, MAX_ENGINE_POWER_KW);
  const enginePowerKw = keepOrClear(input.enginePowerKw, current?.enginePowerKw ?? null);
  if (!errors.enginePowerKw && enginePowerKw !== null && (enginePowerKw < 1 || enginePowerKw > MAX_ENGINE_POWER_KW))
    addFieldError(errors, 'enginePowerKw', `must be 1 to ${MAX_ENGINE_POWER_KW} (0 clears it)`);

  const ownerEmployeeId = input.ownerEmployeeId?.toLowerCase() ?? null;
  if (type === 'Personal' && !ownerEmployeeId)
    addFieldError(errors, 'ownerEmployeeId', 'is required for a Personal vehicle');
  if (type === 'Company' && ownerEmployeeId)
    addFieldError(errors, 'ownerEmployeeId', 'must be null: only a Personal vehicle has an owner');

  const fuelType = input.fuelType ?? null;
  const fields: VehicleFields = {
    type: type as VehicleType,
    name: name.value,
    licensePlate: licensePlate.value,
    make: make.value,
    model: model.value,
    fuelType,
    fuelConsumption: fuelConsumptionOf(errors, input, fuelType, current),
    category: keepOrClear(input.category, current?.category ?? null),
    engineCapacityCc: keepOrClear(input.engineCapacityCc, current?.engineCapacityCc ?? null),
    enginePowerKw,
    ownerEmployeeId,
  };
  return { fields, errors };
}

/** Whether a caller may see a vehicle: Company ones always; Personal ones as owner or with a privileged flag. */
export function canSee(
  caller: { employeeId: string; permissions: readonly string[] },
  v: Pick<Vehicle, 'type' | 'ownerEmployeeId'>,
): boolean {
  return v.type !== 'Personal' || v.ownerEmployeeId === caller.employeeId || seesAllPersonal(caller);
}

export const seesAllPersonal = (caller: { permissions: readonly string[] }): boolean =>
  SEE_ALL_PERSONAL.some((flag) => caller.permissions.includes(flag));

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Why a vehicle cannot be deleted (SPEC States: Vehicle), or undefined when it can. */
export function deleteBlocker(state: { inUse: number; costCount: number }): string | undefined {
  const reasons: string[] = [];
  if (state.inUse > 0) reasons.push(`it is used on ${plural(state.inUse, 'live mileage expense')}`);
  if (state.costCount > 0) reasons.push(`it has ${plural(state.costCount, 'cost')} entered`);
  return reasons.length ? `The vehicle cannot be deleted: ${reasons.join(' and ')}.` : undefined;
}
