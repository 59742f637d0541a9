// The fleet's ranges (docs/decisions/0107): a cost's amount, the odometer, a vehicle's figures and a
// reminder's lead time hold in the domain whether or not the contract validator ran. The figures are the
// contract's; limits.test.ts reads contracts/openapi.yaml and compares.
import { nonNegativeAmount, positiveAmount, type DecimalRange } from '@travel/money';
import type { FieldErrors } from '@travel/platform';
import { integerProblem } from '@travel/platform/src/limits';

/** A vehicle cost: above 0, at most the product's maximum amount, in its currency. */
export const COST_AMOUNT_RANGE: DecimalRange = positiveAmount();
export const MAX_ODOMETER_KM = 9_999_999;
export const MAX_CATEGORY = 99;
export const MAX_ENGINE_CAPACITY_CC = 20_000;
/** A vehicle's consumption from its technical certificate: litres (kWh) per 100 km, 0 clears it. */
export const MAX_FUEL_CONSUMPTION = 100;
export const FUEL_CONSUMPTION_RANGE: DecimalRange = nonNegativeAmount(MAX_FUEL_CONSUMPTION);
export const FUEL_CONSUMPTION_DECIMALS = 2;
export const MAX_REMIND_DAYS_BEFORE = 365;

/** Text a vehicle, cost or deadline write stores, in characters. */
export const TEXT_MAX_LENGTH = {
  vehicleName: 100,
  licensePlate: 20,
  make: 60,
  model: 60,
  note: 500,
  deadlineTitle: 100,
} as const;

/** Adds why an optional whole number lies outside 0..max under `field` (omitted and null pass). */
export function checkWholeNumber(errors: FieldErrors, field: string, value: unknown, max: number): void {
  const problem = value === undefined || value === null ? undefined : integerProblem(value, 0, max);
  if (problem) (errors[field] ??= []).push(problem);
}
