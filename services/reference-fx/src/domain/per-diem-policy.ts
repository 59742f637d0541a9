// The company per-diem policy written by a caller with ManageCompanyData (issue 22 §2, docs/decisions/
// 0127-0129): per domestic band the amount the company pays, and in CZ a lower foreign base rate, in
// versions with an effective date. Every version is checked against the statutory figures of every
// decree in force while it applies: the floor where the law makes the figure a minimum (CZ, SK, PL), the
// public-sector maximum (CZ public sector), and 75-100 % of the decree's foreign rate (CZ, §170(2)).
// A version may also hold the company's own per-country rates (issue 34 §2, docs/decisions/0188): only for
// a country whose statutory rate is unknown on some day of the version, in the currency of a reported
// figure and, in the floor markets, at least that figure (CZ: 75 % of it); who set each and when is kept.
import type { FieldErrors, Market } from '@travel/platform';
import { itemsProblem } from '@travel/platform/src/limits';
import {
  Decimal,
  isCurrency,
  MAX_AMOUNT,
  outOfRange,
  nonNegativeAmount,
  parseWireDecimal,
  WireFormatError,
} from '@travel/money';
import {
  foreignRate,
  isCountryCode,
  isDate,
  TABLES,
  type Band,
  type DomesticPerDiem,
  type ForeignRate,
  type ReportedFigure,
} from '@travel/regulations';
import {
  STATUTORY_FLOOR_MARKETS,
  type CompanyForeignRate,
  type PerDiemPolicy,
  type PerDiemPolicyVersion,
  type PolicySector,
} from '@travel/contracts';

/** The contract's limits, held here too (docs/decisions/0107). */
export const MAX_POLICY_VERSIONS = 50;
export const MAX_POLICY_BANDS = 20;
export const MAX_POLICY_FOREIGN_RATES = 250;
/** §170(2) zákoník práce: a private employer's foreign base rate is at least 75 % of the decree rate. */
export const CZ_FOREIGN_MIN_PERCENT = '75';
export const CZ_FOREIGN_MAX_PERCENT = '100';

/** A PUT body (read-only fields already dropped by the contract validator). */
export interface PerDiemPolicyWrite {
  sector?: PolicySector;
  versions: {
    effectiveFrom: string;
    domesticBands?: { band: string; amount: number | string }[];
    foreignBaseRatePercent?: number | string | null;
    /** `confirmedBy` / `confirmedAt` are read-only: dropped by the contract validator, set here. */
    foreignRates?: { countryCode: string; amount: number | string; currencyCode: string }[];
  }[];
}

/** Who writes the policy and when, and the policy stored before: an unchanged rate keeps who confirmed it. */
export interface PolicyWriteContext {
  /** The caller's employee id (as the audit of the write names it: `editedByEmployeeId`). */
  confirmedBy: string;
  /** ISO 8601 UTC. */
  now: string;
  current: PerDiemPolicy;
}

/**
 * The engine prices each full day of a PL trip over 24 hours at the daily rate under the band id
 * `FullDay` (packages/per-diem pricing); a policy names it like any band.
 */
export const FULL_DAY_BAND = 'FullDay';

/** The bands a policy may name in a statutory table: the bands, the started-day bands, the full day. */
function bandsOf(table: DomesticPerDiem): Band[] {
  const fullDay: Band[] = table.dailyRate
    ? [{ id: FULL_DAY_BAND, from: { hours: 24, inclusive: true }, to: null, amount: table.dailyRate }]
    : [];
  return [...table.bands, ...(table.startedDayBands ?? []), ...fullDay];
}

/** Every band id the market's statutory tables know, in table order. */
export function policyBandIds(market: Market): string[] {
  return [...new Set(TABLES[market].domestic.flatMap((t) => bandsOf(t).map((b) => b.id)))];
}

/** The statutory tables in force at some day of [from, to] (`to` null: open-ended). */
function tablesDuring(market: Market, from: string, to: string | null): DomesticPerDiem[] {
  return TABLES[market].domestic.filter(
    (t) =>
      (t.effectiveTo === null || t.effectiveTo >= from) &&
      (to === null || t.effectiveFrom === null || t.effectiveFrom <= to),
  );
}

