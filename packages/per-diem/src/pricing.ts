// One row window priced by the market's tables on the row's account date: the band, the gross amount,
// the meal reductions and the legal source. A figure the tables do not know makes the row `unknown`
// with the reason; nothing is guessed (docs/decisions/0025, 0052).
import {
  type Band,
  type LegalSource,
  type Market,
  type Meal,
  type MealReductionRule,
  type ReportedFigure,
  type WorkerGroup,
  TABLES,
} from '@travel/regulations';
import { basisPoints, formatCents, formatPercent, fractionOf, parseFraction, percentOf, tableCents } from './amount';
import type { RowWindow } from './partition';
import { domesticPerDiem, foreignRate, foreignRules } from './tables';
import { HOUR } from './time';
import type { CompanyRate, MealReductionApplied, RateBasis, ReportedRateOfRow } from './types';

export interface MealCounts {
  Breakfast: number;
  Lunch: number;
  Dinner: number;
}

export const NO_MEALS: Readonly<MealCounts> = { Breakfast: 0, Lunch: 0, Dinner: 0 };
const MEALS: readonly Meal[] = ['Breakfast', 'Lunch', 'Dinner'];

export type Priced =
  | {
      status: 'known';
      band: string | null;
      grossCents: number;
      amountCents: number;
      currencyCode: string;
      reductions: MealReductionApplied[];
      rule: string;
      source: LegalSource;
      warnings: string[];
      rateBasis: RateBasis;
      reported: ReportedRateOfRow[];
    }
  | { status: 'unknown'; reason: string; rule: string; reported: ReportedRateOfRow[] };

const NONE: readonly ReportedRateOfRow[] = Object.freeze([]);
const none = (): ReportedRateOfRow[] => NONE as ReportedRateOfRow[];
const unknown = (reason: string, rule: string, reported: ReportedRateOfRow[] = none()): Priced => ({
  status: 'unknown',
  reason,
  rule,
  reported,
});

const reportedMemo = new WeakMap<ReportedFigure[], ReportedRateOfRow[]>();

/** The lookup's reported figures as a row names them (`currencyCode`, as every amount of the API). */
function reportedOfRow(figures: ReportedFigure[] | undefined): ReportedRateOfRow[] {
  if (!figures || figures.length === 0) return none();
  let rows = reportedMemo.get(figures);
  if (!rows) {
    rows = figures.map((f) => ({
      amount: f.amount,
      currencyCode: f.currency,
      ...(f.hotelLimit !== undefined ? { hotelLimit: f.hotelLimit } : {}),
      source: f.source,
      ...(f.note !== undefined ? { note: f.note } : {}),
    }));
    reportedMemo.set(figures, rows);
  }
  return rows;
}

const FULL_DAY: Band = { id: 'FullDay', from: { hours: 24, inclusive: true }, to: null, amount: null, fraction: '1/1' };

export function bandFor(bands: Band[], ms: number): Band | null {
  for (const band of bands) {
    const from = band.from.hours * HOUR;
    const to = band.to === null ? Infinity : band.to.hours * HOUR;
    const aboveFrom = ms > from || (band.from.inclusive && ms === from);
    const belowTo = ms < to || (band.to !== null && band.to.inclusive && ms === to);
    if (aboveFrom && belowTo) return band;
  }
  return null;
}

const describe = (band: Band | null, what: string) =>
  band === null ? `${what}: below the first band, nothing is paid` : `${what}: band ${band.id}`;

/**
 * `group`: the worker group whose own foreign rates apply (SK mobile road-transport workers), if any.
 * `company`: the company's rate for the row's country on `date`, asked only of a foreign row whose
 * statutory rate is unknown (docs/decisions/0188).
 */
export function priceWindow(
  market: Market,
  w: RowWindow,
  date: string,
  meals: MealCounts,
  group?: WorkerGroup,
  company?: () => CompanyRate | null | undefined,
): Priced {
  return w.kind === 'Domestic'
    ? priceDomestic(market, w, date, meals)
    : priceForeign(market, w, date, meals, group, company);
}

