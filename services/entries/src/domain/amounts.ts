// Decimal amounts as the entries context stores them: decimal text ("1234.50"), never binary floating
// point. Reading, arithmetic and rounding go through @travel/money (decimal.js, ISO 4217 minor digits).
import {
  Decimal,
  isCurrency,
  minorDigits,
  outOfRange,
  parseWireDecimal,
  roundTo,
  WireFormatError,
  type DecimalRange,
} from '@travel/money';

export { Decimal, isCurrency };

/** Minor digits of a currency (2 for one the product does not know, which the write refuses anyway). */
export const minorDigitsOf = (currency: string): number => (isCurrency(currency) ? minorDigits(currency) : 2);

/** The decimal text of a JSON number with at most `places` decimals, padded to them; undefined when it has more. */
export function decimalText(value: number, places: number): string | undefined {
  try {
    return parseWireDecimal(value, { maxDecimals: places }).toFixed(places);
  } catch (err) {
    if (err instanceof WireFormatError) return undefined;
    throw err;
  }
}

/**
 * Adds why decimal text lies outside its range (docs/decisions/0107) under `field`; an absent or unreadable
 * value (already refused for its decimals) adds nothing.
 */
export function checkRange(
  add: (field: string, message: string) => void,
  field: string,
  text: string | null | undefined,
  range: DecimalRange,
): void {
  const problem = text === null || text === undefined ? undefined : outOfRange(text, range);
  if (problem) add(field, problem);
}

/** Sum of decimal texts, written with `places` decimals. */
export const sumText = (values: readonly string[], places: number): string =>
  values.reduce((acc, v) => acc.plus(v), new Decimal(0)).toFixed(places);

/** Equal as decimals ("1.5" and "1.50"). */
export const sameAmount = (a: string, b: string): boolean => new Decimal(a).equals(b);

/** Rounded half-up (ties away from zero) to `places`, as text. */
export const roundText = (value: Decimal, places: number): string => roundTo(value, places, 'HalfUp').toFixed(places);

/** The JSON number of a stored decimal text (its digits are exactly the text's). */
export const wireNumber = (text: string): number => Number(text);