const dayBefore = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const dayAfter = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** What the tables say of `countryCode` over [from, to]: the statutory rates where known, the reported figures where not. */
interface ForeignSpan {
  /** The statutory rate is known on every day. */
  alwaysKnown: boolean;
  known: ForeignRate[];
  reported: ReportedFigure[];
}

/**
 * The market's general foreign rate for `countryCode` on each day of [from, to] (`to` null: open-ended),
 * read on the days it can change (each row's first day, the day after its last or its last verified day):
 * between them every answer is the same.
 */
function foreignSpan(market: Market, countryCode: string, from: string, to: string | null): ForeignSpan {
  const tables = TABLES[market];
  const rows = [
    ...tables.foreignRates.filter((r) => r.countryCode === countryCode && r.workerGroup === undefined),
    ...(tables.reportedRates ?? []).filter((r) => r.countryCode === countryCode),
  ];
  const days = new Set([from]);
  for (const r of rows)
    for (const d of [
      r.effectiveFrom,
      r.effectiveTo === null ? null : dayAfter(r.effectiveTo),
      r.verifiedThrough === undefined ? null : dayAfter(r.verifiedThrough),
    ])
      if (d !== null && d > from && (to === null || d <= to)) days.add(d);
  const span: ForeignSpan = { alwaysKnown: true, known: [], reported: [] };
  for (const day of days) {
    const found = foreignRate(market, countryCode, day);
    if (found.status === 'known') {
      if (!span.known.includes(found.row)) span.known.push(found.row);
    } else {
      span.alwaysKnown = false;
      for (const figure of found.reported ?? [])
        if (
          !span.reported.some(
            (r) => r.amount === figure.amount && r.currency === figure.currency && r.source === figure.source,
          )
        )
          span.reported.push(figure);
    }
  }
  return span;
}

/** §170(2) zákoník práce as a fraction: a CZ rate is at least 75 % of the figure it stands for. */
const CZ_FOREIGN_MIN_SHARE = new Decimal(CZ_FOREIGN_MIN_PERCENT).dividedBy(100);

/**
 * The version's per-country rates as stored, or field errors under `p` (`versions[i].`). A rate is for a
 * destination whose statutory rate is unknown on some day of [from, to]; where a figure is reported for it,
 * in that figure's currency and, in CZ, SK and PL, at least it (CZ: 75 % of it). An unchanged rate keeps
 * who confirmed it and when; a new or changed one is the caller's, now (docs/decisions/0188).
 */
