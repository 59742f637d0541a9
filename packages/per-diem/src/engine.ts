// calculatePerDiems: the itinerary in, the statutory per-diem rows out. Pure: no I/O, no clock, no FX.
// Steps: validate; stops → stays (one per country visit); the market's partition → row windows; each
// window priced on its account date with the meals keyed to it; overrides and their taxable excess;
// PL nights; totals per currency (docs/decisions/0050-0053).
import { isCountryCode, MARKETS, type Market } from '@travel/regulations';
import { formatCents, parseCents } from './amount';
import { Problems } from './errors';
import { MARKET_PROFILES } from './markets';
import { nightsOf } from './nights';
import { rowWindows, staysOf } from './partition';
import { NO_MEALS, priceWindow, type MealCounts } from './pricing';
import { DAY, formatInstant, formatWallClock, hasOffset, instantOfWall, localDate, parseInstant } from './time';
import type { ApiPerDiemRow, NightRow, PerDiemRequest, PerDiemResult, PerDiemRow } from './types';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The longest trip the engine prices (a guard against a typo in a year, not a legal limit). */
export const MAX_TRIP_DAYS = 366;
/** The most meals of one kind a row can hold (a row is at most one day). */
export const MAX_MEALS_PER_ROW = 2;

const keyOf = (countryCode: string, t: number) => `${countryCode}|${t}`;
const EMPTY: ReadonlySet<string> = new Set();

interface Keyed<T> {
  value: T;
  index: number;
}

