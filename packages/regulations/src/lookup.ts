// What is in force for a market on a date. Every answer is either `known` with the row (and its legal
// source and validity) or `unknown` with the reason: a rate the research has not verified is never
// guessed (docs/decisions/0025).
import { CZ } from './tables/cz';
import { HR } from './tables/hr';
import { PL } from './tables/pl';
import { SI } from './tables/si';
import { SK } from './tables/sk';
import type {
  DomesticPerDiem,
  ForeignRate,
  ForeignRules,
  FuelPrices,
  Market,
  MarketTables,
  MileageRates,
  NightRules,
  ReportedFigure,
  ReportedRate,
  Validity,
  WorkerGroup,
} from './types';

/**
 * `reported`: on an unknown foreign rate, the figures the research only reports (docs/decisions/0187); on a
 * known one, reported figures beside it that are not priced (PL: the New York and Washington hotel limits).
 */
export type Lookup<T> =
  | { status: 'known'; row: T; reported?: ReportedFigure[] }
  | { status: 'unknown'; reason: string; reported?: ReportedFigure[] };

/** Every market's tables. A new decree is a new version appended here (data), with a test. */
export const TABLES: Readonly<Record<Market, MarketTables>> = { HR, SI, SK, CZ, PL };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day in `yyyy-MM-dd` (2026-02-30 is not). */
export function isDate(date: string): boolean {
  if (!DATE.test(date)) return false;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}

export function assertDate(date: string): void {
  if (!isDate(date)) throw new RangeError(`not a yyyy-MM-dd date: ${date}`);
}

/** Whether `v` applies on `date`: within its effective dates, and not after the last verified day. */
export function appliesOn(v: Validity, date: string): boolean {
  return (
    (v.effectiveFrom === null || v.effectiveFrom <= date) &&
    (v.effectiveTo === null || date <= v.effectiveTo) &&
    (v.verifiedThrough === undefined || date <= v.verifiedThrough)
  );
}

function reasonFor(tables: MarketTables, topic: MarketTables['unknowns'][number]['topic']): string | undefined {
  return tables.unknowns.find((u) => u.topic === topic)?.reason;
}

function pick<T extends Validity>(
  rows: T[],
  date: string,
  tables: MarketTables,
  topic: MarketTables['unknowns'][number]['topic'],
  what: string,
): Lookup<T> {
  assertDate(date);
  const matches = rows.filter((r) => appliesOn(r, date));
  if (matches.length > 1) throw new Error(`${tables.market} ${what}: ${matches.length} versions overlap on ${date}`);
  if (matches.length === 1) return { status: 'known', row: matches[0]! };
  const past = rows.find((r) => r.verifiedThrough !== undefined && r.verifiedThrough < date);
  const reason = past
    ? `${tables.market} ${what} on ${date}: verified only through ${past.verifiedThrough}.`
    : `${tables.market} ${what} on ${date}: no verified figure in force.`;
  const known = reasonFor(tables, topic);
  return { status: 'unknown', reason: known ? `${reason} ${known}` : reason };
}

export const domesticPerDiem = (market: Market, date: string): Lookup<DomesticPerDiem> =>
  pick(TABLES[market].domestic, date, TABLES[market], 'domestic', 'domestic per-diem');

export const foreignRules = (market: Market, date: string): Lookup<ForeignRules> =>
  pick(TABLES[market].foreignRules, date, TABLES[market], 'foreign', 'foreign per-diem rules');

/**
 * The rate for trips from `market` to `countryCode` on `date`; for the market's own country use
 * domesticPerDiem. With `group`: the group's own rate once the group has rates in force (SK mobile
 * road-transport workers from 2026-01-30), unknown for a country whose group rate is not verified (never
 * the general rate, which is lower); before that, the general rate.
 */
