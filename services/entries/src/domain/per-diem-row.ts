// Per-diem rows on a travel entry (issue 14; SPEC "Per-diem (fields known)"; docs/decisions/0070-0071).
// The writable settings of a row (meals, the manual rate, the override, a short night) are normalized
// here; the statutory figures always come from the engine (@travel/per-diem), never from the body.
import type { FieldErrors } from '@travel/platform';
import { integerProblem, itemsProblem } from '@travel/platform/src/limits';
import {
  MARKET_PROFILES,
  type LegalSource,
  type Market,
  type RateBasis,
  type ReportedRateOfRow,
  type Stop,
  type TaxTreatment,
} from '@travel/per-diem';
import { formatInstant, instantOfWall, localDate, parseInstant } from '@travel/per-diem/src/time';
import { checkRange, decimalText } from './amounts';
import {
  AMOUNT_RANGE,
  MANUAL_RATE_RANGE,
  MAX_LEGACY_MEALS,
  MAX_MEAL_ALLOCATION_DAYS,
  MAX_MEALS_OF_A_KIND,
  TEXT_MAX_LENGTH,
} from './limits';
import { isCountryCode } from '@travel/regulations';
import { tooLong } from '@travel/text-rules';
import { isCalendarDate } from '@travel/platform/src/calendar-date';
import type { RateSource } from './entry-status';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Up to 10 decimals for a manual exchange rate (as the advance and expenses). */
const RATE_PLACES = 10;
/** A night allocation is a night shorter than six hours (SPEC); the PL lump sum starts at six. */
export const SHORT_NIGHT_HOURS = 6;

export interface MealsOfDay {
  date: string;
  breakfastsProvided: number;
  lunchesProvided: number;
  dinnersProvided: number;
}

export interface NightAllocation {
  /** The local date on which the night starts (21:00 of the market's wall clock). */
  date: string;
  /** Hours of the night spent travelling, below six; decimal text with two places. */
  hours: string;
}

/** A row as a create or a PUT sends it (read-only fields already removed by the contract walker). */
export interface PerDiemRowInput {
  countryCode: string;
  departureTime: string;
  arrivalTime: string;
  breakfastsProvided?: number;
  lunchesProvided?: number;
  dinnersProvided?: number;
  mealsProvided?: number | null;
  mealsProvidedAllocation?:
    { date: string; breakfastsProvided?: number; lunchesProvided?: number; dinnersProvided?: number }[] | null;
  manualExchangeRate?: number | null;
  overrideAmount?: number | null;
  overrideReason?: string | null;
  nightAllocation?: { date: string; hours: number } | null;
}

/** The writable settings of a row, normalized, in a fixed key order (compared to decide "unchanged"). */
export interface PerDiemRowFields {
  countryCode: string;
  /** UTC instants as the engine writes them (`2026-11-02T05:00:00Z`). */
  departureTime: string;
  arrivalTime: string;
  breakfastsProvided: number;
  lunchesProvided: number;
  dinnersProvided: number;
  mealsProvidedAllocation: MealsOfDay[] | null;
  /** Decimal text, or null. */
  manualExchangeRate: string | null;
  /** Decimal text in the row's currency (the base currency when the row's rate is unknown), or null. */
  overrideAmount: string | null;
  overrideReason: string | null;
  nightAllocation: NightAllocation | null;
}

/** A stored per-diem row: the settings plus what the engine and reference-fx computed. */
export interface PerDiem extends PerDiemRowFields {
  kind: 'Domestic' | 'Foreign';
  /** The row's account date in the market's calendar. */
  date: string;
  hours: number;
  band: string | null;
  /** Statutory amount before / after the meal reductions, in `currencyCode`; null when the rate is unknown. */
  grossAmount: string | null;
  amount: string | null;
  currencyCode: string | null;
  /** What the override or the company policy pays above the statutory amount (taxable); null when neither applies or unknown. */
  excessAmount: string | null;
  /** The part of `payableAmount` up to the statutory amount (tax-free); null when the statutory amount is unknown. */
  taxFreeAmount: string | null;
  /** The override when given, else the company policy's amount, else `amount` (docs/decisions/0129). */
  payableAmount: string | null;
  /** The effective date of the company policy version that set `payableAmount`; null when none did. */
  policyEffectiveFrom: string | null;
  /** The amount of the short night: no statutory allowance below six hours, so `0.00`; null without one. */
  nightAllocationAmount: string | null;
  /** The referential date of the conversion (CZ: the entry's advancePaymentDate; else the trip's start). */
  fxDate: string | null;
  exchangeRateSource: RateSource;
  /** The payable amount (+ the night) in the base currency: decimal text; null when unknown (`reason`). */
  amountInBaseCurrency: string | null;
  taxTreatment: TaxTreatment;
  source: LegalSource | null;
  /** Figures the research only reports for the row's country and date (docs/decisions/0188); absent on older rows. */
  reported?: ReportedRateOfRow[];
  /** Where `amount` comes from; null when unknown; absent on rows stored before it existed (statutory). */
  rateBasis?: RateBasis | null;
  rule: string;
  reason: string | null;
  warnings: string[];
  /** Nights the row runs through (local midnights inside it): the length of `nightOffWindowOverride`. */
  nights: number;
}

