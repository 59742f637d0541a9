import { Decimal, type DecimalInput, decimal } from './decimal';
import { minorDigits } from './currencies';
import { roundToCurrency, type RoundingMode } from './rounding';
import { parseWireAmount, toWireAmount } from './wire';

/**
 * An amount of one currency, always at the currency's minor digits. Arithmetic that can leave that grid
 * (multiplying, dividing) takes a rounding mode; adding and subtracting cannot leave it and refuse a
 * different currency.
 */
export class Money {
  private constructor(
    readonly amount: Decimal,
    readonly currency: string,
  ) {}

  /** An exact amount; refuses more places than the currency has (round explicitly with `rounded`). */
  static of(amount: DecimalInput, currency: string): Money {
    const value = decimal(amount);
    if (value.decimalPlaces() > minorDigits(currency)) {
      throw new RangeError(`${value.toString()} has more than the minor digits of ${currency}`);
    }
    return new Money(value, currency);
  }

  /** Any decimal, rounded to the currency's minor digits with `mode`. */
  static rounded(amount: DecimalInput, currency: string, mode: RoundingMode): Money {
    return new Money(roundToCurrency(amount, currency, mode), currency);
  }

  static zero(currency: string): Money {
    minorDigits(currency);
    return new Money(new Decimal(0), currency);
  }

  /** From the wire (a JSON number, or its raw text): see wire.ts. */
  static fromWire(raw: unknown, currency: string): Money {
    return new Money(parseWireAmount(raw, currency), currency);
  }

  plus(other: Money): Money {
    this.sameCurrency(other);
    return new Money(this.amount.plus(other.amount), this.currency);
  }

  minus(other: Money): Money {
    this.sameCurrency(other);
    return new Money(this.amount.minus(other.amount), this.currency);
  }

  times(factor: DecimalInput, mode: RoundingMode): Money {
    return Money.rounded(this.amount.times(decimal(factor)), this.currency, mode);
  }

  dividedBy(divisor: DecimalInput, mode: RoundingMode): Money {
    return Money.rounded(this.amount.dividedBy(decimal(divisor)), this.currency, mode);
  }

  /**
   * Splits the amount by weights into parts that sum exactly to it (largest remainder: the minor units
   * left after rounding every share down go one each to the largest remainders, earliest first on a tie).
   */
  allocate(weights: DecimalInput[]): Money[] {
    const ws = weights.map((w) => decimal(w));
    if (ws.length === 0 || ws.some((w) => w.isNegative()) || ws.every((w) => w.isZero())) {
      throw new RangeError('allocate needs non-negative weights, at least one above zero');
    }
    const total = ws.reduce((a, b) => a.plus(b), new Decimal(0));
    const unit = new Decimal(10).pow(-minorDigits(this.currency));
    const units = this.amount.dividedBy(unit); // whole minor units, signed
    const exact = ws.map((w) => units.times(w).dividedBy(total));
    const floors = exact.map((e) => e.toDecimalPlaces(0, Decimal.ROUND_DOWN));
    let left = units.minus(floors.reduce((a, b) => a.plus(b), new Decimal(0)));
    const step = left.isNegative() ? -1 : 1;
    const order = exact
      .map((e, i) => ({ i, rest: e.minus(floors[i]!).abs() }))
      .sort((a, b) => b.rest.comparedTo(a.rest) || a.i - b.i);
    for (const { i } of order) {
      if (left.isZero()) break;
      floors[i] = floors[i]!.plus(step);
      left = left.minus(step);
    }
    return floors.map((f) => new Money(f.times(unit), this.currency));
  }

  isZero(): boolean {
    return this.amount.isZero();
  }

  isNegative(): boolean {
    return this.amount.isNegative() && !this.amount.isZero();
  }

  compareTo(other: Money): number {
    this.sameCurrency(other);
    return this.amount.comparedTo(other.amount);
  }

  equals(other: Money): boolean {
    return this.currency === other.currency && this.amount.equals(other.amount);
  }

  /** The JSON number for the wire. */
  toWire(): number {
    return toWireAmount(this.amount, this.currency);
  }

  /** Fixed-point text with exactly the minor digits, e.g. for storage: "12.50". */
  toString(): string {
    return this.amount.toFixed(minorDigits(this.currency));
  }

  toJSON(): { amount: number; currency: string } {
    return { amount: this.toWire(), currency: this.currency };
  }

  private sameCurrency(other: Money): void {
    if (other.currency !== this.currency) throw new RangeError(`${this.currency} and ${other.currency} do not mix`);
  }
}

/** The sum of amounts of one currency (zero for none). */
export const sum = (amounts: Money[], currency: string): Money =>
  amounts.reduce((total, m) => total.plus(m), Money.zero(currency));