export function foreignRate(
  market: Market,
  countryCode: string,
  date: string,
  group?: WorkerGroup,
): Lookup<ForeignRate> {
  const tables = TABLES[market];
  const index = indexOf(market);
  if (group !== undefined) {
    assertDate(date);
    const groupRates = index.groups.get(group) ?? [];
    if (groupRates.some((r) => appliesOn(r, date))) {
      const found = pick(
        index.rates.get(`${group}|${countryCode}`) ?? [],
        date,
        tables,
        'foreign',
        `foreign per-diem rate of ${GROUP_NAMES[group]} for ${countryCode}`,
      );
      if (found.status === 'known') return found;
      const listed = [...new Set(groupRates.filter((r) => appliesOn(r, date)).map((r) => r.countryCode))].sort();
      return {
        status: 'unknown',
        reason:
          `${market} foreign per-diem rate of ${GROUP_NAMES[group]} for ${countryCode} on ${date}: their own ` +
          `rates apply and are verified for ${listed.join(', ')} only.`,
      };
    }
  }
  const found = pick(
    index.rates.get(`|${countryCode}`) ?? [],
    date,
    tables,
    'foreign',
    `foreign per-diem rate for ${countryCode}`,
  );
  if (group !== undefined || !index.reported.has(countryCode)) return found;
  const reported = reportedOn(index, countryCode, date);
  return reported.length ? { ...found, reported } : found;
}

/**
 * The foreign rates and reported figures of a market by `group|country` (`|country` for the general rate),
 * built once: with every country of an annex (about 250 rows a year per market) a lookup must not scan them.
 */
interface ForeignIndex {
  rates: Map<string, ForeignRate[]>;
  groups: Map<WorkerGroup, ForeignRate[]>;
  reported: Map<string, ReportedRate[]>;
}
const INDEXES = new Map<Market, ForeignIndex>();

function indexOf(market: Market): ForeignIndex {
  let index = INDEXES.get(market);
  if (index) return index;
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  index = { rates: new Map(), groups: new Map(), reported: new Map() };
  for (const r of TABLES[market].foreignRates) {
    push(index.rates, `${r.workerGroup ?? ''}|${r.countryCode}`, r);
    if (r.workerGroup !== undefined) push(index.groups, r.workerGroup, r);
  }
  for (const r of TABLES[market].reportedRates ?? []) push(index.reported, r.countryCode, r);
  INDEXES.set(market, index);
  return index;
}

/** The figures the research only reports for trips from `market` to `countryCode` on `date`. */
export function reportedRates(market: Market, countryCode: string, date: string): ReportedFigure[] {
  assertDate(date);
  return reportedOn(indexOf(market), countryCode, date);
}

function reportedOn(index: ForeignIndex, countryCode: string, date: string): ReportedFigure[] {
  return (index.reported.get(countryCode) ?? [])
    .filter((r) => appliesOn(r, date))
    .map((r) => ({
      amount: r.amount,
      currency: r.currency,
      ...(r.hotelLimit !== undefined ? { hotelLimit: r.hotelLimit } : {}),
      source: `${r.act}, read in ${r.reportedBy}`,
      ...(r.note !== undefined ? { note: r.note } : {}),
    }));
}

/** The group's name in reasons and descriptions. */
export const GROUP_NAMES: Readonly<Record<WorkerGroup, string>> = {
  MobileRoadTransport: 'mobile road-transport workers',
};

export const mileageRates = (market: Market, date: string): Lookup<MileageRates> =>
  pick(TABLES[market].mileage, date, TABLES[market], 'mileage', 'mileage rates');

export const fuelPrices = (market: Market, date: string): Lookup<FuelPrices> =>
  pick(TABLES[market].fuel, date, TABLES[market], 'fuel', 'regulation fuel prices');

export const nightRules = (market: Market, date: string): Lookup<NightRules> =>
  pick(TABLES[market].night, date, TABLES[market], 'night', 'night allowance');

/** The destination countries with a verified rate for `market` on `date` (for `group`: its own rates). */
export function countriesWithForeignRates(market: Market, date: string, group?: WorkerGroup): string[] {
  assertDate(date);
  const rates =
    group === undefined
      ? TABLES[market].foreignRates.filter((r) => r.workerGroup === undefined && appliesOn(r, date))
      : (indexOf(market).groups.get(group) ?? []).filter((r) => appliesOn(r, date));
  return [...new Set(rates.map((r) => r.countryCode))].sort();
}