function foreignRatesOf(
  market: Market,
  add: Add,
  p: string,
  input: NonNullable<PerDiemPolicyWrite['versions'][number]['foreignRates']>,
  span: { from: string; to: string | null } | null,
  context: PolicyWriteContext,
): CompanyForeignRate[] {
  const tooMany = itemsProblem(input, MAX_POLICY_FOREIGN_RATES);
  if (tooMany) {
    add(`${p}foreignRates`, tooMany);
    return [];
  }
  const before = span ? (context.current.versions.find((v) => v.effectiveFrom === span.from)?.foreignRates ?? []) : [];
  const seen = new Set<string>();
  return input.flatMap((rate, j): CompanyForeignRate[] => {
    const f = `${p}foreignRates[${j}].`;
    const country = rate?.countryCode;
    const currency = rate?.currencyCode;
    const amount = decimalOf(add, `${f}amount`, rate?.amount);
    let ok = amount !== null;
    let currencyOk = true;
    if (!isCountryCode(country)) {
      add(`${f}countryCode`, 'must be an ISO 3166-1 alpha-2 code the product knows, in upper case');
      return [];
    }
    if (country === market) {
      add(`${f}countryCode`, `${market} is the company's own country: its domestic per-diem is priced by band`);
      return [];
    }
    if (seen.has(country)) {
      add(`${f}countryCode`, `${country} is listed twice`);
      return [];
    }
    seen.add(country);
    if (typeof currency !== 'string' || !isCurrency(currency)) {
      add(`${f}currencyCode`, 'must be an ISO 4217 code the product knows');
      ok = currencyOk = false;
    }
    if (span !== null) {
      const tables = foreignSpan(market, country, span.from, span.to);
      if (tables.alwaysKnown) {
        const rates = tables.known.map((r) => `${r.amount} ${r.currency} (${r.source.act})`).join(', then ');
        add(
          `${f}countryCode`,
          `the statutory rate is known: ${rates} pays it on every day of this version; a company rate applies only where it is unknown`,
        );
        return [];
      }
      const inCurrency = tables.reported.filter((r) => r.currency === currency);
      if (tables.reported.length > 0 && inCurrency.length === 0 && currencyOk) {
        const currencies = [...new Set(tables.reported.map((r) => r.currency))].join(' or ');
        add(
          `${f}currencyCode`,
          `must be ${currencies}, the currency of the figure reported for ${country} (${tables.reported[0]!.source})`,
        );
        ok = false;
      }
      if (ok && STATUTORY_FLOOR_MARKETS.includes(market) && inCurrency.length > 0) {
        // The statutory figure is a floor; of two sources that disagree, the higher one may be the law.
        const top = inCurrency.reduce((a, b) => (new Decimal(b.amount).greaterThan(a.amount) ? b : a));
        const minimum = market === 'CZ' ? new Decimal(top.amount).times(CZ_FOREIGN_MIN_SHARE) : new Decimal(top.amount);
        if (amount!.lessThan(minimum)) {
          add(
            `${f}amount`,
            market === 'CZ'
              ? `below 75 % of the figure reported for ${country}: ${top.amount} ${top.currency} (${top.source}); a foreign rate agreed before the trip is at least ${minimum.toFixed(2)} ${top.currency} (§170(2) zákoník práce)`
              : `below the figure reported for ${country}: ${top.amount} ${top.currency} (${top.source}); in ${market} the statutory per-diem is a floor, so a company rate is at least it`,
          );
          ok = false;
        }
      }
    }
    if (!ok) return [];
    const text = amount!.toFixed(2);
    const same = before.find((b) => b.countryCode === country && b.amount === text && b.currencyCode === currency);
    return [
      {
        countryCode: country,
        amount: text,
        currencyCode: currency,
        confirmedBy: same ? same.confirmedBy : context.confirmedBy,
        confirmedAt: same ? same.confirmedAt : context.now,
      },
    ];
  });
}
const since = (t: DomesticPerDiem) => (t.effectiveFrom ? ` in force from ${t.effectiveFrom}` : '');

type Add = (field: string, message: string) => void;

/** Reads a decimal the contract typed as a number (at most two places, 0 to MAX_AMOUNT); a problem goes under `field`. */
function decimalOf(add: Add, field: string, raw: unknown): Decimal | null {
  try {
    const value = parseWireDecimal(raw, { maxDecimals: 2 });
    const range = outOfRange(value, nonNegativeAmount(MAX_AMOUNT));
    if (range) add(field, range);
    return range ? null : value;
  } catch (err) {
    if (!(err instanceof WireFormatError)) throw err;
    add(field, err.message);
    return null;
  }
}

/**
 * The policy as stored (versions sorted by date, amounts as decimal text with two places), or the field
 * errors (`versions[i].domesticBands[j].amount`, …) that refuse it. `market`: the company's.
 */
