// The shapes of the statutory tables. Amounts are decimal strings (never binary floating point); hours
// are plain numbers (band edges are whole or half hours). Dates are `yyyy-MM-dd`, compared as strings.

// The markets the product serves and each one's base currency: the one list (docs/decisions/0181).
export type Market = 'HR' | 'SI' | 'SK' | 'CZ' | 'PL';
export const MARKETS: readonly Market[] = ['HR', 'SI', 'SK', 'CZ', 'PL'];
export const isMarket = (value: string): value is Market => (MARKETS as readonly string[]).includes(value);

/** The national currency a market's companies keep their books in (HR joined the euro on 2023-01-01). */
export const BASE_CURRENCY: Readonly<Record<Market, string>> = {
  HR: 'EUR',
  SI: 'EUR',
  SK: 'EUR',
  CZ: 'CZK',
  PL: 'PLN',
};

/** Where a figure comes from: the instrument (law, decree, announcement) and, when known, the provision. */
export interface LegalSource {
  /** For example `Vyhláška č. 573/2025 Sb.` */
  act: string;
  /** For example `§ 163 odst. 1 zákoníku práce`; null when the research names the act only. */
  provision: string | null;
  /**
   * Where the research read the figure when not in the instrument's own text (an accountants' list, a
   * ministry page), or why it is taken as unchanged ("derived: absent from the change list"). Absent when
   * the instrument itself was read.
   */
  reportedBy?: string;
}

/**
 * When a version applies. `effectiveFrom` null: in force on the dates asked, but the research did not
 * record when it started (docs/decisions/0025). `effectiveTo` (inclusive) null: no end known.
 * `verifiedThrough`: the last day the research confirms; a later date is answered as unknown, because a
 * newer figure may exist that nobody has verified (for example Slovenian foreign rates for 2026).
 */
export interface Validity {
  effectiveFrom: string | null;
  effectiveTo: string | null;
  verifiedThrough?: string;
}

/** An edge of an hours band: `hours` with `inclusive` saying whether exactly that many hours belongs here. */
export interface HoursEdge {
  hours: number;
  inclusive: boolean;
}

export type Meal = 'Breakfast' | 'Lunch' | 'Dinner';

export interface Band {
  /** Stable id, for example `5-12h`, `>12-18h`, `>18h`. */
  id: string;
  /** Lower edge (the band starts above it, or at it when inclusive). */
  from: HoursEdge;
  /** Upper edge; null for an open band. */
  to: HoursEdge | null;
  /** The statutory amount for the band, in the table's currency; null when the band is a fraction of a daily rate. */
  amount: string | null;
  /** The band's share of the daily (country) rate, as an exact fraction `n/d`: `1/2`, `1/3`, `1/1`. */
  fraction?: string;
  /** Public-sector range (CZ): the employer pays between `amount` (minimum) and this maximum. */
  publicSectorMaximum?: string;
}

/**
 * Reductions for meals provided, as percentages (decimal strings). `perMeal`: per provided meal of that kind;
 * `byBand`: when the percentage depends on the band (keyed by band id). `combined` (HR): the reduction for
 * the number of counted meals provided. `of`: what the percentage is taken of.
 */
export interface MealReductionRule {
  kind: 'perMeal' | 'perMealByBand' | 'countedMeals';
  of: 'bandAmount' | 'fullDayAmount' | 'dailyRate';
  perMeal?: Partial<Record<Meal, string>>;
  byBand?: Record<string, Partial<Record<Meal, string>> | null>;
  /** `countedMeals`: which meals count, and the reduction for 1, 2, … counted meals. */
  countedMeals?: Meal[];
  byCount?: string[];
  /** A share still paid when every meal is provided (SI foreign: 20 %). */
  minimumPaidPercent?: string;
  /** Rounding the regulation prescribes for the reduced amount, when it does. */
  rounding?: 'upToCent';
  /** The rule as the regulation words it, for people reading the API. */
  text: string;
}

export interface DomesticPerDiem extends Validity {
  market: Market;
  currency: string;
  /** The daily rate the bands derive from, when the market has one (PL dieta). */
  dailyRate?: string;
  bands: Band[];
  mealReduction: MealReductionRule | null;
  /** Multi-day rule in words (PL: full days then a started day). */
  multiDayRule?: string;
  /**
   * PL: the bands of the started day that ends a trip over 24 hours (by that day's hours); the full days
   * before it pay `dailyRate`. Absent where the market has no such rule.
   */
  startedDayBands?: Band[];
  source: LegalSource;
}