const zoneOf = (market: Market): string => MARKET_PROFILES[market].zone;

/** The canonical UTC text of an ISO instant, or null. */
export function utcInstant(text: string): string | null {
  const t = parseInstant(text);
  return t === null ? null : formatInstant(t);
}

/** Calendar days (market zone) a row touches: from its departure's date to the date of its last instant. */
export function rowDates(market: Market, departureTime: string, arrivalTime: string): string[] {
  const zone = zoneOf(market);
  const from = parseInstant(departureTime)!;
  const to = Math.max(from, parseInstant(arrivalTime)! - 1);
  const first = localDate(zone, from);
  const last = localDate(zone, to);
  const dates: string[] = [];
  for (let d = Date.parse(`${first}T00:00:00Z`); ; d += DAY) {
    const date = new Date(d).toISOString().slice(0, 10);
    dates.push(date);
    if (date >= last || dates.length > 400) break;
  }
  return dates;
}

/**
 * Legacy `mealsProvided` (an aggregate count of the main meals provided), "mapped as before": lunches
 * first, then dinners, alternating (1 → one lunch; 2 → lunch and dinner; 3 → two lunches and a dinner),
 * never a breakfast. Reading it back as lunch + dinner gives the same number (docs/decisions/0071).
 */
export const legacyMeals = (n: number): { lunchesProvided: number; dinnersProvided: number } => ({
  lunchesProvided: Math.ceil(n / 2),
  dinnersProvided: Math.floor(n / 2),
});

/** Legacy aggregate returned by reads: lunch + dinner (SPEC). */
export const derivedMealsProvided = (r: Pick<PerDiemRowFields, 'lunchesProvided' | 'dinnersProvided'>): number =>
  r.lunchesProvided + r.dinnersProvided;

/** The instant window of the night that starts at 21:00 on `date` and ends at 07:00 the next day (market zone). */
function nightWindow(market: Market, date: string): [number, number] {
  const wall = Date.parse(`${date}T00:00:00Z`);
  const zone = zoneOf(market);
  return [instantOfWall(zone, wall + 21 * HOUR), instantOfWall(zone, wall + 31 * HOUR)];
}

/**
 * Normalizes and checks one row's writable settings (field errors under `perDiems[i].…`). The meals:
 * the per-meal counts are canonical; `mealsProvidedAllocation`, when given, says the same per day (its sums
 * are the counts); legacy `mealsProvided` counts only when neither is sent.
 */
