import type DecimalJs from 'decimal.js';
import { decimal, Decimal, type DecimalInput } from './decimal';
import { minorDigits } from './currencies';

/**
 * Rounding is always named at the call site; there is no default. The names say which way a value that
 * lies between two representable amounts goes:
 * - `HalfUp`: to the nearest, a tie away from zero (commercial rounding: 2.345 → 2.35, -2.345 → -2.35);
 * - `HalfEven`: to the nearest, a tie to the even neighbour (banker's rounding: 2.345 → 2.34, 2.355 → 2.36);
 * - `HalfDown`: to the nearest, a tie toward zero;
 * - `Up`: away from zero ("round up to the cent" of a positive amount: 2.341 → 2.35);
 * - `Down`: toward zero (truncate: 2.349 → 2.34);
 * - `Ceiling`: toward +∞; `Floor`: toward −∞.
 */
export type RoundingMode = 'HalfUp' | 'HalfEven' | 'HalfDown' | 'Up' | 'Down' | 'Ceiling' | 'Floor';

export const ROUNDING_MODES: readonly RoundingMode[] = [
  'HalfUp',
  'HalfEven',
  'HalfDown',
  'Up',
  'Down',
  'Ceiling',
  'Floor',
];

const DECIMAL_JS_MODE: Record<RoundingMode, DecimalJs.Rounding> = {
  HalfUp: Decimal.ROUND_HALF_UP,
  HalfEven: Decimal.ROUND_HALF_EVEN,
  HalfDown: Decimal.ROUND_HALF_DOWN,
  Up: Decimal.ROUND_UP,
  Down: Decimal.ROUND_DOWN,
  Ceiling: Decimal.ROUND_CEIL,
  Floor: Decimal.ROUND_FLOOR,
};

/** `value` rounded to `decimals` places with `mode`. */
export function roundTo(value: DecimalInput, decimals: number, mode: RoundingMode): Decimal {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`decimals must be a whole number ≥ 0`);
  return decimal(value).toDecimalPlaces(decimals, DECIMAL_JS_MODE[mode]);
}

/** `value` rounded to the currency's minor unit (EUR: the cent, JPY: the yen) with `mode`. */
export const roundToCurrency = (value: DecimalInput, currency: string, mode: RoundingMode): Decimal =>
  roundTo(value, minorDigits(currency), mode);
