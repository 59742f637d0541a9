import { AppError, invalidField, type Market } from '@travel/platform';
import { EXCHANGE_RATE_RANGE, outOfRange, type Decimal } from '@travel/money';
import { convert, decideRate, ratePerUnit, type AppliedRate, type Conversion } from '../domain/fx-conversion';
import { providerOfMarket } from '../domain/fx-providers';
import type { FxStore } from '../infra/fx-store';

export interface RateView extends AppliedRate {
  ratePerUnit: Decimal;
  requestedDate: string;
}

export interface ConversionRequest {
  market: Market;
  amount: Decimal;
  currency: string;
  /** The referential date (yyyy-MM-dd). */
  date: string;
  manualRate?: Decimal;
}

export interface ConversionResult extends Conversion {
  amount: Decimal;
  currency: string;
  date: string;
}

const unavailable = (field: string, message: string) =>
  new AppError('EXCHANGE_RATE_UNAVAILABLE', message, { [field]: [message] });

/** Rate look-ups for a market's provider, and conversion into its base currency. */
export class FxRatesApp {
  constructor(private readonly store: FxStore) {}

  /**
   * The rates that apply on `date` for the market: one currency, or every currency of the newest
   * publication on or before the date. Weekends and holidays take the latest earlier publication;
   * each rate says which date it is from.
   */
  async ratesOn(market: Market, date: string, currency?: string): Promise<RateView[]> {
    const profile = providerOfMarket(market);
    if (currency !== undefined) {
      if (currency === profile.baseCurrency) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          currency: [`is the base currency of ${profile.provider} rates (${profile.baseCurrency}); it has no rate`],
        });
      }
      const rate = await this.store.rateOn(profile.provider, currency, date);
      if (!rate) {
        throw unavailable('currency', `${profile.provider} has published no rate for ${currency} on or before ${date}`);
      }
      return [{ ...rate, ratePerUnit: ratePerUnit(rate), requestedDate: date }];
    }
    const publication = await this.store.publicationOn(profile.provider, date);
    if (!publication) throw unavailable('date', `${profile.provider} has published no rates on or before ${date}`);
    return publication.rates
      .map((r): RateView => ({
        provider: profile.provider,
        currency: r.currency,
        baseCurrency: publication.baseCurrency,
        direction: publication.direction,
        rate: r.rate,
        units: r.units,
        date: publication.date,
        ratePerUnit: ratePerUnit(r),
        requestedDate: date,
      }))
      .sort((a, b) => a.currency.localeCompare(b.currency));
  }

  /** An amount in the market's base currency, with the rate used and its provenance (decision 0022). */
  async convert(req: ConversionRequest): Promise<ConversionResult> {
    // Every caller's manual rate keeps the product's range, whoever checked it before (decision 0107).
    const rateProblem = req.manualRate && outOfRange(req.manualRate, EXCHANGE_RATE_RANGE);
    if (rateProblem) throw invalidField('manualRate', rateProblem);
    const profile = providerOfMarket(req.market);
    const official =
      req.currency === profile.baseCurrency ? null : await this.store.rateOn(profile.provider, req.currency, req.date);
    const decision = decideRate({
      profile,
      currency: req.currency,
      date: req.date,
      official,
      manualRate: req.manualRate,
    });
    if (decision.kind === 'unavailable') throw unavailable(decision.field, decision.message);
    return {
      ...convert(req.amount, profile, decision, req.date),
      amount: req.amount,
      currency: req.currency,
      date: req.date,
    };
  }
}