export function perDiemRowFields(
  input: PerDiemRowInput,
  index: number,
  market: Market,
): { fields: PerDiemRowFields; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const p = `perDiems[${index}].`;
  const add = (field: string, message: string) => (errors[`${p}${field}`] ??= []).push(message);

  // The contract's CountryCode list, held here too (docs/decisions/0119): an unknown code prices nothing.
  if (!isCountryCode(input.countryCode))
    add('countryCode', 'must be a country code the product knows (ISO 3166-1 alpha-2, or XK for Kosovo)');
  const departureTime = utcInstant(input.departureTime);
  const arrivalTime = utcInstant(input.arrivalTime);
  if (departureTime === null) add('departureTime', 'must be an ISO 8601 date-time with an offset (UTC)');
  if (arrivalTime === null) add('arrivalTime', 'must be an ISO 8601 date-time with an offset (UTC)');
  const timesOk =
    departureTime !== null && arrivalTime !== null && parseInstant(arrivalTime)! > parseInstant(departureTime)!;
  if (departureTime !== null && arrivalTime !== null && !timesOk) add('arrivalTime', 'must be after departureTime');
  const dates = timesOk ? rowDates(market, departureTime!, arrivalTime!) : [];

  // Counts outside 0..2 would turn a meal reduction into a supplement (docs/decisions/0107).
  const checkCount = (field: string, value: unknown, max = MAX_MEALS_OF_A_KIND) => {
    const problem = value === undefined || value === null ? undefined : integerProblem(value, 0, max);
    if (problem) add(field, problem);
  };
  for (const kind of ['breakfastsProvided', 'lunchesProvided', 'dinnersProvided'] as const)
    checkCount(kind, input[kind]);
  checkCount('mealsProvided', input.mealsProvided, MAX_LEGACY_MEALS);
  const tooManyDays = input.mealsProvidedAllocation
    ? itemsProblem(input.mealsProvidedAllocation, MAX_MEAL_ALLOCATION_DAYS)
    : undefined;
  if (tooManyDays) add('mealsProvidedAllocation', tooManyDays);
  const perMeal = [input.breakfastsProvided, input.lunchesProvided, input.dinnersProvided].some((n) => n !== undefined);
  let meals = {
    breakfastsProvided: input.breakfastsProvided ?? 0,
    lunchesProvided: input.lunchesProvided ?? 0,
    dinnersProvided: input.dinnersProvided ?? 0,
  };
  let allocation: MealsOfDay[] | null = null;
  if (input.mealsProvidedAllocation && !tooManyDays) {
    const seen = new Set<string>();
    allocation = input.mealsProvidedAllocation.map((day, j) => {
      if (!isCalendarDate(day.date)) add(`mealsProvidedAllocation[${j}].date`, 'must be a calendar date (yyyy-MM-dd)');
      else if (timesOk && !dates.includes(day.date))
        add(`mealsProvidedAllocation[${j}].date`, `must be a day of the row (${dates.join(', ')})`);
      if (seen.has(day.date)) add(`mealsProvidedAllocation[${j}].date`, 'is listed twice');
      seen.add(day.date);
      for (const kind of ['breakfastsProvided', 'lunchesProvided', 'dinnersProvided'] as const)
        checkCount(`mealsProvidedAllocation[${j}].${kind}`, day[kind]);
      return {
        date: day.date,
        breakfastsProvided: day.breakfastsProvided ?? 0,
        lunchesProvided: day.lunchesProvided ?? 0,
        dinnersProvided: day.dinnersProvided ?? 0,
      };
    });
    allocation.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const sums = {
      breakfastsProvided: allocation.reduce((s, d) => s + d.breakfastsProvided, 0),
      lunchesProvided: allocation.reduce((s, d) => s + d.lunchesProvided, 0),
      dinnersProvided: allocation.reduce((s, d) => s + d.dinnersProvided, 0),
    };
    if (perMeal && (Object.keys(sums) as (keyof typeof sums)[]).some((k) => sums[k] !== meals[k]))
      add('mealsProvidedAllocation', 'must add up to breakfastsProvided, lunchesProvided and dinnersProvided');
    meals = sums;
  } else if (!perMeal && input.mealsProvided !== undefined && input.mealsProvided !== null) {
    meals = { breakfastsProvided: 0, ...legacyMeals(input.mealsProvided) };
  }

  let manualExchangeRate: string | null = null;
  if (input.manualExchangeRate !== undefined && input.manualExchangeRate !== null) {
    manualExchangeRate = decimalText(input.manualExchangeRate, RATE_PLACES) ?? null;
    if (manualExchangeRate === null) add('manualExchangeRate', `must have at most ${RATE_PLACES} decimals`);
    checkRange(add, 'manualExchangeRate', manualExchangeRate, MANUAL_RATE_RANGE);
  }

  let overrideAmount: string | null = null;
  if (input.overrideAmount !== undefined && input.overrideAmount !== null) {
    overrideAmount = decimalText(input.overrideAmount, 2) ?? null;
    if (overrideAmount === null) add('overrideAmount', 'must have at most 2 decimals');
    checkRange(add, 'overrideAmount', overrideAmount, AMOUNT_RANGE);
  }
  const overrideReason = typeof input.overrideReason === 'string' ? input.overrideReason.trim() || null : null;
  const longReason = overrideReason === null ? undefined : tooLong(overrideReason, TEXT_MAX_LENGTH.overrideReason);
  if (longReason) add('overrideReason', longReason);
  if (input.overrideAmount !== undefined && input.overrideAmount !== null && overrideReason === null)
    add('overrideReason', 'must say why the statutory amount is overridden');
  if (overrideReason !== null && (input.overrideAmount === undefined || input.overrideAmount === null))
    add('overrideAmount', 'is required with overrideReason');

  let nightAllocation: NightAllocation | null = null;
  if (input.nightAllocation) {
    const { date, hours } = input.nightAllocation;
    const text = decimalText(hours, 2);
    if (text === undefined) add('nightAllocation.hours', 'must have at most 2 decimals');
    else if (!(hours > 0 && hours < SHORT_NIGHT_HOURS))
      add('nightAllocation.hours', `a night shorter than ${SHORT_NIGHT_HOURS} hours (more than 0)`);
    if (!isCalendarDate(date)) add('nightAllocation.date', 'must be a calendar date (yyyy-MM-dd)');
    else if (timesOk && text !== undefined) {
      const [from, to] = nightWindow(market, date);
      const overlap = Math.min(to, parseInstant(arrivalTime!)!) - Math.max(from, parseInstant(departureTime!)!);
      if (overlap <= 0) add('nightAllocation.date', 'the night (21:00-07:00 local) must fall within the row');
      else if (hours * HOUR > overlap + 1)
        add('nightAllocation.hours', `at most the ${(overlap / HOUR).toFixed(2)} hours of the night inside the row`);
    }
    nightAllocation = { date, hours: text ?? '0.00' };
  }

  return {
    fields: {
      countryCode: input.countryCode,
      departureTime: departureTime ?? input.departureTime,
      arrivalTime: arrivalTime ?? input.arrivalTime,
      ...meals,
      mealsProvidedAllocation: allocation,
      manualExchangeRate,
      overrideAmount,
      overrideReason,
      nightAllocation,
    },
    errors,
  };
}

