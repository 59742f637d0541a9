// Money as printed on receipts: "1.234,56", "1 234,56", "1,234.56", "123.40", "12,5". Returned as a
// decimal string with two decimals; never through a JS float.

export interface FoundAmount {
  value: string;
  /** Where the amount starts in the line. */
  index: number;
}

// A number with 1-2 decimals after a comma or dot, optionally grouped by dot, space or comma in thousands.
const AMOUNT = /(?<![\d.,])-?(\d{1,3}(?:[. ,'](?=\d{3}(?!\d))\d{3})+|\d+)\s?([.,])\s?(\d{2})(?!\d|[.,]\d)/g;

/** Every money amount in a line, left to right. Integers without decimals are not amounts (quantities, ids). */
export function findAmounts(line: string): FoundAmount[] {
  const out: FoundAmount[] = [];
  for (const m of line.matchAll(AMOUNT)) {
    const whole = m[1]!.replace(/[. ,']/g, '');
    const negative = whole.startsWith('-');
    const digits = whole.replace('-', '').replace(/^0+(?=\d)/, '');
    out.push({ value: `${negative ? '-' : ''}${digits}.${m[3]}`, index: m.index ?? 0 });
  }
  return out;
}

/** One printed amount, the whole string, or undefined. */
export function parseAmount(text: string): string | undefined {
  const found = findAmounts(text.trim());
  return found.length === 1 && found[0]!.index === 0 ? found[0]!.value : undefined;
}

/** Compares two decimal strings with two decimals (as found above): positive when a > b. */
export function compareAmounts(a: string, b: string): number {
  const cents = (s: string) => BigInt(s.replace('.', ''));
  const d = cents(a) - cents(b);
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}
