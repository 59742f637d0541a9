// The tables in force for a market on a date, flattened into rows a partner can read: each row one
// figure with its unit, currency, legal source and validity. What is not known is listed under
// `unknown` with the reason, never filled in (docs/decisions/0025).
import {
  assertDate,
  countriesWithForeignRates,
  domesticPerDiem,
  foreignRate,
  foreignRules,
  fuelPrices,
  TABLES,
  GROUP_NAMES,
  mileageRates,
  nightRules,
  type Lookup,
} from './lookup';
import {
  WORKER_GROUPS,
  type Band,
  type LegalSource,
  type ReportedFigure,
  type Market,
  type MealReductionRule,
  type Validity,
} from './types';

export type RateKind =
  'DomesticPerDiem' | 'ForeignPerDiem' | 'MealReduction' | 'NightAllowance' | 'Mileage' | 'FuelPrice';
/** `Share`: a band's share of the country rate, as an exact fraction `n/d` (the only non-decimal value). */
export type RateUnit = 'PerDay' | 'PerNight' | 'PerKm' | 'PerLitre' | 'PerKWh' | 'Percent' | 'Share';

export interface RateRow {
  kind: RateKind;
  /** The destination the row is for (the market's own country for domestic rows); null for market-wide rows. */
  countryCode: string | null;
  /** What the figure is: a band id (`5-12h`), `FullDay`, a meal, a vehicle, a fuel, `LumpSum`, … */
  item: string;
  description: string;
  /** Decimal string; for `Share` an exact fraction `n/d`. */
  value: string;
  unit: RateUnit;
  /** null for `Percent` and `Share`. */
  currencyCode: string | null;
  /** The top of a statutory range where the figure is a minimum (CZ public sector); else null. */
  maximum: string | null;
  effectiveFrom: string | null;
  effectiveTo: string | null;
  verifiedThrough: string | null;
  source: LegalSource;
}

export interface UnknownRate {
  kind: RateKind;
  countryCode: string | null;
  reason: string;
  /** Figures the research only reports (one secondary source, or a conflict): named, never priced (0187). */
  reported?: ReportedRateFigure[];
}

/** A reported figure as the API names it on an unknown rate (the row's field names). */
export interface ReportedRateFigure {
  amount: string;
  currencyCode: string;
  hotelLimit: string | null;
  source: string;
  note: string | null;
}

const reportedFigure = (f: ReportedFigure): ReportedRateFigure => ({
  amount: f.amount,
  currencyCode: f.currency,
  hotelLimit: f.hotelLimit ?? null,
  source: f.source,
  note: f.note ?? null,
});

export interface RatesInForce {
  market: Market;
  date: string;
  countryCode: string | null;
  rows: RateRow[];
  unknown: UnknownRate[];
}

/** The country of each market (a trip there is domestic). */
export const MARKET_COUNTRY: Readonly<Record<Market, string>> = { HR: 'HR', SI: 'SI', SK: 'SK', CZ: 'CZ', PL: 'PL' };

const validityOf = (v: Validity) => ({
  effectiveFrom: v.effectiveFrom,
  effectiveTo: v.effectiveTo,
  verifiedThrough: v.verifiedThrough ?? null,
});

function describeBand(b: Band): string {
  const from = b.from.hours === 0 && !b.from.inclusive ? '' : `${b.from.inclusive ? 'from' : 'over'} ${b.from.hours} h`;
  const to = b.to ? `${b.to.inclusive ? 'up to and including' : 'under'} ${b.to.hours} h` : '';
  return [from, to].filter(Boolean).join(' ') || 'any duration';
}

function mealRows(
  rule: MealReductionRule,
  kind: RateKind,
  countryCode: string,
  base: Pick<RateRow, 'effectiveFrom' | 'effectiveTo' | 'verifiedThrough' | 'source'>,
): RateRow[] {
  const row = (item: string, value: string): RateRow => ({
    kind: 'MealReduction',
    countryCode,
    item,
    description: `${kind === 'DomesticPerDiem' ? 'Domestic' : 'Foreign'}: ${rule.text}`,
    value,
    unit: 'Percent',
    currencyCode: null,
    maximum: null,
    ...base,
  });
  const rows: RateRow[] = [];
  if (rule.perMeal) for (const [meal, pct] of Object.entries(rule.perMeal)) rows.push(row(meal, pct!));
  if (rule.byBand) {
    for (const [band, meals] of Object.entries(rule.byBand)) {
      for (const [meal, pct] of Object.entries(meals ?? {})) rows.push(row(`${band}/${meal}`, pct!));
    }
  }
  if (rule.byCount) rule.byCount.forEach((pct, i) => rows.push(row(`${i + 1}x${rule.countedMeals!.join('|')}`, pct)));
  if (rule.minimumPaidPercent) rows.push(row('MinimumPaid', rule.minimumPaidPercent));
  return rows;
}

