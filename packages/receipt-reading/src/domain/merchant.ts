import { unicodeWords } from './unicode-words';
// The merchant's name is printed first on a receipt. Skip what is clearly not a name: a receipt heading, a
// line that is mostly digits (an id, a date, an address number), a separator.
const NOT_NAME = unicodeWords(
  /\b(RA[ČC]UN|PARAGON|FISKALNY|DOKLAD|[ÚU][ČC]TENKA|OIB|NIP|I[ČC]O|DI[ČC]|DDV|DPH|PDV|TEL|FAX|DATUM|DATE|RECEIPT|BON)\b/i,
);

export function findMerchantName(lines: readonly string[]): string | undefined {
  for (const raw of lines.slice(0, 6)) {
    const line = raw.trim().replace(/\s{2,}/g, ' ');
    const letters = (line.match(/\p{L}/gu) ?? []).length;
    const digits = (line.match(/\d/g) ?? []).length;
    if (letters < 3 || digits > letters / 2 || NOT_NAME.test(line) || /^[-=*_.\s]+$/.test(line)) continue;
    return line;
  }
  return undefined;
}