function priceDomestic(market: Market, w: RowWindow, date: string, meals: MealCounts): Priced {
  const lookup = domesticPerDiem(market, date);
  if (lookup.status === 'unknown') return unknown(lookup.reason, 'domestic per-diem');
  const table = lookup.row;
  let band: Band | null;
  let rule: string;
  if (w.mode === 'fullDay') {
    band = { ...FULL_DAY, amount: table.dailyRate ?? null };
    rule = `Full day of a trip over 24 hours at 100 % of the daily rate. ${table.multiDayRule ?? ''}`.trim();
  } else if (w.mode === 'startedDay') {
    band = bandFor(table.startedDayBands ?? [], w.ms);
    rule = `${describe(band, 'Started day of a trip over 24 hours')}. ${table.multiDayRule ?? ''}`.trim();
  } else {
    band = bandFor(table.bands, w.ms);
    rule = describe(band, 'Domestic per-diem') + (table.multiDayRule ? `. ${table.multiDayRule}` : '');
  }
  if (band !== null && band.amount === null) {
    // Why (SI 6–8 h from 2023: two sources disagree), from the market's list of what the research lacks.
    const why = TABLES[market].unknowns.find((u) => u.topic === 'domestic')?.reason;
    return unknown(`${market} domestic band ${band.id} has no amount on ${date}.${why ? ` ${why}` : ''}`, rule);
  }
  const grossCents = band === null ? 0 : tableCents(band.amount!);
  const topBand = table.bands.reduce((a, b) => (tableCents(b.amount ?? '0') > tableCents(a.amount ?? '0') ? b : a));
  const bases = {
    bandAmount: grossCents,
    fullDayAmount: tableCents(topBand.amount ?? '0'),
    dailyRate: table.dailyRate === undefined ? null : tableCents(table.dailyRate),
  };
  const reduced = applyMeals(table.mealReduction, band, grossCents, bases, meals);
  return {
    status: 'known',
    band: band?.id ?? null,
    grossCents,
    amountCents: reduced.amountCents,
    currencyCode: table.currency,
    reductions: reduced.reductions,
    rule: table.mealReduction && reduced.reductions.length > 0 ? `${rule}. ${table.mealReduction.text}` : rule,
    source: table.source,
    warnings: reduced.warnings,
    rateBasis: 'Statutory',
    reported: none(),
  };
}

function priceForeign(
  market: Market,
  w: RowWindow,
  date: string,
  meals: MealCounts,
  group?: WorkerGroup,
  companyRate?: () => CompanyRate | null | undefined,
): Priced {
  const rules = foreignRules(market, date);
  if (rules.status === 'unknown') return unknown(rules.reason, 'foreign per-diem');
  const rate = foreignRate(market, w.countryCode, date, group);
  const reported = rate.status === 'unknown' ? reportedOfRow(rate.reported) : none();
  const company = rate.status === 'unknown' ? (companyRate?.() ?? undefined) : undefined;
  if (rate.status === 'unknown' && company === undefined) return unknown(rate.reason, 'foreign per-diem', reported);
  if (rules.row.bands === null) {
    const reason = `${market} foreign per-diem band thresholds are not verified in the research; the rate is unknown.`;
    return unknown(reason, 'foreign per-diem', reported);
  }
  // The statutory rate, or (only where it is unknown) the company's own rate through the statutory bands
  // and meal reductions (docs/decisions/0188).
  const statutory = rate.status === 'known' ? rate.row : null;
  const amount = statutory ? statutory.amount : company!.amount;
  const currency = statutory ? statutory.currency : company!.currencyCode;
  const what = statutory ? `${w.countryCode} rate` : `${w.countryCode} company rate`;
  let band: Band | null;
  let rule: string;
  if (w.mode === 'fullDay') {
    band = FULL_DAY;
    rule = `Full day abroad at 100 % of the ${what} (${amount} ${currency})`;
  } else {
    band = bandFor(rules.row.bands, w.ms);
    rule = `${describe(band, `Foreign per-diem, ${what} ${amount} ${currency}`)}${
      band?.fraction ? ` (${band.fraction} of the rate)` : ''
    }`;
  }
  const rateCents = tableCents(amount);
  const grossCents = band === null ? 0 : fractionOf(rateCents, parseFraction(band.fraction ?? '1/1'));
  const bases = { bandAmount: grossCents, fullDayAmount: rateCents, dailyRate: rateCents };
  const reduced = applyMeals(rules.row.mealReduction, band, grossCents, bases, meals);
  const priced: Priced = {
    status: 'known',
    band: band?.id ?? null,
    grossCents,
    amountCents: reduced.amountCents,
    currencyCode: currency,
    reductions: reduced.reductions,
    rule: rules.row.mealReduction && reduced.reductions.length > 0 ? `${rule}. ${rules.row.mealReduction.text}` : rule,
    source: statutory ? foreignSource(statutory.source, rules.row.source) : companySource(company!),
    warnings: reduced.warnings,
    rateBasis: 'Statutory',
    reported,
  };
  if (statutory) return priced;
  const confirmed = reported.find((r) => r.currencyCode === currency && tableCents(r.amount) === rateCents);
  priced.rateBasis = confirmed ? 'CompanyConfirmedReported' : 'CompanyRate';
  const missing = rate.status === 'unknown' ? rate.reason : '';
  priced.warnings = [
    confirmed
      ? `${missing} The company's per-diem policy from ${company!.effectiveFrom} confirmed the reported figure ` +
        `${confirmed.amount} ${confirmed.currencyCode} (${confirmed.source}) as its rate for ${w.countryCode} ` +
        `(confirmed by ${company!.confirmedBy} on ${company!.confirmedAt}).`
      : `${missing} The company's own rate for ${w.countryCode} from its per-diem policy from ` +
        `${company!.effectiveFrom} (${amount} ${currency}, set by ${company!.confirmedBy} on ` +
        `${company!.confirmedAt}) pays this row; no statutory figure ${reported.length ? 'is known and it is not the reported one' : 'or reported figure supports it'}, ` +
        'so its tax-free part is unknown.',
    ...priced.warnings,
  ].map((text) => text.trim());
  return priced;
}

