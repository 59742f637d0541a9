import { unicodeWords } from './unicode-words';
import type { Market } from '@travel/regulations';
import type { VatLine } from '../types';
import { compareAmounts, findAmounts } from './amounts';

/**
 * The VAT rates in force in 2025-2026 (decision 0199 has the sources): a rate printed on a receipt that is
 * not one of its market's is more likely a misread than a rate.
 */
export const VAT_RATES: Readonly<Record<Market, readonly string[]>> = {
  HR: ['25', '13', '5'],
  SI: ['22', '9.5', '5'],
  SK: ['23', '19', '5'],
  CZ: ['21', '12'],
  PL: ['23', '8', '5'],
};

const VAT_WORD = unicodeWords(/\b(PDV|DDV|DPH|PTU|VAT|MwSt|USt)\b/i);
const RATE = /(?<![\d,.])(\d{1,2}(?:[.,]\d{1,2})?)\s?%/;
// PL fiscal receipts name rates by letter: PTU A 23%, B 8%, C 5% (the rate follows the letter).
const PL_LETTER = unicodeWords(/\bPTU\s+[A-G]\b/i);

/** A VAT row: the VAT word, a rate that is the market's (or any market's, abroad), and its amounts. */
export function parseVatLine(line: string, market?: Market): VatLine | undefined {
  if (!VAT_WORD.test(line) && !PL_LETTER.test(line)) return undefined;
  const r = RATE.exec(line);
  if (!r) return undefined;
  const rate = normaliseRate(r[1]!);
  const known = market ? VAT_RATES[market] : Object.values(VAT_RATES).flat();
  if (!known.includes(rate)) return undefined;
  const amounts = findAmounts(line.slice(r.index + r[0].length));
  if (amounts.length === 0) return undefined;
  if (amounts.length === 1) return { rate, amount: amounts[0]!.value };
  // Two amounts: the base and the tax (the tax is the smaller one, whatever the column order).
  const [a, b] = [amounts[amounts.length - 2]!.value, amounts[amounts.length - 1]!.value];
  return compareAmounts(a, b) >= 0 ? { rate, base: a, amount: b } : { rate, base: b, amount: a };
}

function normaliseRate(s: string): string {
  const [whole, frac = ''] = s.replace(',', '.').split('.');
  const f = frac.replace(/0+$/, '');
  return `${Number(whole)}${f ? `.${f}` : ''}`;
}