function unknownOf<T>(l: Lookup<T>, kind: RateKind, countryCode: string | null, unknown: UnknownRate[]): T | undefined {
  if (l.status === 'known') return l.row;
  unknown.push({
    kind,
    countryCode,
    reason: l.reason,
    ...(l.reported ? { reported: l.reported.map(reportedFigure) } : {}),
  });
  return undefined;
}

/** Why a domestic band has no amount (SI 6–8 h from 2023: two sources disagree), from the market's unknowns. */
function bandUnknown(market: Market, b: Band, date: string): string {
  const why = TABLES[market].unknowns.find((u) => u.topic === 'domestic')?.reason;
  return `${market} domestic per-diem band ${b.id} on ${date}: no verified amount.${why ? ` ${why}` : ''}`;
}

function domesticRows(market: Market, date: string, rows: RateRow[], unknown: UnknownRate[]): void {
  const country = MARKET_COUNTRY[market];
  const d = unknownOf(domesticPerDiem(market, date), 'DomesticPerDiem', country, unknown);
  if (d) {
    const base = { ...validityOf(d), source: d.source };
    for (const b of d.bands) {
      if (b.amount === null) {
        unknown.push({ kind: 'DomesticPerDiem', countryCode: country, reason: bandUnknown(market, b, date) });
        continue;
      }
      rows.push({
        kind: 'DomesticPerDiem',
        countryCode: country,
        item: b.id,
        description: `Domestic per-diem for a trip ${describeBand(b)}${d.multiDayRule ? `. ${d.multiDayRule}` : ''}`,
        value: b.amount,
        unit: 'PerDay',
        currencyCode: d.currency,
        maximum: b.publicSectorMaximum ?? null,
        ...base,
      });
    }
    if (d.mealReduction) rows.push(...mealRows(d.mealReduction, 'DomesticPerDiem', country, base));
  }
  const n = nightRules(market, date);
  if (n.status === 'known') {
    const r = n.row;
    const base = { countryCode: country, maximum: null, ...validityOf(r), source: r.source };
    const w = `${r.window.from}–${r.window.to}`;
    rows.push(
      {
        ...base,
        kind: 'NightAllowance',
        item: 'LumpSum',
        description: `Night lump sum (${r.lumpSumPercentOfDailyRate} % of the dieta) for a night of at least ${r.window.minimumHours} h within ${w}`,
        value: r.lumpSum,
        unit: 'PerNight',
        currencyCode: r.currency,
      },
      {
        ...base,
        kind: 'NightAllowance',
        item: 'HotelLimit',
        description: 'Hotel limit per night',
        value: r.hotelLimit,
        unit: 'PerNight',
        currencyCode: r.currency,
      },
      {
        ...base,
        kind: 'NightAllowance',
        item: 'LocalTransport',
        description: 'Local transport lump sum per started day',
        value: r.localTransportPerDay,
        unit: 'PerDay',
        currencyCode: r.currency,
      },
    );
    if (r.foreignLumpSumPercentOfHotelLimit) {
      rows.push({
        ...base,
        countryCode: null,
        kind: 'NightAllowance',
        item: 'ForeignLumpSum',
        description: "Foreign night lump sum as a share of the country's hotel limit",
        value: r.foreignLumpSumPercentOfHotelLimit,
        unit: 'Percent',
        currencyCode: null,
      });
    }
  }
}

function foreignRuleRows(market: Market, date: string, rows: RateRow[], unknown: UnknownRate[]): void {
  const r = unknownOf(foreignRules(market, date), 'ForeignPerDiem', null, unknown);
  if (!r) return;
  const base = { countryCode: null, maximum: null, ...validityOf(r), source: r.source };
  if (r.bands) {
    for (const b of r.bands) {
      rows.push({
        ...base,
        kind: 'ForeignPerDiem',
        item: b.id,
        description: `Share of the country rate for a day abroad ${describeBand(b)}`,
        value: b.fraction!,
        unit: 'Share',
        currencyCode: null,
      });
    }
  } else {
    unknown.push({
      kind: 'ForeignPerDiem',
      countryCode: null,
      reason: `${market}: the hour thresholds of the foreign per-diem shares are not verified.`,
    });
  }
  if (r.mealReduction) {
    for (const m of mealRows(r.mealReduction, 'ForeignPerDiem', '', base)) rows.push({ ...m, countryCode: null });
  }
}

