// The countries and currencies a company starts with enabled (decision 0027, one list since 0174): the
// five markets plus the usual destinations (issue 14: AT, DE, IT, HU, FR, GB, US) and CH, with their
// currencies, for everyone; each market adds its non-EU neighbours and their currencies. A starting point
// for the usual trips of a market, not a legal list. reference-fx answers them as a company's allow-lists
// until one is written; employees gives a new company's profile the same.
import type { Market } from './types';

export type AllowListKind = 'countries' | 'currencies';

const COMMON: Readonly<Record<AllowListKind, readonly string[]>> = {
  countries: ['HR', 'SI', 'SK', 'CZ', 'PL', 'AT', 'DE', 'IT', 'HU', 'FR', 'GB', 'US', 'CH'],
  currencies: ['EUR', 'CZK', 'PLN', 'HUF', 'USD', 'GBP', 'CHF'],
};

const BY_MARKET: Readonly<Record<Market, Readonly<Record<AllowListKind, readonly string[]>>>> = {
  HR: { countries: ['BA', 'RS', 'ME'], currencies: ['BAM', 'RSD'] },
  SI: { countries: [], currencies: [] },
  SK: { countries: ['UA'], currencies: ['UAH'] },
  CZ: { countries: [], currencies: [] },
  PL: { countries: ['LT', 'UA'], currencies: ['UAH'] },
};

/** A market's default list of enabled countries or currencies: sorted, each code once. */
export function defaultEnabled(kind: AllowListKind, market: Market): string[] {
  return [...new Set([...COMMON[kind], ...BY_MARKET[market][kind]])].sort();
}
