import { Decimal, type DecimalInput } from './decimal';

// The ranges every amount and rate of the product keeps, whether or not the contract validator ran
// (docs/decisions/0107). The contract states the same figures; each service's limits test reads the
// contract and compares, so the two cannot drift apart.

/** The largest amount any money field accepts, in its currency (the contract's `DecimalAmount` maximum). */
export const MAX_AMOUNT = 999_999_999;
/** The largest manual exchange rate (units of one currency per unit of the other): far above any real rate. */
export const MAX_EXCHANGE_RATE = 1_000_000;

/** A closed or half-open range of decimals: `min` is excluded when `minExclusive`; `max` is included. */
export interface DecimalRange {
  readonly min: number;
  readonly minExclusive: boolean;
  readonly max: number;
}

/** 0 to `max` (an advance, a paid amount, an override): zero allowed. */
export const nonNegativeAmount = (max: number = MAX_AMOUNT): DecimalRange => ({ min: 0, minExclusive: false, max });
/** Above 0 up to `max` (a cost, a share, a distance): zero refused. */
export const positiveAmount = (max: number = MAX_AMOUNT): DecimalRange => ({ min: 0, minExclusive: true, max });
/** A manual exchange rate: above 0, at most MAX_EXCHANGE_RATE. */
export const EXCHANGE_RATE_RANGE: DecimalRange = positiveAmount(MAX_EXCHANGE_RATE);

/**
 * Why a decimal lies outside the range ("must be >= 0", "must be <= 999999999"), worded like the contract
 * validator's messages, or undefined when it lies inside. Compared as decimals, never as binary floats.
 */
export function outOfRange(value: DecimalInput, range: DecimalRange): string | undefined {
  const d = new Decimal(typeof value === 'bigint' ? value.toString() : value);
  if (range.minExclusive ? !d.greaterThan(range.min) : d.lessThan(range.min))
    return `must be ${range.minExclusive ? '>' : '>='} ${range.min}`;
  if (d.greaterThan(range.max)) return `must be <= ${range.max}`;
  return undefined;
}