export function calculatePerDiems(request: PerDiemRequest): PerDiemResult {
  const problems = new Problems();
  if (request === null || typeof request !== 'object') {
    problems.add('body', 'must be a per-diem request object');
    problems.throwIfAny();
  }
  const market = request.market;
  if (!MARKETS.includes(market)) problems.add('market', `must be one of ${MARKETS.join(', ')}`);
  const residency = request.residency ?? 'Resident';
  if (residency !== 'Resident' && residency !== 'NonResident') {
    problems.add('residency', 'must be Resident or NonResident');
  }
  if (request.companyRates !== undefined && typeof request.companyRates !== 'function') {
    problems.add('companyRates', 'must be a function of the country code and the date');
  }
  const mobile = request.mobileRoadTransportWorker ?? false;
  if (typeof mobile !== 'boolean') problems.add('mobileRoadTransportWorker', 'must be true or false');
  const group = mobile === true ? 'MobileRoadTransport' : undefined;
  for (const field of ['meals', 'overrides', 'nights'] as const) {
    if (request[field] !== undefined && !Array.isArray(request[field])) problems.add(field, 'must be an array');
  }
  const stops = Array.isArray(request.stops) ? request.stops : [];
  if (stops.length < 2) problems.add('stops', 'at least two stops: the start and the end of the trip');
  const times: number[] = [];
  const countries: string[] = [];
  let latest = -Infinity;
  stops.forEach((stop, i) => {
    const t = typeof stop?.time === 'string' ? parseInstant(stop.time) : null;
    if (t === null) problems.add(`stops[${i}].time`, 'must be an ISO 8601 date-time (UTC)');
    else if (t < latest) problems.add(`stops[${i}].time`, 'must not be before an earlier stop');
    else latest = t;
    if (!isCountryCode(stop?.countryCode)) {
      problems.add(`stops[${i}].countryCode`, 'must be an ISO 3166-1 alpha-2 code in upper case');
    }
    times.push(t ?? NaN);
    countries.push(stop?.countryCode);
  });
  problems.throwIfAny();
  const tripMs = times[times.length - 1]! - times[0]!;
  if (tripMs <= 0) problems.add('stops', 'the last stop must be after the first');
  if (tripMs > MAX_TRIP_DAYS * DAY) problems.add('stops', `a trip of at most ${MAX_TRIP_DAYS} days`);
  problems.throwIfAny();

  const profile = MARKET_PROFILES[market as Market];
  const home = market;
  const stays = staysOf(times, countries);
  const windows = rowWindows(profile, home, stays);
  const anyKeyed = (request.meals?.length ?? 0) + (request.overrides?.length ?? 0) > 0;
  const keys = anyKeyed ? new Set(windows.map((w) => keyOf(w.countryCode, w.start))) : EMPTY;

  const meals = keyed(request.meals, 'meals', keys, profile.zone, problems);
  const overrides = keyed(request.overrides, 'overrides', keys, profile.zone, problems);
  meals.forEach(({ value, index }) => {
    for (const field of ['breakfastsProvided', 'lunchesProvided', 'dinnersProvided'] as const) {
      const n = value[field];
      if (n !== undefined && (!Number.isInteger(n) || n < 0 || n > MAX_MEALS_PER_ROW)) {
        problems.add(`meals[${index}].${field}`, `must be a whole number from 0 to ${MAX_MEALS_PER_ROW}`);
      }
    }
  });
  const overrideCents = new Map<string, number>();
  overrides.forEach(({ value, index }, key) => {
    // A decimal string, or a JSON number read through its shortest round-trip text (docs/decisions/0020).
    const raw: unknown = value.overrideAmount;
    const cents = typeof raw === 'string' ? parseCents(raw) : typeof raw === 'number' ? parseCents(String(raw)) : null;
    if (cents === null) {
      problems.add(
        `overrides[${index}].overrideAmount`,
        'must be a non-negative decimal string with at most two places',
      );
    } else overrideCents.set(key, cents);
    if (typeof value.overrideReason !== 'string' || value.overrideReason.trim() === '') {
      problems.add(`overrides[${index}].overrideReason`, 'must say why the statutory amount is overridden');
    }
  });
  const claimed = new Set<string>();
  (request.nights ?? []).forEach((night, i) => {
    if (market !== 'PL') problems.add(`nights[${i}]`, 'a night lump sum exists only for PL tenants');
    else if (typeof night?.date !== 'string' || !DATE.test(night.date)) {
      problems.add(`nights[${i}].date`, 'must be a yyyy-MM-dd date');
    } else if (night.lumpSum === true) claimed.add(night.date);
  });
  problems.throwIfAny();

  const payable: (number | null)[] = []; // each row's payable cents, for the totals
  const items = windows.map((w): PerDiemRow => {
    const key = anyKeyed ? keyOf(w.countryCode, w.start) : '';
    const m = meals.get(key)?.value;
    const counts: MealCounts = m
      ? { Breakfast: m.breakfastsProvided ?? 0, Lunch: m.lunchesProvided ?? 0, Dinner: m.dinnersProvided ?? 0 }
      : NO_MEALS;
    const date = localDate(profile.zone, w.start);
    const rates = request.companyRates;
    const company = rates ? () => rates(w.countryCode, date) : undefined;
    const priced = priceWindow(market, w, date, counts, group, company);
    const override = overrides.get(key)?.value;
    const oCents = overrideCents.get(key);
    const warnings = priced.status === 'known' ? [...priced.warnings] : [];
    let taxTreatment = profile.taxTreatment;
    // The company's own rate where no statutory or reported figure supports it: what it pays is known, how
    // much of it is tax-free is not (docs/decisions/0188). The pricing's warning says so.
    if (priced.status === 'known' && priced.rateBasis === 'CompanyRate') taxTreatment = 'Unknown';
    else if (market === 'SI' && residency === 'NonResident') {
      taxTreatment = 'Unknown';
      warnings.push(
        'The tax-free limits of ZDoh-2 Art. 17 apply to residents; no rule for non-residents is verified, so ' +
          'the tax treatment of this amount is unknown.',
      );
    }
    const amount = priced.status === 'known' ? formatCents(priced.amountCents) : null;
    payable.push(priced.status === 'known' ? (oCents ?? priced.amountCents) : null);
    const currencyCode = priced.status === 'known' ? priced.currencyCode : null;
    return {
      countryCode: w.countryCode,
      departureTime: formatInstant(w.start),
      arrivalTime: formatInstant(w.end),
      hours: Math.round(w.ms / 36_000) / 100,
      band: priced.status === 'known' ? priced.band : null,
      amount,
      currencyCode,
      amountInBaseCurrency: currencyCode === profile.baseCurrencyCode ? amount : null,
      exchangeRateSource: null,
      breakfastsProvided: counts.Breakfast,
      lunchesProvided: counts.Lunch,
      dinnersProvided: counts.Dinner,
      source: priced.status === 'known' ? priced.source : null,
      reported: priced.reported,
      rateBasis: priced.status === 'known' ? priced.rateBasis : null,
      market: market as Market,
      kind: w.kind,
      status: priced.status,
      reason: priced.status === 'unknown' ? priced.reason : null,
      date,
      grossAmount: priced.status === 'known' ? formatCents(priced.grossCents) : null,
      reductions: priced.status === 'known' ? priced.reductions : [],
      rule: priced.rule,
      taxTreatment,
      overrideAmount: oCents === undefined ? null : formatCents(oCents),
      overrideReason: override ? override.overrideReason : null,
      excessAmount:
        oCents === undefined || priced.status !== 'known'
          ? null
          : formatCents(Math.max(0, oCents - priced.amountCents)),
      payableAmount: oCents !== undefined ? formatCents(oCents) : amount,
      warnings,
    };
  });

  const nights: NightRow[] = market === 'PL' ? nightsOf(market, profile.zone, home, stays, claimed) : [];
  (request.nights ?? []).forEach((night, i) => {
    if (!nights.some((n) => n.date === night.date)) {
      problems.add(
        `nights[${i}].date`,
        'no night of the trip (six hours between 21:00 and 07:00 Warsaw time) starts on this date',
      );
    }
  });
  problems.throwIfAny();

  const totals = new Map<string, number>();
  let complete = true;
  items.forEach((row, i) => {
    const cents = payable[i];
    if (cents === null || cents === undefined || row.currencyCode === null) complete = false;
    else totals.set(row.currencyCode, (totals.get(row.currencyCode) ?? 0) + cents);
  });
  for (const night of nights) {
    if (night.status === 'unknown' || night.currencyCode === null) {
      if (night.claimed) complete = false;
      continue;
    }
    totals.set(night.currencyCode, (totals.get(night.currencyCode) ?? 0) + parseCents(night.amount!)!);
  }
  return {
    market: market as Market,
    baseCurrencyCode: profile.baseCurrencyCode,
    items,
    nights,
    totals: [...totals].map(([currencyCode, cents]) => ({ currencyCode, amount: formatCents(cents) })),
    complete,
  };
}

