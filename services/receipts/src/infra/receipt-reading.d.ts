// Temporary: the engine's interface as agreed (issue 37 §2), until the branch with the real
// `packages/receipt-reading` is merged; then this file goes and the package becomes a dependency.
declare module '@travel/receipt-reading' {
  export type ReadingSource = 'fiscal-qr' | 'pdf-text' | 'ocr';
  export interface Proposal<T> {
    value: T;
    confidence: number;
    source: ReadingSource;
  }
  export type TaxIdScheme = 'HR-OIB' | 'SI-DAVCNA' | 'SK-ICDPH' | 'SK-ICO' | 'SK-DIC' | 'CZ-DIC' | 'CZ-ICO' | 'PL-NIP';
  export interface TaxIdValue {
    scheme: TaxIdScheme;
    value: string;
  }
  export interface VatLine {
    rate: string;
    amount: string;
    base?: string;
  }
  export interface ReceiptReading {
    state: 'Read' | 'Unreadable';
    reason?: string;
    engine: string;
    fields: {
      totalAmount?: Proposal<string>;
      currencyCode?: Proposal<string>;
      date?: Proposal<string>;
      time?: Proposal<string>;
      merchantName?: Proposal<string>;
      merchantTaxId?: Proposal<TaxIdValue>;
      vat?: Proposal<VatLine[]>;
    };
    lines: string[];
  }
  export interface ReadInput {
    bytes: Buffer;
    contentType: string;
    market?: 'HR' | 'SI' | 'SK' | 'CZ' | 'PL';
  }
  export function readReceipt(input: ReadInput, options?: { signal?: AbortSignal }): Promise<ReceiptReading>;
}
