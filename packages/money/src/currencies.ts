// ISO 4217 minor units (the number of decimal places of an amount in the currency), as published by
// the ISO 4217 maintenance agency (SIX), list one. Currencies not here are unknown to the product:
// amounts in them are refused rather than guessed. Funds codes, precious metals and the SDR (XDR,
// which some central banks quote but no expense is paid in) are deliberately absent.
const ZERO = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF';
const THREE = 'BHD IQD JOD KWD LYD OMR TND';
const FOUR = 'CLF UYW';
const TWO =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF ' +
  'CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF ' +
  'IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR ' +
  'MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD ' +
  'SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VES WST XCD XCG YER ' +
  'ZAR ZMW ZWG';

const MINOR_DIGITS: ReadonlyMap<string, number> = new Map(
  (
    [
      [ZERO, 0],
      [TWO, 2],
      [THREE, 3],
      [FOUR, 4],
    ] as const
  ).flatMap(([codes, digits]) => codes.split(' ').map((code) => [code, digits] as const)),
);

/** Every currency code the product knows, sorted. */
export const CURRENCY_CODES: readonly string[] = [...MINOR_DIGITS.keys()].sort();

export const isCurrency = (code: string): boolean => MINOR_DIGITS.has(code);

/** The currency's minor digits (EUR 2, JPY 0, KWD 3); throws for a code the product does not know. */
export function minorDigits(currency: string): number {
  const digits = MINOR_DIGITS.get(currency);
  if (digits === undefined) throw new UnknownCurrencyError(currency);
  return digits;
}

export class UnknownCurrencyError extends Error {
  constructor(readonly currency: string) {
    super(`unknown currency "${currency}"`);
  }
}
