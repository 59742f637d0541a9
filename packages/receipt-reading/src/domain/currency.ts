import { unicodeWords } from './unicode-words';
import type { Market } from '@travel/regulations';

// Symbols and words printed on receipts, to ISO 4217. "Kc" is "Kč" without its accent (a PDF in WinAnsi,
// an OCR that drops the háček).
const WORDS: ReadonlyArray<[RegExp, string]> = [
  [unicodeWords(/€|\bEUR\b|\bEURA?\b/i), 'EUR'],
  [unicodeWords(/\bK[čc]\b|\bCZK\b/i), 'CZK'],
  [unicodeWords(/\bz[łl]\b|\bPLN\b/i), 'PLN'],
  [unicodeWords(/\bHUF\b|\bFt\b/), 'HUF'],
  [unicodeWords(/\bCHF\b/i), 'CHF'],
  [unicodeWords(/\bGBP\b|£/i), 'GBP'],
  [unicodeWords(/\bUSD\b|\$/i), 'USD'],
  [unicodeWords(/\bRSD\b|\bdin\b/i), 'RSD'],
  [unicodeWords(/\bBAM\b|\bKM\b/), 'BAM'],
];

/** The market's own currency: what a receipt without any currency mark most likely is (a weak default). */
export const MARKET_CURRENCY: Readonly<Record<Market, string>> = {
  HR: 'EUR',
  SI: 'EUR',
  SK: 'EUR',
  CZ: 'CZK',
  PL: 'PLN',
};

/** The currency named in a line, if any. */
export function findCurrency(line: string): string | undefined {
  for (const [re, code] of WORDS) if (re.test(line)) return code;
  return undefined;
}
