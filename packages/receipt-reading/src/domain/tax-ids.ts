import { unicodeWords } from './unicode-words';
import type { Market } from '@travel/regulations';
import type { TaxIdScheme, TaxIdValue } from '../types';

// Check-digit rules (decision 0199 cites each):
// - HR OIB: 11 digits, ISO 7064 MOD 11,10 (Zakon o OIB-u / Pravilnik o OIB-u, NN 60/08).
// - SI davčna številka: 8 digits, weights 8..2 over the first seven, check = 11 - sum mod 11, 10 -> 0.
// - SK/CZ IČO: 8 digits, weights 8..2 over the first seven, check = (11 - sum mod 11) mod 10.
// - SK DIČ: 10 digits divisible by 11 (legal persons); IČ DPH = "SK" + that number.
// - CZ DIČ: "CZ" + the IČO (legal persons; natural persons' DIČ is a birth number, not on receipts).
// - PL NIP: 10 digits, weights 6,5,7,2,3,4,5,6,7, check = sum mod 11 (10 is never issued).

const digits = (s: string) => [...s].map(Number);

export function validOib(s: string): boolean {
  if (!/^\d{11}$/.test(s)) return false;
  let a = 10;
  for (const d of digits(s.slice(0, 10))) {
    a = (a + d) % 10 || 10;
    a = (a * 2) % 11;
  }
  return (11 - a) % 10 === Number(s[10]);
}

export function validSiTaxNumber(s: string): boolean {
  if (!/^[1-9]\d{7}$/.test(s)) return false;
  const sum = digits(s.slice(0, 7)).reduce((acc, d, i) => acc + d * (8 - i), 0);
  const check = 11 - (sum % 11);
  if (check === 11) return false;
  return (check === 10 ? 0 : check) === Number(s[7]);
}

export function validIco(s: string): boolean {
  if (!/^\d{8}$/.test(s)) return false;
  const sum = digits(s.slice(0, 7)).reduce((acc, d, i) => acc + d * (8 - i), 0);
  return (11 - (sum % 11)) % 10 === Number(s[7]);
}

export function validSkDic(s: string): boolean {
  return /^[1-9]\d{9}$/.test(s) && BigInt(s) % 11n === 0n;
}

export function validNip(s: string): boolean {
  if (!/^\d{10}$/.test(s)) return false;
  const w = [6, 5, 7, 2, 3, 4, 5, 6, 7];
  const check = digits(s.slice(0, 9)).reduce((acc, d, i) => acc + d * w[i]!, 0) % 11;
  return check !== 10 && check === Number(s[9]);
}

export interface FoundTaxId {
  id: TaxIdValue;
  /** A label said what it is (OIB:, IČ DPH:, NIP …): more certain than digits that happen to validate. */
  labelled: boolean;
}

// Label, then the number (OCR may put spaces or dashes inside: NIP 123-456-32-18).
const LABELS: ReadonlyArray<{ re: RegExp; scheme: TaxIdScheme }> = [
  { re: unicodeWords(/\bI[ČC]\s?DPH\b[^A-Z0-9]{0,6}(SK)\s?([\d\s]{10,14})/i), scheme: 'SK-ICDPH' },
  { re: unicodeWords(/\bDI[ČC]\b[^A-Z0-9]{0,6}(CZ)\s?([\d\s]{8,11})/i), scheme: 'CZ-DIC' },
  { re: unicodeWords(/\bDI[ČC]\b[^A-Z0-9]{0,6}()([\d\s]{10,13})/i), scheme: 'SK-DIC' },
  { re: unicodeWords(/\bI[ČC]O\b[^A-Z0-9]{0,6}()([\d\s]{8,11})/i), scheme: 'SK-ICO' },
  { re: unicodeWords(/\bOIB\b[^A-Z0-9]{0,6}()([\d\s]{11,14})/i), scheme: 'HR-OIB' },
  {
    re: unicodeWords(/\b(?:ID\s?za\s?DDV|DDV|dav[čc]na)\b[^A-Z0-9]{0,12}(SI)?\s?([\d\s]{8,10})/i),
    scheme: 'SI-DAVCNA',
  },
  { re: unicodeWords(/\bNIP\b[^A-Z0-9]{0,6}(PL)?\s?([\d\s-]{10,16})/i), scheme: 'PL-NIP' },
];

function check(scheme: TaxIdScheme, number: string, market: Market | undefined): TaxIdValue | undefined {
  switch (scheme) {
    case 'HR-OIB':
      return validOib(number) ? { scheme, value: number } : undefined;
    case 'SI-DAVCNA':
      return validSiTaxNumber(number) ? { scheme, value: number } : undefined;
    case 'SK-ICDPH':
      return validSkDic(number) ? { scheme, value: `SK${number}` } : undefined;
    case 'CZ-DIC':
      return validIco(number) ? { scheme, value: `CZ${number}` } : undefined;
    case 'SK-DIC':
      return validSkDic(number) ? { scheme, value: number } : undefined;
    case 'SK-ICO':
    case 'CZ-ICO':
      // IČO is the same rule in both countries; the printed language or the market tells which.
      return validIco(number) ? { scheme: market === 'CZ' ? 'CZ-ICO' : 'SK-ICO', value: number } : undefined;
    case 'PL-NIP':
      return validNip(number) ? { scheme, value: number } : undefined;
  }
}

/** Labelled tax ids in a line whose check digits hold. */
export function findTaxIds(line: string, market?: Market): FoundTaxId[] {
  const out: FoundTaxId[] = [];
  for (const { re, scheme } of LABELS) {
    const m = re.exec(line);
    if (!m) continue;
    const raw = m[2]!.replace(/[\s-]/g, '');
    // OCR may run the next token on: try the exact length the scheme has.
    const len =
      scheme === 'HR-OIB' ? 11 : scheme === 'SI-DAVCNA' || scheme === 'CZ-DIC' || scheme === 'SK-ICO' ? 8 : 10;
    const id = check(scheme, raw.slice(0, len), market);
    if (id) out.push({ id, labelled: true });
  }
  return out;
}

/** Unlabelled numbers that validate as the market's id (an OCR that lost the label): weaker evidence. */
export function findBareTaxIds(line: string, market: Market): FoundTaxId[] {
  const out: FoundTaxId[] = [];
  for (const m of line.matchAll(/(?<![\dA-Z])(SK|CZ|SI)?(\d{8,11})(?!\d)/gi)) {
    const n = m[2]!;
    const prefix = m[1]?.toUpperCase();
    const id =
      market === 'HR' && n.length === 11
        ? check('HR-OIB', n, market)
        : market === 'SI' && n.length === 8
          ? check('SI-DAVCNA', n, market)
          : market === 'SK' && prefix === 'SK' && n.length === 10
            ? check('SK-ICDPH', n, market)
            : market === 'CZ' && prefix === 'CZ' && n.length === 8
              ? check('CZ-DIC', n, market)
              : market === 'PL' && n.length === 10
                ? check('PL-NIP', n, market)
                : undefined;
    if (id) out.push({ id, labelled: false });
  }
  return out;
}

/** Which id a receipt's merchant is best known by, per market: the VAT id before the register number. */
export const SCHEME_PREFERENCE: readonly TaxIdScheme[] = [
  'SK-ICDPH',
  'CZ-DIC',
  'HR-OIB',
  'SI-DAVCNA',
  'PL-NIP',
  'SK-DIC',
  'CZ-ICO',
  'SK-ICO',
];
