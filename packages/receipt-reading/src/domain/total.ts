import { unicodeWords } from './unicode-words';
import { compareAmounts, findAmounts } from './amounts';

// The words that introduce a receipt's total in the five markets and abroad. Sub-totals and tax totals are
// not totals; cash tendered and change are amounts next to it that are not the total either.
const TOTAL = unicodeWords(
  /\b(UKUPNO|ZA\s+PLATITI|SVEUKUPNO|SKUPAJ|ZA\s+PLA[ČC]ILO|SPOLU|CELKOM|K\s+[ÚU]HRAD[EĚ]|CELKEM|SUMA|RAZEM|DO\s+ZAP[ŁL]ATY|TOTAL|GESAMT|SUMME|ZU\s+ZAHLEN|AMOUNT\s+DUE)\b/i,
);
const NOT_TOTAL = unicodeWords(
  /\b(MEDZISÚČET|MEDZISUCET|MEZISOUČET|SUBTOTAL|ZWISCHENSUMME|PDV|DDV|DPH|PTU|VAT|MWST|OSNOVICA|BASE)\b/i,
);

export interface TotalCandidate {
  value: string;
  /** 'keyword': on (or right under) a total line; 'largest': the largest amount, a guess. */
  evidence: 'keyword' | 'largest';
}

/** The receipt's total from its lines: the amount on a total line, or the largest amount as a guess. */
export function findTotal(lines: readonly string[]): TotalCandidate | undefined {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!TOTAL.test(line) || NOT_TOTAL.test(line)) continue;
    const here = findAmounts(line.slice(TOTAL.exec(line)!.index));
    if (here.length > 0) return { value: here[here.length - 1]!.value, evidence: 'keyword' };
    // Big totals are often printed on the next line, or the OCR split the row.
    const next = lines[i + 1] ? findAmounts(lines[i + 1]!) : [];
    if (next.length === 1) return { value: next[0]!.value, evidence: 'keyword' };
  }
  let largest: string | undefined;
  for (const line of lines) {
    for (const a of findAmounts(line)) if (!largest || compareAmounts(a.value, largest) > 0) largest = a.value;
  }
  return largest ? { value: largest, evidence: 'largest' } : undefined;
}
