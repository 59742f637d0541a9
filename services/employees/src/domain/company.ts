import type { Market } from '@travel/platform';

export const MARKETS: readonly Market[] = ['HR', 'SI', 'SK', 'CZ', 'PL'];

export const BASE_CURRENCY: Record<Market, string> = { HR: 'EUR', SI: 'EUR', SK: 'EUR', CZ: 'CZK', PL: 'PLN' };

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
