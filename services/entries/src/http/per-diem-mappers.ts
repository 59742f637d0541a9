import type { components } from '@travel/contracts';
import type { ReportedRateOfRow } from '@travel/per-diem';
import { Decimal, wireNumber } from '../domain/amounts';
import { derivedMealsProvided, type PerDiem } from '../domain/per-diem-row';

type Schemas = components['schemas'];

const num = (t: string | null | undefined): number | null => (t === null || t === undefined ? null : wireNumber(t));

/**
 * The stored tax-free part; a row stored before it existed: the payable amount up to the statutory one. A
 * row priced with the company's own rate has none (docs/decisions/0188): never derived.
 */
const taxFreeOf = (r: PerDiem): string | null =>
  r.taxFreeAmount ??
  (r.rateBasis !== 'CompanyRate' && r.amount != null && r.payableAmount != null
    ? Decimal.min(r.amount, r.payableAmount).toFixed(2)
    : null);

/** A row stored before `rateBasis` existed: statutory when its amount is known. */
const rateBasisOf = (r: PerDiem): Schemas['PerDiem']['rateBasis'] =>
  r.rateBasis !== undefined ? r.rateBasis : r.amount != null ? 'Statutory' : null;

/** The reported figures of a row (docs/decisions/0188), amounts as wire numbers. */
export function toReportedFigures(figures: readonly ReportedRateOfRow[]): Schemas['ReportedPerDiemFigure'][] {
  return figures.map((f) => ({
    amount: wireNumber(f.amount),
    currencyCode: f.currencyCode,
    hotelLimit: f.hotelLimit === undefined ? null : wireNumber(f.hotelLimit),
    source: f.source,
    note: f.note ?? null,
  }));
}

/** One per-diem row of an entry: true UTC times, the legacy and deprecated fields derived (SPEC). */
export function toPerDiemResponse(r: PerDiem): Schemas['PerDiem'] {
  return {
    countryCode: r.countryCode,
    departureTime: r.departureTime,
    arrivalTime: r.arrivalTime,
    date: r.date,
    kind: r.kind,
    hours: r.hours,
    band: r.band ?? null,
    grossAmount: num(r.grossAmount),
    amount: num(r.amount),
    currencyCode: r.currencyCode ?? null,
    breakfastsProvided: r.breakfastsProvided,
    lunchesProvided: r.lunchesProvided,
    dinnersProvided: r.dinnersProvided,
    mealsProvided: derivedMealsProvided(r),
    mealsProvidedAllocation: r.mealsProvidedAllocation ?? null,
    manualExchangeRate: num(r.manualExchangeRate),
    exchangeRateSource: r.exchangeRateSource ?? null,
    fxDate: r.fxDate ?? null,
    overrideAmount: num(r.overrideAmount),
    overrideReason: r.overrideReason ?? null,
    excessAmount: num(r.excessAmount),
    taxFreeAmount: num(taxFreeOf(r)),
    payableAmount: num(r.payableAmount),
    policyEffectiveFrom: r.policyEffectiveFrom ?? null,
    nightAllocation: r.nightAllocation
      ? { date: r.nightAllocation.date, hours: wireNumber(r.nightAllocation.hours) }
      : null,
    nightAllocationAmount: num(r.nightAllocationAmount),
    // Deprecated (SPEC): one `false` per night, and null.
    nightOffWindowOverride: Array.from({ length: r.nights ?? 0 }, () => false as const),
    nightOverrideReason: null,
    amountInBaseCurrency: num(r.amountInBaseCurrency),
    taxTreatment: r.taxTreatment,
    source: r.source ?? null,
    reported: toReportedFigures(r.reported ?? []),
    rateBasis: rateBasisOf(r),
    rule: r.rule,
    reason: r.reason ?? null,
    warnings: r.warnings ?? [],
  };
}

/** The rows of an entry with their total (null when a row's amount is unknown). */
export function toPerDiemsOfEntry(rows: readonly PerDiem[], total: string | null, currencyCode: string) {
  return {
    items: rows.map(toPerDiemResponse),
    total: num(total),
    currencyCode,
    complete: total !== null,
  } satisfies Schemas['PerDiemsOfEntry'];
}