function countryRateRows(market: Market, country: string, date: string, rows: RateRow[], unknown: UnknownRate[]): void {
  const l = foreignRate(market, country, date);
  const r = unknownOf(l, 'ForeignPerDiem', country, unknown);
  if (!r) return;
  const base = { countryCode: country, maximum: null, ...validityOf(r), source: r.source, currencyCode: r.currency };
  rows.push({
    ...base,
    kind: 'ForeignPerDiem',
    item: 'FullDay',
    description: `Foreign per-diem for a full day in ${country}`,
    value: r.amount,
    unit: 'PerDay',
  });
  if (r.hotelLimit) {
    const others = (l.status === 'known' ? (l.reported ?? []) : []).filter((x) => x.hotelLimit !== undefined);
    const named = others.map((x) => `${x.note ?? x.source}: ${x.hotelLimit} ${x.currency}`).join('; ');
    rows.push({
      ...base,
      kind: 'NightAllowance',
      item: 'HotelLimit',
      description: `Hotel limit per night in ${country}${named ? ` (reported only, not priced: ${named})` : ''}`,
      value: r.hotelLimit,
      unit: 'PerNight',
    });
  }
  groupRateRows(market, country, date, rows, unknown);
}

/** A worker group's own rate for the country (item `FullDay/<group>`), when the group has rates in force. */
function groupRateRows(market: Market, country: string, date: string, rows: RateRow[], unknown: UnknownRate[]): void {
  for (const group of WORKER_GROUPS) {
    if (countriesWithForeignRates(market, date, group).length === 0) continue;
    const r = unknownOf(foreignRate(market, country, date, group), 'ForeignPerDiem', country, unknown);
    if (!r) continue;
    rows.push({
      countryCode: country,
      maximum: null,
      ...validityOf(r),
      source: r.source,
      currencyCode: r.currency,
      kind: 'ForeignPerDiem',
      item: `FullDay/${group}`,
      description: `Foreign per-diem for a full day in ${country}, for ${GROUP_NAMES[group]} only`,
      value: r.amount,
      unit: 'PerDay',
    });
  }
}

function vehicleRows(market: Market, date: string, rows: RateRow[], unknown: UnknownRate[]): void {
  const m = unknownOf(mileageRates(market, date), 'Mileage', null, unknown);
  if (m) {
    const base = { countryCode: null, maximum: null, ...validityOf(m), source: m.source };
    for (const [vehicle, rate] of Object.entries(m.perKm)) {
      rows.push({
        ...base,
        kind: 'Mileage',
        item: vehicle,
        description: `Mileage rate per km (${vehicle})`,
        value: rate!,
        unit: 'PerKm',
        currencyCode: m.currency,
      });
    }
    if (m.trailerSurchargePercent) {
      rows.push({
        ...base,
        kind: 'Mileage',
        item: 'TrailerSurcharge',
        description: 'Surcharge on the rate per km with a trailer',
        value: m.trailerSurchargePercent,
        unit: 'Percent',
        currencyCode: null,
      });
    }
  }
  const f = unknownOf(fuelPrices(market, date), 'FuelPrice', null, unknown);
  if (f) {
    const base = { countryCode: null, maximum: null, ...validityOf(f), source: f.source, currencyCode: f.currency };
    for (const [fuel, price] of Object.entries(f.prices)) {
      rows.push({
        ...base,
        kind: 'FuelPrice',
        item: fuel,
        description: `Regulation average price of ${fuel} ${fuel === 'Electricity' ? 'per kWh' : 'per litre'}`,
        value: price!,
        unit: fuel === 'Electricity' ? 'PerKWh' : 'PerLitre',
      });
    }
  }
}

/**
 * The rates of `market` in force on `date`. With `countryCode`: the per-diem rows for trips to that
 * country (domestic rows when it is the market's own); without: domestic rows and every verified
 * foreign rate. Mileage and fuel prices are market-wide and always included.
 */
export function ratesInForce(market: Market, date: string, countryCode?: string | null): RatesInForce {
  assertDate(date);
  const rows: RateRow[] = [];
  const unknown: UnknownRate[] = [];
  const own = MARKET_COUNTRY[market];
  if (!countryCode || countryCode === own) domesticRows(market, date, rows, unknown);
  if (countryCode !== own) {
    foreignRuleRows(market, date, rows, unknown);
    if (countryCode) {
      countryRateRows(market, countryCode, date, rows, unknown);
    } else {
      for (const c of countriesWithForeignRates(market, date)) countryRateRows(market, c, date, rows, unknown);
      unknown.push({
        kind: 'ForeignPerDiem',
        countryCode: null,
        reason:
          `${market}: only the countries listed in the rows have a verified foreign rate on ${date}; ` +
          'ask with country= for any other to see why it is unknown.',
      });
    }
  }
  vehicleRows(market, date, rows, unknown);
  return { market, date, countryCode: countryCode ?? null, rows, unknown };
}
