// Exact decimal arithmetic for the engine's amounts, on integers: an amount is a whole number of cents
// (hundredths of the currency unit), a percentage a whole number of basis points. Every product and
// quotient is taken on integers far below 2^53 and rounded once, by the rule named at the call, so no
// binary floating-point fraction ever reaches an amount (docs/decisions/0050). Amounts leave the engine
// as decimal strings with two places.

const AMOUNT = /^(\d{1,9})(?:\.(\d{1,2}))?$/;
const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;
const FRACTION = /^(\d+)\/(\d+)$/;

/** Cents of a non-negative decimal string with at most two places (`'20.6'` → 2060); null when not one. */
export function parseCents(text: string): number | null {
  const m = AMOUNT.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

const tableFigures = new Map<string, number>();

/** Cents of a table figure (memoised: the tables hold few distinct figures); a malformed one is a bug. */
export function tableCents(text: string): number {
  let cents = tableFigures.get(text);
  if (cents === undefined) {
    const parsed = parseCents(text);
    if (parsed === null) throw new Error(`not a decimal amount with at most two places: ${text}`);
    if (tableFigures.size > 10_000) tableFigures.clear();
    tableFigures.set(text, (cents = parsed));
  }
  return cents;
}

const percents = new Map<string, number>();
const fractions = new Map<string, [number, number]>();

/** Basis points of a table percentage (`'35'` → 3500, `'12.5'` → 1250); memoised like `tableCents`. */
export function basisPoints(text: string): number {
  let bp = percents.get(text);
  if (bp === undefined) {
    const m = PERCENT.exec(text);
    if (!m) throw new Error(`not a percentage: ${text}`);
    bp = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
    if (percents.size > 10_000) percents.clear();
    percents.set(text, bp);
  }
  return bp;
}

/** An exact fraction `n/d` of a table (`'1/3'`); memoised. */
export function parseFraction(text: string): [number, number] {
  let fraction = fractions.get(text);
  if (fraction === undefined) {
    const m = FRACTION.exec(text);
    if (!m || Number(m[2]) === 0) throw new Error(`not a fraction n/d: ${text}`);
    fraction = [Number(m[1]), Number(m[2])];
    if (fractions.size > 10_000) fractions.clear();
    fractions.set(text, fraction);
  }
  return fraction;
}

export type Rounding = 'halfUp' | 'up';

/** `numerator / denominator` of non-negative integers, rounded to an integer by `rounding`. */
export function divide(numerator: number, denominator: number, rounding: Rounding): number {
  const q = Math.floor(numerator / denominator);
  const r = numerator - q * denominator;
  if (r === 0) return q;
  if (rounding === 'up') return q + 1;
  return 2 * r >= denominator ? q + 1 : q;
}

/** `cents × percent`, rounded to the cent. */
export const percentOf = (cents: number, bp: number, rounding: Rounding): number => divide(cents * bp, 10000, rounding);

/** `cents × n/d`, rounded half up to the cent. */
export const fractionOf = (cents: number, [n, d]: [number, number]): number => divide(cents * n, d, 'halfUp');

/** `2060` → `'20.60'`. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const rest = abs - whole * 100;
  return `${sign}${whole}.${rest < 10 ? '0' : ''}${rest}`;
}

/** `1250` → `'12.5'`: a percentage as the tables write it. */
export function formatPercent(bp: number): string {
  const whole = Math.floor(bp / 100);
  const rest = bp - whole * 100;
  if (rest === 0) return String(whole);
  return `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}