/** The source of a row priced with the company's rate: its policy, who set the rate and when. */
function companySource(company: CompanyRate): LegalSource {
  return {
    act: `Company per-diem policy from ${company.effectiveFrom}`,
    provision: null,
    reportedBy: `confirmed by ${company.confirmedBy} on ${company.confirmedAt}`,
  };
}

/**
 * Combined sources by the table's own source objects (shared by a table's rows): no key string to build and
 * hash on every row, which cost a third of the time once the generated tables' sources grew long (0187).
 */
const combined = new WeakMap<LegalSource, WeakMap<LegalSource, LegalSource>>();

/** The rate's instrument, and the bands' and reductions' one when it is another (SK: 401/2012 and 283/2002). */
function foreignSource(rate: LegalSource, rules: LegalSource): LegalSource {
  if (rate.act === rules.act) return rate;
  let byRules = combined.get(rate);
  if (!byRules) combined.set(rate, (byRules = new WeakMap()));
  let source = byRules.get(rules);
  if (!source) {
    source = { act: `${rate.act}; ${rules.act}`, provision: rate.provision ?? rules.provision };
    if (rate.reportedBy !== undefined) source.reportedBy = rate.reportedBy;
    byRules.set(rules, source);
  }
  return source;
}

interface Reduced {
  amountCents: number;
  reductions: MealReductionApplied[];
  warnings: string[];
}

/** The meal reductions of `rule` for the row's band, each rounded to the cent as the rule says. */
export function applyMeals(
  rule: MealReductionRule | null,
  band: Band | null,
  grossCents: number,
  bases: { bandAmount: number; fullDayAmount: number; dailyRate: number | null },
  meals: MealCounts,
): Reduced {
  const provided = meals.Breakfast + meals.Lunch + meals.Dinner;
  if (provided === 0 || grossCents === 0) return { amountCents: grossCents, reductions: [], warnings: [] };
  if (rule === null) {
    return {
      amountCents: grossCents,
      reductions: [],
      warnings: ['No verified meal-reduction rule for this row: the meals provided do not reduce it.'],
    };
  }
  const base = rule.of === 'dailyRate' ? (bases.dailyRate ?? bases.fullDayAmount) : bases[rule.of];
  const rounding = rule.rounding === 'upToCent' ? 'up' : 'halfUp';
  const reductions: MealReductionApplied[] = [];
  const warnings: string[] = [];
  let total = 0;
  if (rule.kind === 'countedMeals') {
    const counted = (rule.countedMeals ?? []).filter((m) => meals[m] > 0);
    const count = counted.reduce((n, m) => n + meals[m], 0);
    const byCount = rule.byCount ?? [];
    if (count > 0 && byCount.length > 0) {
      const bp = basisPoints(byCount[Math.min(count, byCount.length) - 1]!);
      const amount = percentOf(base, bp, rounding);
      total += amount;
      reductions.push({
        meals: counted,
        count,
        percent: formatPercent(bp),
        of: formatCents(base),
        amount: formatCents(amount),
      });
    }
  } else {
    const percents = rule.kind === 'perMeal' ? rule.perMeal : band ? rule.byBand?.[band.id] : undefined;
    if (percents === null) return { amountCents: grossCents, reductions: [], warnings: [] }; // no reduction in this band
    for (const meal of MEALS) {
      const count = meals[meal];
      if (count === 0) continue;
      const pct = percents?.[meal];
      if (pct === undefined) {
        warnings.push(`No verified reduction for ${meal.toLowerCase()} in band ${band?.id ?? '-'}: not reduced.`);
        continue;
      }
      const bp = basisPoints(pct);
      const amount = percentOf(base, bp, rounding) * count;
      total += amount;
      reductions.push({
        meals: [meal],
        count,
        percent: formatPercent(bp),
        of: formatCents(base),
        amount: formatCents(amount),
      });
    }
  }
  let amountCents = Math.max(0, grossCents - total);
  if (rule.minimumPaidPercent !== undefined && reductions.length > 0) {
    amountCents = Math.max(amountCents, percentOf(grossCents, basisPoints(rule.minimumPaidPercent), 'halfUp'));
  }
  return { amountCents, reductions, warnings };
}
