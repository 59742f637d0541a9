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

/** The profile as GET /company returns it. */
export function toCompanyResponse(c: Company) {
  return {
    id: c._id,
    name: c.name,
    market: c.market,
    baseCurrency: c.baseCurrency,
    address: c.address ?? null,
    registrationNumber: c.registrationNumber ?? null,
    vatNumber: c.vatNumber ?? null,
    enabledCountries: c.enabledCountries ?? [],
    enabledCurrencies: c.enabledCurrencies ?? [],
    createdAt: c.createdAt.toISOString(),
  };
}
