// The per-diem pricer (docs/decisions/0070-0072): the engine over an itinerary, each row's payable amount
// converted into the base currency. A service of its own, used by the entries app (create, PUT) and by
// the per-diem use case (from-itinerary): neither imports the other's module (docs/decisions/0169).
import { addFieldErrors, type CallerContext, type FieldErrors } from '@travel/platform';
import {
  calculatePerDiems,
  PerDiemInputError,
  type PerDiemRow,
  type RowMeals,
  type RowOverride,
  type Stop,
} from '@travel/per-diem';
import type { PerDiemPolicy } from '@travel/contracts';
import { Decimal } from '../domain/amounts';
import type { TravelEntry } from '../domain/entry';
import {
  itineraryOfRows,
  nightsOf,
  perDiemFxDate,
  perDiemRowFields,
  rowKey,
  sameRows,
  storedRowFields,
  type PerDiem,
  type PerDiemRowFields,
  type PerDiemRowInput,
} from '../domain/per-diem-row';
import { companyRatesOf, payOfRow } from '../domain/per-diem-pay';
import { toBaseCurrency } from './fx';
import type { PerDiemProfile, PerDiemProfiles } from './per-diem-calculator';
import type { CurrencyConverter, PerDiemPolicySource } from './ports';

/** Rows priced for an entry, or the field errors that refused them (EXCHANGE_RATE_UNAVAILABLE when a rate did). */
export interface PricedRows {
  rows: PerDiem[];
  errors: FieldErrors;
  code?: 'EXCHANGE_RATE_UNAVAILABLE';
}

/** What pricing needs of the entry: its employee (residency) and, for CZ, its advancePaymentDate (FX date). */
export type EntryContext = Pick<TravelEntry, 'employeeId' | 'advancePaymentDate'>;

export interface FromItineraryInput {
  stops: Stop[];
  meals?: RowMeals[];
  employeeId?: string;
}

/** Re-keys the engine's field errors (`meals[k]…`, `overrides[k]…`, `stops…`) to the nested rows'. */
function rowErrors(errors: FieldErrors, overrideRows: number[]): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const m = /^(meals|overrides)\[(\d+)\](.*)$/.exec(field);
    let key = 'perDiems';
    if (m) {
      const row = m[1] === 'meals' ? Number(m[2]) : overrideRows[Number(m[2])];
      key = m[3] ? `perDiems[${row}]${m[3]}` : `perDiems[${row}]`;
    }
    (out[key] ??= []).push(...messages);
  }
  return out;
}

/**
 * Prices per-diem rows for an entry. The engine decides every statutory figure; a row's payable amount
 * (its override, else the company policy's amount on the row's date, else the statutory amount, plus a
 * short night; docs/decisions/0129) is converted into the base currency on the entry's per-diem FX date:
 * CZ its advancePaymentDate (SPEC), other markets the trip's start date as the calculator does
 * (docs/decisions/0056), so both answer the same. Rows are priced only when an open entry's rows are
 * written, so a policy change never re-prices rows already stored (submitted entries are locked).
 */
export class PerDiemPricer {
  constructor(
    private readonly fx: CurrencyConverter,
    private readonly employees: PerDiemProfiles,
    private readonly policies: PerDiemPolicySource,
  ) {}

  /** The entry's employee as the per-diem rules read them (the defaults when the record is gone). */
  private async profile(caller: CallerContext, employeeId: string): Promise<PerDiemProfile> {
    return (
      (await this.employees.perDiemProfileOf(caller.tenantId, employeeId)) ?? {
        residency: 'Resident',
        mobileRoadTransportWorker: false,
      }
    );
  }

  /** Rows nested on a create or a PUT: the itinerary they describe is re-run; they must be its rows. */
  async fromRows(caller: CallerContext, entry: EntryContext, inputs: readonly PerDiemRowInput[]): Promise<PricedRows> {
    const checked = inputs.map((input, i) => perDiemRowFields(input, i, caller.market));
    const errors = checked.reduce((all, c) => addFieldErrors(all, c.errors), {} as FieldErrors);
    if (Object.keys(errors).length) return { rows: [], errors };
    return this.priceSettings(
      caller,
      entry,
      checked.map((c) => c.fields),
    );
  }

