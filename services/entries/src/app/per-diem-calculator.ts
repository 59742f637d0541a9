// The stateless per-diem calculator (issue 14, POST /api/v1/utilities/per-diems/calculate): the engine
// of @travel/per-diem over the caller's itinerary, in the caller's market, with the employee's residency
// and road-transport flag and the company's own per-country rates where no statutory rate is known
// (docs/decisions/0188);
// each foreign-currency row converted into the base currency through reference-fx. Nothing is stored.
import { decimal, type Decimal } from '@travel/money';
import {
  calculatePerDiems,
  PerDiemInputError,
  toApiRow,
  type ApiPerDiemRow,
  type PerDiemRow,
  type RowMeals,
  type Stop,
} from '@travel/per-diem';
import { AppError, throwIfInvalid, type CallerContext } from '@travel/platform';
import type { PerDiemProfile } from '@travel/contracts';
import { itineraryListErrors } from '../domain/limits';
import { companyRatesOf } from '../domain/per-diem-pay';
import type { CurrencyConverter, PerDiemPolicySource } from './ports';

/** What the per-diem rules read of an employee: residency (SI tax-free cap), the SK road-transport flag. */
export type { PerDiemProfile };

/** The employees service: the per-diem profile of an employee of the company, or null when there is none. */
export interface PerDiemProfiles {
  perDiemProfileOf(tenantId: string, employeeId: string): Promise<PerDiemProfile | null>;
}

export interface CalculatorRequest {
  stops: Stop[];
  meals?: RowMeals[];
  employeeId?: string;
}

export interface CalculatedRow extends Omit<ApiPerDiemRow, 'amount' | 'amountInBaseCurrency'> {
  amount: Decimal | null;
  amountInBaseCurrency: Decimal | null;
  /** Why `amount` or `amountInBaseCurrency` is null; null when both are known. */
  reason: string | null;
  /** The engine's notes on the row (an unverified meal reduction, an SI non-resident's tax treatment). */
  warnings: string[];
}

export interface Calculation {
  items: CalculatedRow[];
  /** Sum of the rows' amounts in the base currency; null when any of them is unknown (never a partial sum). */
  total: Decimal | null;
  currencyCode: string;
  complete: boolean;
  /** The referential date of the conversions (docs/decisions/0056). */
  fxDate: string | null;
}

export class PerDiemCalculator {
  constructor(
    private readonly employees: PerDiemProfiles,
    /** reference-fx's conversion, as every use case of entries asks it (one adapter). */
    private readonly fx: CurrencyConverter,
    /** reference-fx's company per-diem policy: its per-country rates price rows the statutory tables cannot. */
    private readonly policies: PerDiemPolicySource,
  ) {}

  async calculate(caller: CallerContext, request: CalculatorRequest): Promise<Calculation> {
    throwIfInvalid(itineraryListErrors(request)); // before the engine walks the stops
    // The employee and the company's policy are asked together, as the pricer asks them.
    const [profile, policy] = await Promise.all([
      request.employeeId ? this.profile(caller, request.employeeId) : undefined,
      this.policies.policyOf(caller.tenantId),
    ]);
    let result;
    try {
      result = calculatePerDiems({
        market: caller.market,
        residency: profile?.residency,
        mobileRoadTransportWorker: profile?.mobileRoadTransportWorker,
        companyRates: companyRatesOf(policy),
        stops: request.stops,
        meals: request.meals,
      });
    } catch (err) {
      if (err instanceof PerDiemInputError) throw new AppError('VALIDATION_FAILED', undefined, err.errors);
      throw err;
    }
    // The FX referential date: the trip's start date in the market's calendar (the first row's account
    // date). For an entry, CZ uses its advancePaymentDate; the calculator has no entry (decision 0056).
    const fxDate = result.items[0]?.date ?? null;
    const items: CalculatedRow[] = [];
    for (const row of result.items) items.push(await this.priced(caller, row, fxDate!));
    const complete = items.every((r) => r.amountInBaseCurrency !== null);
    const total = complete ? items.reduce((sum, r) => sum.plus(r.amountInBaseCurrency!), decimal(0)) : null;
    return { items, total, currencyCode: result.baseCurrencyCode, complete, fxDate };
  }

  private async profile(caller: CallerContext, employeeId: string): Promise<PerDiemProfile> {
    const profile = await this.employees.perDiemProfileOf(caller.tenantId, employeeId);
    if (!profile)
      throw new AppError('VALIDATION_FAILED', undefined, { employeeId: ['no such employee in the company'] });
    return profile;
  }

  /** The row as the calculator answers it (wall-clock times), converted into the base currency. */
  private async priced(caller: CallerContext, row: PerDiemRow, fxDate: string): Promise<CalculatedRow> {
    const api = toApiRow(row, { times: 'wallClock' });
    const base = { ...api, amount: null, amountInBaseCurrency: null, exchangeRateSource: null, warnings: row.warnings };
    if (row.amount === null || row.currencyCode === null)
      return { ...base, reason: row.reason ?? 'The statutory rate of this row is unknown.' };
    const amount = decimal(row.amount);
    if (row.amountInBaseCurrency !== null)
      return { ...base, amount, amountInBaseCurrency: decimal(row.amountInBaseCurrency), reason: null };
    try {
      const converted = await this.fx.convert({
        market: caller.market,
        amount: amount.toString(),
        currency: row.currencyCode,
        date: fxDate,
        manualRate: null,
      });
      return {
        ...base,
        amount,
        amountInBaseCurrency: decimal(converted.baseAmount),
        exchangeRateSource: converted.source,
        reason: null,
      };
    } catch (err) {
      if (!(err instanceof AppError) || (err.code !== 'EXCHANGE_RATE_UNAVAILABLE' && err.code !== 'VALIDATION_FAILED'))
        throw err;
      return {
        ...base,
        amount,
        reason: `No ${row.currencyCode} rate to convert into ${caller.baseCurrency} on ${fxDate}: ${err.message}`,
      };
    }
  }
}