/** How foreign per-diems are paid for a market: the bands (as fractions of the country rate) and reductions. */
export interface ForeignRules extends Validity {
  market: Market;
  /** null when the research marks the band thresholds unverified (CZ). */
  bands: Band[] | null;
  mealReduction: MealReductionRule | null;
  /** A rate for countries the instrument does not list (HR: 50 USD); applies only to countries known to be unlisted. */
  unlistedCountryRate?: { amount: string; currency: string };
  source: LegalSource;
}

/**
 * A group of workers with rates of their own: SK mobile road-transport workers (opatrenie 9/2026 Z. z.,
 * from 2026-01-30). Absent on a rate: the rate for everyone else.
 */
export type WorkerGroup = 'MobileRoadTransport';
export const WORKER_GROUPS: readonly WorkerGroup[] = ['MobileRoadTransport'];

export interface ForeignRate extends Validity {
  market: Market;
  /** The group the rate is for; absent for the general rate. */
  workerGroup?: WorkerGroup;
  /** ISO 3166-1 alpha-2 of the destination. */
  countryCode: string;
  amount: string;
  currency: string;
  /** PL: the hotel limit per night for the country. */
  hotelLimit?: string;
  source: LegalSource;
}

export type VehicleKind = 'Car' | 'CarUpTo900cc' | 'CarOver900cc' | 'Motorcycle' | 'Moped';

export interface MileageRates extends Validity {
  market: Market;
  currency: string;
  perKm: Partial<Record<VehicleKind, string>>;
  /** SK: a trailer adds this percentage. */
  trailerSurchargePercent?: string;
  source: LegalSource;
}

export type FuelKind = 'Natural95' | 'Natural98' | 'Diesel' | 'Electricity';

export interface FuelPrices extends Validity {
  market: Market;
  currency: string;
  /** Per litre, electricity per kWh. */
  prices: Partial<Record<FuelKind, string>>;
  source: LegalSource;
}

/** PL: the lump sum for a night, the hotel limit and local transport, as shares of the dieta. */
export interface NightRules extends Validity {
  market: Market;
  currency: string;
  /** The night counts when at least `minimumHours` of it lie in the window (local time). */
  window: { from: string; to: string; minimumHours: number };
  lumpSum: string;
  lumpSumPercentOfDailyRate: string;
  hotelLimit: string;
  localTransportPerDay: string;
  /** Foreign night lump sum as a share of the country's hotel limit. */
  foreignLumpSumPercentOfHotelLimit?: string;
  source: LegalSource;
}

/**
 * A figure the research read in one secondary source only, or in sources that disagree (research, third
 * pass): never used as an amount on its own. A lookup that answers `unknown` names it, so that a company
 * can confirm it as its own rate in the per-diem policy (docs/decisions/0187).
 */
export interface ReportedRate extends Validity {
  market: Market;
  countryCode: string;
  amount: string;
  currency: string;
  /** PL: the hotel limit per night the same source gives. */
  hotelLimit?: string;
  /** The instrument the source says the figure is from. */
  act: string;
  /** Where it was read (a publisher, a URL, a dataset). */
  reportedBy: string;
  /** Why it is not statutory: a single source, or the other figure a second source gives. */
  note?: string;
}

/** A reported figure as lookups and the API name it. */
export interface ReportedFigure {
  amount: string;
  currency: string;
  hotelLimit?: string;
  /** The act and where the figure was read, in words (`Opatrenie MF SR č. 401/2012 Z. z., read in …`). */
  source: string;
  note?: string;
}

/** Everything the research knows for one market; absent entries are unknown. */
export interface MarketTables {
  market: Market;
  domestic: DomesticPerDiem[];
  foreignRules: ForeignRules[];
  foreignRates: ForeignRate[];
  /** Figures the research only reports (docs/decisions/0187): named where the amount is unknown, never used. */
  reportedRates?: ReportedRate[];
  mileage: MileageRates[];
  fuel: FuelPrices[];
  night: NightRules[];
  /** What the research could not verify, said once so answers can explain an absence. */
  unknowns: { topic: 'domestic' | 'foreign' | 'mileage' | 'fuel' | 'night'; reason: string }[];
}