export function normalizePolicy(
  market: Market,
  body: PerDiemPolicyWrite,
  context: PolicyWriteContext,
): { policy: PerDiemPolicy; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add: Add = (field, message) => void (errors[field] ??= []).push(message);
  const sector: PolicySector = body.sector ?? 'Private';
  if (sector !== 'Private' && sector !== 'Public') add('sector', 'must be Private or Public');
  else if (sector === 'Public' && market !== 'CZ')
    add('sector', `the research holds public-sector ranges only for CZ; a ${market} policy is Private`);
  const tooMany = itemsProblem(body.versions, MAX_POLICY_VERSIONS);
  if (tooMany) {
    add('versions', tooMany);
    return { policy: { sector, versions: [] }, errors };
  }
  const floor = STATUTORY_FLOOR_MARKETS.includes(market);
  const known = policyBandIds(market);
  const dates = body.versions.map((v) => v.effectiveFrom);
  const sortedDates = [...new Set(dates.filter(isDate))].sort();

  const versions = body.versions.map((input, i): PerDiemPolicyVersion => {
    const p = `versions[${i}].`;
    const from = input.effectiveFrom;
    if (!isDate(from)) add(`${p}effectiveFrom`, 'must be a calendar date (yyyy-MM-dd)');
    else if (dates.indexOf(from) !== i) add(`${p}effectiveFrom`, `another version starts on ${from} too`);
    // The version applies until the day before the next one; every statutory table of that time binds it.
    const next = sortedDates.find((d) => d > from) ?? null;
    const tables = isDate(from) ? tablesDuring(market, from, next === null ? null : dayBefore(next)) : [];

    const bandsInput = input.domesticBands ?? [];
    const bandsProblem = itemsProblem(bandsInput, MAX_POLICY_BANDS);
    if (bandsProblem) add(`${p}domesticBands`, bandsProblem);
    const seen = new Set<string>();
    const domesticBands = (bandsProblem ? [] : bandsInput).flatMap((b, j) => {
      const f = `${p}domesticBands[${j}]`;
      if (!known.includes(b.band)) {
        add(`${f}.band`, `must be a domestic band of ${market}: ${known.join(', ')}`);
        return [];
      }
      if (seen.has(b.band)) add(`${f}.band`, `${b.band} is listed twice`);
      seen.add(b.band);
      const amount = decimalOf(add, `${f}.amount`, b.amount);
      if (amount === null) return [];
      for (const table of tables) {
        const statutory = bandsOf(table).find((s) => s.id === b.band);
        if (!statutory?.amount) continue;
        const what = `the statutory ${b.band} amount of ${statutory.amount} ${table.currency}${since(table)} (${table.source.act})`;
        if (floor && amount.lessThan(statutory.amount))
          add(
            `${f}.amount`,
            `below the statutory minimum: ${what}; in ${market} the statutory per-diem is a floor (start a new version on that date with at least that amount)`,
          );
        if (sector === 'Public' && statutory.publicSectorMaximum && amount.greaterThan(statutory.publicSectorMaximum))
          add(
            `${f}.amount`,
            `above the public-sector maximum: ${statutory.publicSectorMaximum} ${table.currency} for ${b.band}${since(table)} (${table.source.act})`,
          );
      }
      return [{ band: b.band, amount: amount.toFixed(2) }];
    });

    let foreignBaseRatePercent: string | null = null;
    const raw = input.foreignBaseRatePercent;
    if (raw !== undefined && raw !== null) {
      const f = `${p}foreignBaseRatePercent`;
      if (market !== 'CZ')
        add(f, `a foreign base rate below the decree's exists only in CZ (§170(2) zákoník práce), not in ${market}`);
      else {
        const percent = decimalOf(add, f, raw);
        if (percent !== null && sector === 'Public' && !percent.equals(100))
          add(f, 'the public sector pays the decree rate abroad: 100 or null');
        else if (percent !== null && percent.lessThan(CZ_FOREIGN_MIN_PERCENT))
          add(
            f,
            `below the statutory minimum: a foreign base rate agreed before the trip is at least ${CZ_FOREIGN_MIN_PERCENT} % of the decree rate (§170(2) zákoník práce)`,
          );
        else if (percent !== null && percent.greaterThan(CZ_FOREIGN_MAX_PERCENT))
          add(
            f,
            `must be at most ${CZ_FOREIGN_MAX_PERCENT}: the policy lowers the decree's foreign rate, it does not raise it`,
          );
        foreignBaseRatePercent = percent?.toFixed(2) ?? null;
      }
    }
    const foreignRates = foreignRatesOf(
      market,
      add,
      p,
      input.foreignRates ?? [],
      isDate(from) ? { from, to: next === null ? null : dayBefore(next) } : null,
      context,
    );
    return { effectiveFrom: from, domesticBands, foreignBaseRatePercent, foreignRates };
  });
  versions.sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? -1 : a.effectiveFrom > b.effectiveFrom ? 1 : 0));
  return { policy: { sector, versions }, errors };
}

/** Whether two stored policies say the same (a PUT that changes nothing is a no-op: no event). */
export const samePolicy = (a: PerDiemPolicy, b: PerDiemPolicy): boolean =>
  JSON.stringify({ s: a.sector, v: a.versions }) === JSON.stringify({ s: b.sector, v: b.versions });
