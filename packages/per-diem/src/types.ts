// The engine's request and answer. Field names follow the API (API-SURFACE.md, "Per-diem calculator and
// itinerary rows"): a row's wire fields are exactly `ApiPerDiemRow`; `PerDiemRow` adds what payroll and
// the entries context need (reductions, rule, tax treatment, override excess). Times are ISO 8601 UTC
// strings; amounts are decimal strings.
import type { LegalSource, Market, Meal } from '@travel/regulations';

export type { LegalSource, Market, Meal };
export type Residency = 'Resident' | 'NonResident';

export interface Stop {
  /** ISO 8601; read as UTC when it carries no offset. */
  time: string;
  /** ISO 3166-1 alpha-2 of where the traveller is from this time on (a border crossing, or the start). */
  countryCode: string;
  placeId?: string;
}

/** Meals provided on one row, keyed by the row's (`countryCode`, `departureTime`) as the engine returns them. */
export interface RowMeals {
  countryCode: string;
  departureTime: string;
  breakfastsProvided?: number;
  lunchesProvided?: number;
  dinnersProvided?: number;
}

/** PL: the night that starts on `date` (Warsaw) is claimed as the lump sum (no bill, no accommodation provided). */
export interface NightClaim {
  date: string;
  lumpSum: boolean;
}

/** An amount the employer pays instead of the statutory one, for one row. */
export interface RowOverride {
  countryCode: string;
  departureTime: string;
  /** In the row's currency: a decimal string, or a JSON number (at most two places). */
  overrideAmount: string | number;
  overrideReason: string;
}

/**
 * A per-country rate of the company's per-diem policy (docs/decisions/0188): paid on a foreign row only
 * where the statutory rate is unknown on the row's date, through the market's statutory bands and meal
 * reductions. `amount` is decimal text in `currencyCode`.
 */
export interface CompanyRate {
  countryCode: string;
  amount: string;
  currencyCode: string;
  /** The policy version the rate belongs to. */
  effectiveFrom: string;
  /** Who set the rate (the caller's employee id) and when (ISO 8601 UTC). */
  confirmedBy: string;
  confirmedAt: string;
}

/** The company's rate for `countryCode` in force on `date` (the row's account date), if any. */
export type CompanyRates = (countryCode: string, date: string) => CompanyRate | null | undefined;

/**
 * Where a row's amount comes from: the statutory tables; the company's rate equal to a reported figure (the
 * company confirmed it); the company's own rate where nothing statutory or reported matches it.
 */
export type RateBasis = 'Statutory' | 'CompanyConfirmedReported' | 'CompanyRate';

/** A figure the research only reports (one secondary source, or a conflict), named on the row; never paid by itself. */
export interface ReportedRateOfRow {
  amount: string;
  currencyCode: string;
  /** PL: the hotel limit per night the same source gives. */
  hotelLimit?: string;
  /** The act and where the figure was read, in words. */
  source: string;
  note?: string;
}

export interface PerDiemRequest {
  /** The tenant's market: its rules apply, and its own country is domestic. */
  market: Market;
  /** Default `Resident`. Matters for the Slovenian tax-free cap. */
  residency?: Residency;
  /**
   * The employee is a mobile road-transport worker (default false): SK pays them the higher foreign rates
   * of opatrenie 9/2026 Z. z. from 2026-01-30 (docs/decisions/0125). No effect in other markets.
   */
  mobileRoadTransportWorker?: boolean;
  /** At least two, in time order; the first is the start of the trip, the last its end. */
  stops: Stop[];
  meals?: RowMeals[];
  nights?: NightClaim[];
  overrides?: RowOverride[];
  /**
   * The company's per-country rates (its per-diem policy): a foreign row whose statutory rate is unknown
   * on its date is priced with the company's rate for the country when there is one (docs/decisions/0188).
   */
  companyRates?: CompanyRates;
}

