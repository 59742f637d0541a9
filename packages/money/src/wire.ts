import { Decimal, decimal } from './decimal';
import { minorDigits } from './currencies';

// The wire format of money (docs/decisions/0020): an amount is a JSON number with at most the
// currency's minor digits (EUR 12.5 or 12.50, JPY 1200), never a string and never rounded silently.
//
// Parsing without binary floating-point error:
// - From text (a JSON number's raw text, a query parameter, a feed's field): the text is read as a
//   decimal directly. Exact, always.
// - From a JS number (what JSON.parse and express.json hand over): ECMAScript's Number-to-String gives
//   the shortest decimal that round-trips to the same double, and every decimal literal with at most 15
//   significant digits round-trips (DBL_DIG = 15). So `String(n)` is exactly the literal the client
//   wrote, as long as it had ≤ 15 significant digits; we refuse numbers whose shortest form has more
//   (their literal cannot be known). With 2 minor digits that bounds amounts at 9,999,999,999,999.99.
//   What no parser of doubles can see: a literal with more than 15 significant digits whose double
//   prints short (1.0000000000000000001 → 1); it reads as the shorter value.
// Writing: `toWireAmount` gives the JS number whose shortest form is exactly the decimal, so
// JSON.stringify writes the decimal's digits.

/** Significant digits a double carries faithfully through text and back. */
export const MAX_WIRE_SIGNIFICANT_DIGITS = 15;

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

export class WireFormatError extends Error {}

export interface WireDecimalOptions {
  /** Most decimal places allowed (trailing zeros count: "1.50" has 2). */
  maxDecimals?: number;
  /** Refuse zero and negatives. */
  positive?: boolean;
  /** Refuse negatives. */
  nonNegative?: boolean;
}

/**
 * A decimal from a wire value: a JSON number (or its raw text). Throws WireFormatError with a message
 * fit for a field-keyed error body ("must have at most 2 decimal places").
 */
export function parseWireDecimal(raw: unknown, options: WireDecimalOptions = {}): Decimal {
  let text: string;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) throw new WireFormatError('must be a finite number');
    text = String(raw);
    const value = new Decimal(text);
    if (!value.isZero() && value.precision(true) > MAX_WIRE_SIGNIFICANT_DIGITS) {
      throw new WireFormatError(`must have at most ${MAX_WIRE_SIGNIFICANT_DIGITS} significant digits`);
    }
  } else if (typeof raw === 'string') {
    text = raw;
    if (!JSON_NUMBER.test(text)) throw new WireFormatError('must be a number');
  } else {
    throw new WireFormatError('must be a number');
  }
  const value = new Decimal(text);
  // Decimal places as written (trailing zeros of raw text count; a number has no trailing zeros).
  const places = typeof raw === 'string' ? writtenDecimals(text) : value.decimalPlaces();
  if (options.maxDecimals !== undefined && places > options.maxDecimals) {
    throw new WireFormatError(
      options.maxDecimals === 0 ? 'must be a whole number' : `must have at most ${options.maxDecimals} decimal places`,
    );
  }
  if (options.positive && !value.greaterThan(0)) throw new WireFormatError('must be greater than 0');
  if (options.nonNegative && value.isNegative() && !value.isZero()) throw new WireFormatError('must not be negative');
  return value.isZero() ? new Decimal(0) : value;
}

/** Decimal places of a JSON number's text, after its exponent: "1.50" 2, "1.5e1" 0, "15e-3" 3. */
function writtenDecimals(text: string): number {
  const [mantissa, exponent = '0'] = text.toLowerCase().split('e');
  const fraction = mantissa!.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

/** An amount in `currency` from the wire: at most the currency's minor digits (EUR 2, JPY 0, KWD 3). */
export const parseWireAmount = (
  raw: unknown,
  currency: string,
  options: Omit<WireDecimalOptions, 'maxDecimals'> = {},
): Decimal => parseWireDecimal(raw, { ...options, maxDecimals: minorDigits(currency) });

/**
 * The JSON number of a decimal. Throws when the decimal cannot travel as a number without changing
 * (more than 15 significant digits): round first, with a named mode.
 */
export function toWireNumber(value: Decimal): number {
  const n = Number(value.toString());
  if (!new Decimal(String(n)).equals(value)) {
    throw new RangeError(`${value.toString()} cannot be written as a JSON number without loss`);
  }
  return Object.is(n, -0) ? 0 : n;
}

/**
 * The JSON number of an amount in `currency`. The amount must already be rounded to the currency's
 * minor digits (the caller chose how): a value with more places is a programming error, not rounded here.
 */
export function toWireAmount(value: Decimal, currency: string): number {
  const digits = minorDigits(currency);
  if (value.decimalPlaces() > digits) {
    throw new RangeError(`${value.toString()} has more than the ${digits} minor digits of ${currency}: round it first`);
  }
  return toWireNumber(value);
}

/** The amount as fixed-point text with exactly the currency's minor digits ("12.50", "1200"). */
export const toAmountText = (value: Decimal, currency: string): string => value.toFixed(minorDigits(currency));

/** Decimal text from storage or a feed ("24.635"); the same exactness as wire text. */
export const decimalFromText = (text: string): Decimal => {
  if (!JSON_NUMBER.test(text)) throw new WireFormatError(`"${text}" is not a decimal number`);
  return decimal(text);
};
