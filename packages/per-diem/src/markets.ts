// What differs between markets besides the tables: the time zone of the calendar, how the trip is cut
// into rows, the base currency and how payroll treats the statutory amount (docs/decisions/0051).
import { BASE_CURRENCY, type Market } from '@travel/regulations';
import type { TaxTreatment } from './types';

/**
 * How a market cuts a trip into rows:
 * - `calendarDay` (CZ, SK): each calendar day of the zone; per day a domestic row for the time at home and
 *   a foreign row for the time abroad at the rate of the country of the day's longest stay.
 * - `blocks24h` (HR, SI): each stay in one country in full 24-hour blocks from its start; the remainder
 *   falls in one band.
 * - `wallDays` (PL): each stay in one country in days of the Warsaw wall clock from its start; a stay within
 *   one day takes the short-trip bands, a longer one full days then a started day.
 */
export type Partition = 'calendarDay' | 'blocks24h' | 'wallDays';

export interface MarketProfile {
  zone: string;
  partition: Partition;
  baseCurrencyCode: string;
  taxTreatment: TaxTreatment;
  /**
   * `calendarDay` markets: a day with less time abroad than this pays no foreign per-diem, and that time
   * counts toward the day's domestic part (CZ §170: under 1 hour; docs/decisions/0123).
   */
  minimumForeignDayMs?: number;
}

export const MARKET_PROFILES: Readonly<Record<Market, MarketProfile>> = {
  CZ: {
    zone: 'Europe/Prague',
    partition: 'calendarDay',
    baseCurrencyCode: BASE_CURRENCY.CZ,
    taxTreatment: 'StatutoryMinimum',
    minimumForeignDayMs: 60 * 60 * 1000,
  },
  SK: {
    zone: 'Europe/Bratislava',
    partition: 'calendarDay',
    baseCurrencyCode: BASE_CURRENCY.SK,
    taxTreatment: 'StatutoryMinimum',
  },
  PL: {
    zone: 'Europe/Warsaw',
    partition: 'wallDays',
    baseCurrencyCode: BASE_CURRENCY.PL,
    taxTreatment: 'StatutoryMinimum',
  },
  HR: { zone: 'Europe/Zagreb', partition: 'blocks24h', baseCurrencyCode: BASE_CURRENCY.HR, taxTreatment: 'TaxFreeCap' },
  SI: {
    zone: 'Europe/Ljubljana',
    partition: 'blocks24h',
    baseCurrencyCode: BASE_CURRENCY.SI,
    taxTreatment: 'TaxFreeCap',
  },
};