/**
 * Entries of `list` by their row key; a key naming no row, or named twice, is a field error. A
 * `departureTime` is the row's UTC instant; one without an offset that names no row is also tried as
 * the market's wall clock, which is how the calculator echoes times (SPEC: "times echoed as wall-clock
 * in this preview"), so meals keyed from a calculator answer reach their rows (docs/decisions/0053).
 */
function keyed<T extends { countryCode: string; departureTime: string }>(
  list: T[] | undefined,
  field: string,
  keys: ReadonlySet<string>,
  zone: string,
  problems: Problems,
): Map<string, Keyed<T>> {
  const byKey = new Map<string, Keyed<T>>();
  (list ?? []).forEach((value, index) => {
    const text = value?.departureTime;
    const t = typeof text === 'string' ? parseInstant(text) : null;
    if (t === null) {
      problems.add(`${field}[${index}].departureTime`, 'must be an ISO 8601 date-time (UTC)');
      return;
    }
    let key = keyOf(value.countryCode, t);
    if (!keys.has(key) && !hasOffset(text!)) key = keyOf(value.countryCode, instantOfWall(zone, t));
    if (!keys.has(key)) {
      problems.add(`${field}[${index}]`, 'no row has this countryCode and departureTime');
    } else if (byKey.has(key)) {
      problems.add(`${field}[${index}]`, 'a second entry for the same row');
    } else byKey.set(key, { value, index });
  });
  return byKey;
}

export interface ApiRowOptions {
  /**
   * `utc` (default): `departureTime` / `arrivalTime` as UTC instants (`from-itinerary`, entries).
   * `wallClock`: as the wall clock of the market's zone without an offset (`2026-03-02T07:00:00`), as the
   * calculator echoes them in this preview (SPEC); such a time still keys meals (see `keyed`).
   */
  times?: 'utc' | 'wallClock';
}

/** The row as the API returns it (API-SURFACE.md): exactly the wire fields. */
export function toApiRow(row: PerDiemRow, options: ApiRowOptions = {}): ApiPerDiemRow {
  const zone = MARKET_PROFILES[row.market].zone;
  const time = (iso: string) => (options.times === 'wallClock' ? formatWallClock(zone, parseInstant(iso)!) : iso);
  return {
    countryCode: row.countryCode,
    departureTime: time(row.departureTime),
    arrivalTime: time(row.arrivalTime),
    hours: row.hours,
    band: row.band,
    amount: row.amount,
    currencyCode: row.currencyCode,
    amountInBaseCurrency: row.amountInBaseCurrency,
    exchangeRateSource: row.exchangeRateSource,
    breakfastsProvided: row.breakfastsProvided,
    lunchesProvided: row.lunchesProvided,
    dinnersProvided: row.dinnersProvided,
    source: row.source,
    reported: row.reported,
    rateBasis: row.rateBasis,
  };
}
