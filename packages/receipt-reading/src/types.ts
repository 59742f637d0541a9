import type { Market } from '@travel/regulations';

/** Where a proposed value was read from: a fiscal code is exact, a PDF's text is exact text, OCR is read. */
export type ReadingSource = 'fiscal-qr' | 'pdf-text' | 'ocr';

export interface Proposal<T> {
  value: T;
  /** 0..1: 1 for a fiscal code, high for a keyword line or a checksum-valid id, low for a guess. */
  confidence: number;
  source: ReadingSource;
}

export type TaxIdScheme = 'HR-OIB' | 'SI-DAVCNA' | 'SK-ICDPH' | 'SK-ICO' | 'SK-DIC' | 'CZ-DIC' | 'CZ-ICO' | 'PL-NIP';

/** `value` is normalised: digits only, with the country prefix for the VAT ids that carry one (SK…, CZ…). */
export interface TaxIdValue {
  scheme: TaxIdScheme;
  value: string;
}

export interface VatLine {
  /** Percent as a decimal string: "25", "9.5". */
  rate: string;
  amount: string;
  base?: string;
}

export interface ReceiptReading {
  state: 'Read' | 'Unreadable';
  /** Why, when Unreadable: e.g. 'not an image or PDF', 'image too small', 'no text found', 'not a receipt'. */
  reason?: string;
  /** The engine and its version, e.g. 'tesseract 5.3.0'. */
  engine: string;
  fields: ReceiptFields;
  /** The text lines read, top to bottom. */
  lines: string[];
}

export interface ReceiptFields {
  /** Decimal string, "123.40" (money is decimal: never a JS float). */
  totalAmount?: Proposal<string>;
  /** ISO 4217. */
  currencyCode?: Proposal<string>;
  /** YYYY-MM-DD. */
  date?: Proposal<string>;
  /** HH:MM or HH:MM:SS. */
  time?: Proposal<string>;
  merchantName?: Proposal<string>;
  merchantTaxId?: Proposal<TaxIdValue>;
  vat?: Proposal<VatLine[]>;
}

export interface ReadInput {
  bytes: Buffer;
  contentType: string;
  /** The company's market: a hint (the receipt may be foreign). */
  market?: Market;
}

export type { Market };
