// Decimal amounts as the entries context stores them: decimal text ("1234.50"), never binary floating point.
// Arithmetic runs on whole minor units (BigInt), which is exact for the sums and comparisons this context
// needs. A JSON number is read through its shortest round-trip text, which equals the digits the client
// sent for every amount within 15 significant digits (the contract's maximum keeps amounts well inside).

const ZERO_DIGIT_CURRENCIES = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const THREE_DIGIT_CURRENCIES = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

export const minorDigitsOf = (currency: string): number =>
  ZERO_DIGIT_CURRENCIES.has(currency) ? 0 : THREE_DIGIT_CURRENCIES.has(currency) ? 3 : 2;

/** The decimal text of a JSON number with at most `places` decimals, or undefined when it has more. */
export function decimalText(value: number, places: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value);
  if (/e/i.test(text)) return undefined;
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > places) return undefined;
  return places === 0 ? whole! : `${whole}.${fraction.padEnd(places, '0')}`;
}

/** Scaled integer of a decimal text with `places` decimals ("12.5", 2 → 1250n). */
export function toUnits(text: string, places: number): bigint {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  const units =
    BigInt(whole || '0') * 10n ** BigInt(places) + BigInt((fraction + '0'.repeat(places)).slice(0, places) || '0');
  return negative ? -units : units;
}

/** Decimal text of a scaled integer (1250n, 2 → "12.50"). */
export function fromUnits(units: bigint, places: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, '0');
  const text = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return negative ? `-${text}` : text;
}

/** Sum of decimal texts, in `places` decimals. */
export const sumText = (values: readonly string[], places: number): string =>
  fromUnits(
    values.reduce((acc, v) => acc + toUnits(v, places), 0n),
    places,
  );

/** The JSON number of a stored decimal text (its digits are exactly the text's). */
export const wireNumber = (text: string): number => Number(text);
