import DecimalJs from 'decimal.js';

/**
 * The one decimal type of the product: decimal.js with 34 significant digits (IEEE 754 decimal128's
 * precision, far beyond any amount or rate here) and no exponent notation in `toString()`. Every
 * operation is exact within that precision; rounding to a currency happens only where a caller asks for
 * it, with a named mode (see rounding.ts). Never build one from a binary float you computed: only from
 * wire text (wire.ts), integers, or other decimals.
 */
export const Decimal = DecimalJs.clone({
  precision: 34,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -50,
  toExpPos: 50,
});
export type Decimal = DecimalJs;

/** What a decimal may be built from: a decimal, decimal text, or a whole number (never a fractional float). */
export type DecimalInput = Decimal | string | bigint | number;

/** A decimal from exact input; a fractional or non-finite JS number is refused (it is binary floating point). */
export function decimal(value: DecimalInput): Decimal {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new RangeError(
      `${value} is not a safe integer: build decimals from text (parseWireDecimal), not from floats`,
    );
  }
  return new Decimal(typeof value === 'bigint' ? value.toString() : value);
}

export const isDecimal = (value: unknown): value is Decimal => DecimalJs.isDecimal(value);
