import type { Market } from '@travel/platform';

export { BASE_CURRENCY, isMarket, MARKETS } from '@travel/regulations';

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
