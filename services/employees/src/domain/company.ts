import type { Market } from '@travel/platform';

export const MARKETS: readonly Market[] = ['HR', 'SI', 'SK', 'CZ', 'PL'];

export const BASE_CURRENCY: Record<Market, string> = { HR: 'EUR', SI: 'EUR', SK: 'EUR', CZ: 'CZK', PL: 'PLN' };

/** The allow-lists a new company starts with: the five markets and their currencies, plus the usual travel ones. */
export const DEFAULT_COUNTRIES = ['HR', 'SI', 'SK', 'CZ', 'PL', 'AT', 'DE', 'HU', 'IT'];
export const DEFAULT_CURRENCIES = ['EUR', 'CZK', 'PLN', 'HUF', 'USD', 'GBP', 'CHF'];

export const isMarket = (value: string): value is Market => (MARKETS as readonly string[]).includes(value);

export interface Company {
  _id: string;
  tenantId: string;
  name: string;
  market: Market;
  baseCurrency: string;
  address: string | null;
  registrationNumber: string | null;
  vatNumber: string | null;
  enabledCountries: string[];
  enabledCurrencies: string[];
  createdAt: Date;
}