/** The writable settings of a stored row, in the shape and order `perDiemRowFields` produces. */
export const storedRowFields = (r: PerDiem): PerDiemRowFields => ({
  countryCode: r.countryCode,
  departureTime: r.departureTime,
  arrivalTime: r.arrivalTime,
  breakfastsProvided: r.breakfastsProvided,
  lunchesProvided: r.lunchesProvided,
  dinnersProvided: r.dinnersProvided,
  mealsProvidedAllocation: r.mealsProvidedAllocation ?? null,
  manualExchangeRate: r.manualExchangeRate ?? null,
  overrideAmount: r.overrideAmount ?? null,
  overrideReason: r.overrideReason ?? null,
  nightAllocation: r.nightAllocation ? { date: r.nightAllocation.date, hours: r.nightAllocation.hours } : null,
});

/** True when the rows' settings are the same, row by row in time order. */
export function sameRows(a: readonly PerDiemRowFields[], b: readonly PerDiemRowFields[]): boolean {
  const key = (rows: readonly PerDiemRowFields[]) =>
    JSON.stringify([...rows].sort((x, y) => rowOrder(x, y)).map((r) => JSON.stringify(r)));
  return key(a) === key(b);
}

const rowOrder = (x: Pick<PerDiemRowFields, 'departureTime' | 'countryCode'>, y: typeof x): number =>
  parseInstant(x.departureTime)! - parseInstant(y.departureTime)! || (x.countryCode < y.countryCode ? -1 : 1);

/** The key of a row: (`countryCode`, `departureTime` instant). */
export const rowKey = (countryCode: string, departureTime: string): string =>
  `${countryCode}|${parseInstant(departureTime)}`;

/**
 * The itinerary a set of rows describes (docs/decisions/0070). Each stretch between two consecutive row
 * boundaries is spent in the country of the row covering it that started last (a CZ or SK day's home row
 * spans the day's foreign row, which is the more specific one). Rows must cover the trip without a gap.
 */
export function itineraryOfRows(rows: readonly PerDiemRowFields[]): { stops: Stop[]; errors: FieldErrors } {
  const spans = rows.map((r, i) => ({
    i,
    country: r.countryCode,
    from: parseInstant(r.departureTime)!,
    to: parseInstant(r.arrivalTime)!,
  }));
  const bounds = [...new Set(spans.flatMap((s) => [s.from, s.to]))].sort((a, b) => a - b);
  const stops: Stop[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const [a, b] = [bounds[k], bounds[k + 1]];
    const covering = spans.filter((s) => s.from <= a && s.to >= b);
    if (covering.length === 0)
      return {
        stops: [],
        errors: {
          perDiems: [`the rows leave ${formatInstant(a)} to ${formatInstant(b)} uncovered; rows must cover the trip`],
        },
      };
    const latest = covering.reduce((x, y) => (y.from > x.from ? y : x));
    if (stops.at(-1)?.countryCode !== latest.country)
      stops.push({ time: formatInstant(a), countryCode: latest.country });
  }
  if (bounds.length > 0) stops.push({ time: formatInstant(bounds.at(-1)!), countryCode: stops.at(-1)!.countryCode });
  return { stops, errors: {} };
}

/** Local midnights inside the row: the nights it runs through (`nightOffWindowOverride` has one per night). */
export const nightsOf = (market: Market, departureTime: string, arrivalTime: string): number =>
  rowDates(market, departureTime, arrivalTime).length - 1;

/**
 * The per-diem FX referential date of an entry's rows: for CZ tenants the entry's advancePaymentDate
 * (SPEC); for the other markets the trip's start date (the first row's account date), as the calculator
 * converts (docs/decisions/0056), so both answer the same for the same itinerary.
 */
export const perDiemFxDate = (market: Market, advancePaymentDate: string, tripStart: string | null): string | null =>
  market === 'CZ' ? advancePaymentDate : tripStart;