  /** Re-prices rows from their settings (a PUT that changed them, or a CZ advance date that moved). */
  async priceSettings(
    caller: CallerContext,
    entry: EntryContext,
    settings: readonly PerDiemRowFields[],
  ): Promise<PricedRows> {
    if (settings.length === 0) return { rows: [], errors: {} };
    const itinerary = itineraryOfRows(settings);
    if (Object.keys(itinerary.errors).length) return { rows: [], errors: itinerary.errors };
    const overrideRows = settings.flatMap((s, i) => (s.overrideAmount !== null ? [i] : []));
    const [profile, policy] = await Promise.all([
      this.profile(caller, entry.employeeId),
      this.policies.policyOf(caller.tenantId),
    ]);
    let result;
    try {
      result = calculatePerDiems({
        market: caller.market,
        ...profile,
        companyRates: companyRatesOf(policy),
        stops: itinerary.stops,
        meals: settings.map((s) => ({
          countryCode: s.countryCode,
          departureTime: s.departureTime,
          breakfastsProvided: s.breakfastsProvided,
          lunchesProvided: s.lunchesProvided,
          dinnersProvided: s.dinnersProvided,
        })),
        overrides: overrideRows.map((i): RowOverride => ({
          countryCode: settings[i].countryCode,
          departureTime: settings[i].departureTime,
          overrideAmount: settings[i].overrideAmount!,
          overrideReason: settings[i].overrideReason!,
        })),
      });
    } catch (err) {
      if (err instanceof PerDiemInputError) return { rows: [], errors: rowErrors(err.errors, overrideRows) };
      throw err;
    }
    // Every row of the itinerary must be one of the sent rows, with the same end.
    const byKey = new Map(settings.map((s, i) => [rowKey(s.countryCode, s.departureTime), i]));
    const errors: FieldErrors = {};
    for (const row of result.items) {
      const i = byKey.get(rowKey(row.countryCode, row.departureTime));
      if (i === undefined)
        addFieldErrors(errors, {
          perDiems: [
            `the itinerary the rows describe has a row ${row.countryCode} ${row.departureTime} to ${row.arrivalTime} that is not sent; send the rows as from-itinerary returns them`,
          ],
        });
      else if (rowKey('', settings[i].arrivalTime) !== rowKey('', row.arrivalTime))
        addFieldErrors(errors, {
          [`perDiems[${i}].arrivalTime`]: [`must be ${row.arrivalTime}, where the engine ends the row`],
        });
    }
    if (Object.keys(errors).length) return { rows: [], errors };
    return this.convert(
      caller,
      entry,
      policy,
      result.items,
      result.items.map((row) => settings[byKey.get(rowKey(row.countryCode, row.departureTime))!]),
      result.items.map((row) => `perDiems[${byKey.get(rowKey(row.countryCode, row.departureTime))!}].`),
    );
  }

  /** from-itinerary: the engine over the stops with the meals keyed as the calculator returns them. */
  async fromItinerary(caller: CallerContext, entry: EntryContext, input: FromItineraryInput): Promise<PricedRows> {
    const [profile, policy] = await Promise.all([
      this.profile(caller, entry.employeeId),
      this.policies.policyOf(caller.tenantId),
    ]);
    let result;
    try {
      result = calculatePerDiems({
        market: caller.market,
        ...profile,
        companyRates: companyRatesOf(policy),
        stops: input.stops,
        meals: input.meals,
      });
    } catch (err) {
      if (err instanceof PerDiemInputError) return { rows: [], errors: err.errors };
      throw err;
    }
    const settings = result.items.map((row): PerDiemRowFields => ({
      countryCode: row.countryCode,
      departureTime: row.departureTime,
      arrivalTime: row.arrivalTime,
      breakfastsProvided: row.breakfastsProvided,
      lunchesProvided: row.lunchesProvided,
      dinnersProvided: row.dinnersProvided,
      mealsProvidedAllocation: null,
      manualExchangeRate: null,
      overrideAmount: null,
      overrideReason: null,
      nightAllocation: null,
    }));
    return this.convert(
      caller,
      entry,
      policy,
      result.items,
      settings,
      result.items.map((_, i) => `items[${i}].`),
    );
  }