/** How payroll treats `amount`: the tax-free cap (HR, SI) or the statutory minimum (CZ, SK, PL). */
export type TaxTreatment = 'TaxFreeCap' | 'StatutoryMinimum' | 'Unknown';

export interface MealReductionApplied {
  /** The meals this reduction is for (HR counts lunch and dinner together). */
  meals: Meal[];
  count: number;
  /** Percentage per meal (for HR: for the number of counted meals). */
  percent: string;
  /** The amount the percentage is taken of. */
  of: string;
  amount: string;
}

/** The row as the API returns it (API-SURFACE.md). */
export interface ApiPerDiemRow {
  countryCode: string;
  departureTime: string;
  arrivalTime: string;
  /** Hours of the row, to two places. */
  hours: number;
  /** The band id of the regulation (`5-12h`, `>12h`, `FullDay`, …); null below the first band or when unknown. */
  band: string | null;
  /** The statutory amount after reductions, in the rate's currency; null when the rate is unknown. */
  amount: string | null;
  currencyCode: string | null;
  /** Equal to `amount` when the rate is in the base currency; otherwise null until the caller converts it. */
  amountInBaseCurrency: string | null;
  /** Provider of the rate the caller converted with; the engine converts nothing, so always null here. */
  exchangeRateSource: string | null;
  breakfastsProvided: number;
  lunchesProvided: number;
  dinnersProvided: number;
  source: LegalSource | null;
  /**
   * The figures the research only reports for the row's country and date (docs/decisions/0187, 0188): an
   * unknown row names them; a row priced with the company's rate keeps them for comparison. Empty when none.
   */
  reported: ReportedRateOfRow[];
  /** Where `amount` comes from; null when the amount is unknown. */
  rateBasis: RateBasis | null;
}

export interface PerDiemRow extends ApiPerDiemRow {
  /** The tenant's market whose rules produced the row. */
  market: Market;
  kind: 'Domestic' | 'Foreign';
  /** `known`: the statutory figures are verified; `unknown`: `reason` says what is missing (no guess). */
  status: 'known' | 'unknown';
  reason: string | null;
  /** The account date of the row: its departure's calendar date in the market's time zone. */
  date: string;
  /** The band amount before meal reductions. */
  grossAmount: string | null;
  reductions: MealReductionApplied[];
  /** The rule that produced the row, in words. */
  rule: string;
  taxTreatment: TaxTreatment;
  overrideAmount: string | null;
  overrideReason: string | null;
  /** What an override pays above `amount` (taxable); null without an override or when `amount` is unknown. */
  excessAmount: string | null;
  /** What the employee is paid for the row: the override when given, else `amount`. */
  payableAmount: string | null;
  /** Things the reader must know (an unverified meal reduction, an unverified residency rule). */
  warnings: string[];
}

/** PL: a night of the trip (at least six hours of it between 21:00 and 07:00 Warsaw time). */
export interface NightRow {
  /** The Warsaw date on which the night starts (21:00). */
  date: string;
  countryCode: string;
  /** The night window, UTC. */
  from: string;
  to: string;
  /** Hours of the trip inside the window. */
  hours: number;
  status: 'known' | 'unknown';
  reason: string | null;
  /** The lump sum the regulation grants for the night when no bill is presented. */
  lumpSumAmount: string | null;
  claimed: boolean;
  /** The lump sum when claimed, else `0.00`; null when unknown. */
  amount: string | null;
  currencyCode: string | null;
  source: LegalSource | null;
}

export interface CurrencyTotal {
  currencyCode: string;
  /** Sum of the rows' `payableAmount` (and claimed nights) in that currency. */
  amount: string;
}

export interface PerDiemResult {
  market: Market;
  baseCurrencyCode: string;
  items: PerDiemRow[];
  nights: NightRow[];
  /** Per currency; the caller converts to the base currency. */
  totals: CurrencyTotal[];
  /** False when any row or night is unknown: the totals then leave it out. */
  complete: boolean;
}
