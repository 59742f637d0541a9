import { Decimal, decimalFromText, MAX_WIRE_SIGNIFICANT_DIGITS } from '@travel/money';
import { PROVIDER_PROFILES, type FxProvider } from './fx-providers';
import { isCalendarDate } from '@travel/platform/src/calendar-date';

/** One rate as published: `rate` base or foreign units (see the provider's direction) per `units` of `currency`. */
export interface QuotedRate {
  currency: string;
  /** Decimal text exactly as published, with a dot ("24.635"). */
  rate: string;
  /** The amount multiplier ("množství"): 100 for CNB's JPY, HUF…; 1 everywhere else. */
  units: number;
}

/** Everything one provider published for one date: stored whole or not at all. */
export interface Publication {
  provider: FxProvider;
  /** yyyy-MM-dd: HNB's application date, ECB's Cube time, CNB's header date, NBP's effectiveDate. */
  date: string;
  /** The provider's own number of the list, when it has one ("184", "039/A/NBP/2022"). */
  reference: string | null;
  rates: QuotedRate[];
}

/** A feed that is malformed, partial or inconsistent: refused whole. */
export class FeedError extends Error {
  constructor(
    readonly provider: FxProvider,
    reason: string,
  ) {
    super(`${provider} feed refused: ${reason}`);
  }
}

// The contract's `format: date`, written once (docs/decisions/0119).
export { isCalendarDate };

/** The rate per one unit of the foreign currency (rate / units), exact. */
export const perUnit = (q: Pick<QuotedRate, 'rate' | 'units'>): Decimal => decimalFromText(q.rate).dividedBy(q.units);

/**
 * The checks every parsed feed passes before anything is stored: real dates, one entry per currency and
 * date, ISO-shaped codes, positive rates and multipliers, the provider's required currencies present.
 * Throws FeedError on the first problem (the feed is refused whole).
 */
export function checkPublications(provider: FxProvider, publications: Publication[]): Publication[] {
  if (publications.length === 0) throw new FeedError(provider, 'no publication in the feed');
  const dates = new Set<string>();
  for (const p of publications) {
    if (!isCalendarDate(p.date)) throw new FeedError(provider, `"${p.date}" is not a date`);
    if (dates.has(p.date)) throw new FeedError(provider, `${p.date} appears twice`);
    dates.add(p.date);
    const seen = new Set<string>();
    for (const q of p.rates) {
      if (!/^[A-Z]{3}$/.test(q.currency)) throw new FeedError(provider, `"${q.currency}" is not a currency code`);
      if (seen.has(q.currency)) throw new FeedError(provider, `${q.currency} appears twice on ${p.date}`);
      seen.add(q.currency);
      if (!Number.isSafeInteger(q.units) || q.units < 1)
        throw new FeedError(provider, `${q.currency} on ${p.date}: amount "${q.units}" is not a positive whole number`);
      let rate: Decimal;
      try {
        rate = decimalFromText(q.rate);
      } catch {
        throw new FeedError(provider, `${q.currency} on ${p.date}: rate "${q.rate}" is not a number`);
      }
      if (!rate.greaterThan(0))
        throw new FeedError(provider, `${q.currency} on ${p.date}: rate ${q.rate} is not positive`);
      // Rates go to partners as JSON numbers, which carry 15 significant digits faithfully (decision 0020).
      if (rate.precision(true) > MAX_WIRE_SIGNIFICANT_DIGITS)
        throw new FeedError(provider, `${q.currency} on ${p.date}: rate ${q.rate} has too many digits`);
      if (q.currency === PROVIDER_PROFILES[provider].baseCurrency)
        throw new FeedError(provider, `${p.date} quotes the base currency ${q.currency}`);
    }
    const { required, requiredSince = {} } = PROVIDER_PROFILES[provider];
    const missing = required.filter((c) => !seen.has(c) && p.date >= (requiredSince[c] ?? ''));
    if (missing.length) throw new FeedError(provider, `${p.date} lacks ${missing.join(', ')} (partial feed)`);
  }
  return [...publications].sort((a, b) => a.date.localeCompare(b.date));
}
