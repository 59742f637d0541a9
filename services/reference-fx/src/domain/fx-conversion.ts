import { Decimal, decimalFromText, roundToCurrency, type RoundingMode } from '@travel/money';
import type { FxProvider, ProviderProfile, RateDirection } from './fx-providers';

// Conversion into the market's base currency, and the spec's manual-rate rule (docs/decisions/0022).

/** The converted amount is rounded once, at the end, to the base currency's minor unit, half-up. */
export const CONVERSION_ROUNDING: RoundingMode = 'HalfUp';

/** An official rate that applies to a date: the provider's latest publication on or before it. */
export interface AppliedRate {
  provider: FxProvider;
  currency: string;
  baseCurrency: string;
  direction: RateDirection;
  /** As published, per `units` of the currency. */
  rate: string;
  units: number;
  /** The publication's date (earlier than the requested date on weekends and holidays). */
  date: string;
}

export type RateSource = FxProvider | 'MANUAL';

export interface Conversion {
  baseAmount: Decimal;
  baseCurrency: string;
  /** Null for an amount already in the base currency. */
  rate: Decimal | null;
  units: number | null;
  direction: RateDirection | null;
  rateDate: string | null;
  source: RateSource | null;
}

/** Rate per one unit, in the provider's direction. */
export const ratePerUnit = (rate: Pick<AppliedRate, 'rate' | 'units'>): Decimal =>
  decimalFromText(rate.rate).dividedBy(rate.units);

/**
 * `amount` of a foreign currency in the base currency: divided by a ForeignPerBase rate, multiplied by a
 * BasePerForeign rate per unit; full precision until the one final rounding.
 */
export function toBase(amount: Decimal, perUnit: Decimal, direction: RateDirection, baseCurrency: string): Decimal {
  const exact = direction === 'ForeignPerBase' ? amount.dividedBy(perUnit) : amount.times(perUnit);
  return roundToCurrency(exact, baseCurrency, CONVERSION_ROUNDING);
}

export type RateDecision =
  | { kind: 'same-currency' }
  | { kind: 'official'; rate: AppliedRate }
  | { kind: 'manual'; rate: Decimal }
  | { kind: 'unavailable'; field: 'currency' | 'manualRate'; message: string };

/**
 * The spec's manual-rate rule: a manual rate is honoured only when the provider has no rate for the
 * referential date (none on or before it); supplying one while an official rate exists is refused, and
 * so is a foreign amount with neither.
 */
export function decideRate(input: {
  profile: ProviderProfile;
  currency: string;
  date: string;
  official: AppliedRate | null;
  manualRate?: Decimal;
}): RateDecision {
  const { profile, currency, date, official, manualRate } = input;
  if (currency === profile.baseCurrency) return { kind: 'same-currency' };
  if (official && manualRate) {
    return {
      kind: 'unavailable',
      field: 'manualRate',
      message: `${profile.provider} publishes a rate for ${currency} applying to ${date} (from ${official.date}); a manual rate is accepted only when it does not`,
    };
  }
  if (official) return { kind: 'official', rate: official };
  if (manualRate) return { kind: 'manual', rate: manualRate };
  return {
    kind: 'unavailable',
    field: 'currency',
    message: `${profile.provider} has published no rate for ${currency} on or before ${date}`,
  };
}

/** Carries out a decision that is not `unavailable`. */
export function convert(
  amount: Decimal,
  profile: ProviderProfile,
  decision: Exclude<RateDecision, { kind: 'unavailable' }>,
  date: string,
): Conversion {
  const base = profile.baseCurrency;
  switch (decision.kind) {
    case 'same-currency':
      return {
        baseAmount: roundToCurrency(amount, base, CONVERSION_ROUNDING),
        baseCurrency: base,
        rate: null,
        units: null,
        direction: null,
        rateDate: null,
        source: null,
      };
    case 'official': {
      const r = decision.rate;
      return {
        baseAmount: toBase(amount, ratePerUnit(r), r.direction, base),
        baseCurrency: base,
        rate: decimalFromText(r.rate),
        units: r.units,
        direction: r.direction,
        rateDate: r.date,
        source: r.provider,
      };
    }
    case 'manual':
      // A manual rate is read like the market's provider rate, per one unit (no multiplier).
      return {
        baseAmount: toBase(amount, decision.rate, profile.direction, base),
        baseCurrency: base,
        rate: decision.rate,
        units: 1,
        direction: profile.direction,
        rateDate: date,
        source: 'MANUAL',
      };
  }
}