  /** Each row's payable amount into the base currency (the manual-rate rule of reference-fx applies). */
  private async convert(
    caller: CallerContext,
    entry: EntryContext,
    policy: PerDiemPolicy,
    rows: readonly PerDiemRow[],
    settings: readonly PerDiemRowFields[],
    prefixes: readonly string[],
  ): Promise<PricedRows> {
    const fxDate = perDiemFxDate(caller.market, entry.advancePaymentDate, rows[0]?.date ?? null);
    const errors: FieldErrors = {};
    let code: PricedRows['code'];
    const priced = await Promise.all(
      rows.map(async (row, i): Promise<PerDiem> => {
        const s = settings[i];
        const nightAllocationAmount = s.nightAllocation ? '0.00' : null;
        const pay = payOfRow(caller.market, row, policy);
        const base: PerDiem = {
          ...s,
          // The engine's times are the canonical UTC text.
          departureTime: row.departureTime,
          arrivalTime: row.arrivalTime,
          breakfastsProvided: row.breakfastsProvided,
          lunchesProvided: row.lunchesProvided,
          dinnersProvided: row.dinnersProvided,
          kind: row.kind,
          date: row.date,
          hours: row.hours,
          band: row.band,
          grossAmount: row.grossAmount,
          amount: row.amount,
          currencyCode: row.currencyCode,
          excessAmount: pay.excessAmount,
          taxFreeAmount: pay.taxFreeAmount,
          payableAmount: pay.payableAmount,
          policyEffectiveFrom: pay.policyEffectiveFrom,
          nightAllocationAmount,
          fxDate: null,
          exchangeRateSource: null,
          amountInBaseCurrency: null,
          taxTreatment: row.taxTreatment,
          source: row.source,
          reported: row.reported,
          rateBasis: row.rateBasis,
          rule: row.rule,
          reason: row.reason,
          warnings: [...row.warnings, ...pay.warnings],
          nights: nightsOf(caller.market, row.departureTime, row.arrivalTime),
        };
        if (pay.payableAmount === null)
          return { ...base, reason: row.reason ?? 'The statutory rate of this row is unknown.' };
        // An override on a row whose rate (and currency) is unknown is an amount in the base currency.
        const currency = row.currencyCode ?? caller.baseCurrency;
        // What the row pays: override, policy or statutory amount, plus the short night (never overridden).
        const payable = nightAllocationAmount
          ? new Decimal(pay.payableAmount).plus(nightAllocationAmount).toFixed(2)
          : pay.payableAmount;
        const converted = await toBaseCurrency(
          this.fx,
          caller,
          { amount: payable, currency, date: fxDate!, manualRate: s.manualExchangeRate },
          {
            amount: `${prefixes[i]}overrideAmount`,
            currency: `${prefixes[i]}countryCode`,
            date: `${prefixes[i]}departureTime`,
            manualRate: `${prefixes[i]}manualExchangeRate`,
          },
        );
        if (converted.conversion)
          return {
            ...base,
            fxDate: currency === caller.baseCurrency ? null : fxDate,
            exchangeRateSource: converted.conversion.source,
            amountInBaseCurrency: converted.conversion.baseAmount,
          };
        const unavailable = converted.error?.code === 'EXCHANGE_RATE_UNAVAILABLE';
        // No rate and no manual rate: the row is stored, its base amount unknown until a manual rate is set.
        if (unavailable && s.manualExchangeRate === null)
          return {
            ...base,
            fxDate,
            reason: `No ${currency} rate to convert into ${caller.baseCurrency} on ${fxDate}; set manualExchangeRate. ${converted.error!.message}`,
          };
        addFieldErrors(errors, converted.errors);
        if (unavailable) code = 'EXCHANGE_RATE_UNAVAILABLE';
        return base;
      }),
    );
    if (Object.keys(errors).length) return { rows: [], errors, code };
    return { rows: priced, errors: {} };
  }

  /**
   * The rows a full-replace PUT leaves: `perDiems` omitted keeps them; sent with the same settings keeps
   * them as stored; sent with other settings re-prices them. A CZ entry whose advancePaymentDate moves is
   * re-priced too (its per-diem FX date). `changed` says whether anything is to be stored.
   */
  async forUpdate(
    caller: CallerContext,
    current: TravelEntry,
    next: EntryContext,
    inputs: readonly PerDiemRowInput[] | undefined,
  ): Promise<PricedRows & { changed: boolean }> {
    const stored = current.perDiems ?? [];
    const storedSettings = stored.map(storedRowFields);
    let settings = storedSettings;
    if (inputs !== undefined) {
      const checked = inputs.map((input, i) => perDiemRowFields(input, i, caller.market));
      const errors = checked.reduce((all, c) => addFieldErrors(all, c.errors), {} as FieldErrors);
      if (Object.keys(errors).length) return { rows: stored, errors, changed: false };
      settings = checked.map((c) => c.fields);
    }
    const fxMoved = caller.market === 'CZ' && next.advancePaymentDate !== current.advancePaymentDate;
    if (sameRows(settings, storedSettings) && !(fxMoved && stored.length > 0))
      return { rows: stored, errors: {}, changed: false };
    const priced = await this.priceSettings(caller, next, settings);
    return { ...priced, changed: true };
  }
}
