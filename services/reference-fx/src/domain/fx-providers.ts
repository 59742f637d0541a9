import type { Market } from '@travel/platform';

// Who publishes the rates each market uses, and how to read them (SPEC "Exchange rate (reference)",
// API-SURFACE "Values", REGULATIONS.md "FX feeds").

export type FxProvider = 'HNB' | 'ECB' | 'CNB' | 'NBP';
export const FX_PROVIDERS: readonly FxProvider[] = ['HNB', 'ECB', 'CNB', 'NBP'];

/**
 * `ForeignPerBase`: the rate is units of the foreign currency per 1 unit of the base (1 EUR = 1.1225 USD):
 * divide a foreign amount by it. `BasePerForeign`: base units per `units` of the foreign currency
 * (100 JPY = 17.273 CZK): multiply a foreign amount by rate / units.
 */
export type RateDirection = 'ForeignPerBase' | 'BasePerForeign';

export interface ProviderProfile {
  provider: FxProvider;
  baseCurrency: string;
  direction: RateDirection;
  /** Currencies every complete publication of this provider lists; a feed without them is partial. */
  required: readonly string[];
  /**
   * A required currency that did not exist before a date: required only on publications from that date.
   * The euro replaced the ECU on 1999-01-01, so CNB's and NBP's lists before 1999 have no EUR row.
   */
  requiredSince?: Readonly<Record<string, string>>;
}

/** The first day of the euro; the first publications quoting it are of 1999-01-04. */
export const EURO_SINCE = '1999-01-01';

export const PROVIDER_PROFILES: Readonly<Record<FxProvider, ProviderProfile>> = {
  HNB: { provider: 'HNB', baseCurrency: 'EUR', direction: 'ForeignPerBase', required: ['USD'] },
  ECB: { provider: 'ECB', baseCurrency: 'EUR', direction: 'ForeignPerBase', required: ['USD'] },
  CNB: {
    provider: 'CNB',
    baseCurrency: 'CZK',
    direction: 'BasePerForeign',
    required: ['EUR', 'USD'],
    requiredSince: { EUR: EURO_SINCE },
  },
  NBP: {
    provider: 'NBP',
    baseCurrency: 'PLN',
    direction: 'BasePerForeign',
    required: ['EUR', 'USD'],
    requiredSince: { EUR: EURO_SINCE },
  },
};

export const PROVIDER_OF_MARKET: Readonly<Record<Market, FxProvider>> = {
  HR: 'HNB',
  SI: 'ECB',
  SK: 'ECB',
  CZ: 'CNB',
  PL: 'NBP',
};

export const providerOfMarket = (market: Market): ProviderProfile => PROVIDER_PROFILES[PROVIDER_OF_MARKET[market]];

export const isMarket = (value: unknown): value is Market =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(PROVIDER_OF_MARKET, value);
