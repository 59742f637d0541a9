import { raiseEvent, throwFieldErrors, type CallerContext, type FieldErrors, type OutboxEvent } from '@travel/platform';
import {
  expenseFields,
  needsVehicleFuel,
  priceMileage,
  type Expense,
  type ExpenseFields,
  type ExpenseInput,
} from '../domain/expense';
import { toBaseCurrency } from './fx';
import type { CurrencyConverter, VehicleDirectory } from './ports';
import { SERVICE } from '../service-name';

export interface Prepared {
  expense?: Expense;
  errors: FieldErrors;
  /** EXCHANGE_RATE_UNAVAILABLE when a rate was the problem. */
  code?: 'EXCHANGE_RATE_UNAVAILABLE';
}

/**
 * Normalizes and checks an expense body. A CZ or SK Mileage row that names a vehicle and leaves out its
 * fuel type or consumption takes them from the vehicle (fleet is read, no use recorded; docs/decisions/0133).
 */
export async function checkExpense(
  vehicles: VehicleDirectory,
  caller: CallerContext,
  input: ExpenseInput,
  prefix?: string,
): Promise<{ fields: ExpenseFields; errors: FieldErrors }> {
  const ctx = { market: caller.market, baseCurrency: caller.baseCurrency, prefix };
  if (!needsVehicleFuel(input, caller.market)) return expenseFields(input, ctx);
  const vehicle = await vehicles.fuelData(caller.tenantId, input.vehicleId!.toLowerCase());
  const checked = expenseFields(input, { ...ctx, vehicle: vehicle ?? undefined });
  if (!vehicle) (checked.errors[`${prefix ?? ''}vehicleId`] ??= []).push(NOT_OURS);
  return checked;
}

const NOT_OURS = 'must be a vehicle of this company';

/**
 * Checks, prices and converts one expense without storing anything: the amount of a Mileage row from the
 * regulations, any other amount into the base currency through reference-fx on the expense date, and the
 * vehicle of a Mileage row claimed on fleet. Errors are collected, keyed with `prefix`.
 */
export async function prepareExpense(
  deps: { fx: CurrencyConverter; vehicles: VehicleDirectory },
  caller: CallerContext,
  input: ExpenseInput,
  ids: { entryId: string; expenseId: string; revision: number; createdAt: Date; prefix?: string },
  now: Date,
  fields?: ExpenseFields,
): Promise<Prepared> {
  const ctx = { market: caller.market, baseCurrency: caller.baseCurrency, prefix: ids.prefix };
  const checked = fields ? { fields, errors: {} } : await checkExpense(deps.vehicles, caller, input, ids.prefix);
  const f = checked.fields;
  if (Object.keys(checked.errors).length) return { errors: checked.errors };
  const base = {
    _id: ids.expenseId,
    ...f,
    revision: ids.revision,
    createdAt: ids.createdAt,
    editedAt: now,
  };
  if (f.kind === 'Mileage') {
    const { price, errors } = priceMileage(f, ctx);
    if (!price) return { errors };
    if (f.vehicleId) {
      const ok = await deps.vehicles.claim(caller.tenantId, f.vehicleId, {
        entryId: ids.entryId,
        expenseId: ids.expenseId,
        revision: ids.revision,
      });
      if (!ok) return { errors: { [`${ids.prefix ?? ''}vehicleId`]: [NOT_OURS] } };
    }
    return {
      expense: {
        ...base,
        amount: price.amount,
        amountInBaseCurrency: price.amount,
        exchangeRateSource: null,
        ratePerKm: price.ratePerKm,
        fuelUnitPrice: price.fuelUnitPrice,
      },
      errors: {},
    };
  }
  const p = ids.prefix ?? '';
  const converted = await toBaseCurrency(
    deps.fx,
    caller,
    { amount: f.amount!, currency: f.currencyCode, date: f.date, manualRate: f.manualExchangeRate },
    { amount: `${p}amount`, currency: `${p}currencyCode`, date: `${p}date`, manualRate: `${p}manualExchangeRate` },
  );
  if (!converted.conversion)
    return {
      errors: converted.errors,
      code: converted.error?.code === 'EXCHANGE_RATE_UNAVAILABLE' ? 'EXCHANGE_RATE_UNAVAILABLE' : undefined,
    };
  return {
    expense: {
      ...base,
      amount: f.amount!,
      amountInBaseCurrency: converted.conversion.baseAmount,
      exchangeRateSource: converted.conversion.source,
      ratePerKm: null,
      fuelUnitPrice: null,
    },
    errors: {},
  };
}

/** Throws the collected errors of several prepared expenses (and others), if any. */
export function throwIfAny(prepared: Prepared[], ...others: FieldErrors[]): void {
  const code = prepared.some((p) => p.code) ? 'EXCHANGE_RATE_UNAVAILABLE' : 'VALIDATION_FAILED';
  throwFieldErrors(code, ...prepared.map((p) => p.errors), ...others);
}

export type ReleaseReason = 'ExpenseRemoved' | 'EntryDeleted' | 'VehicleChanged';

/**
 * The internal vehicle events of one expense change (contracts/events): `vehicle.used` when a Mileage
 * row starts to name a vehicle, `vehicle.released` when it stops (removed, entry deleted, other vehicle).
 */
export function vehicleEvents(
  tenantId: string,
  entryId: string,
  before: Pick<Expense, '_id' | 'vehicleId' | 'revision'> | undefined,
  after: Pick<Expense, '_id' | 'vehicleId' | 'revision'> | undefined,
  reason: ReleaseReason,
  now: Date,
): OutboxEvent[] {
  const events: OutboxEvent[] = [];
  const was = before?.vehicleId ?? null;
  const is = after?.vehicleId ?? null;
  if (was && was !== is)
    events.push(
      raiseEvent(
        SERVICE,
        'vehicle.released',
        tenantId,
        {
          vehicleId: was,
          entryId,
          expenseId: before!._id,
          revision: after?.revision ?? before!.revision + 1,
          reason: is ? 'VehicleChanged' : reason,
        },
        now,
      ),
    );
  if (is && was !== is)
    events.push(
      raiseEvent(
        SERVICE,
        'vehicle.used',
        tenantId,
        { vehicleId: is, entryId, expenseId: after!._id, revision: after!.revision },
        now,
      ),
    );
  return events;
}

/** Gives back the vehicle claims of expenses that were prepared but not stored. */
export async function abandonClaims(
  vehicles: VehicleDirectory,
  tenantId: string,
  entryId: string,
  expenses: readonly (Expense | undefined)[],
): Promise<void> {
  await Promise.all(
    expenses
      .filter((x): x is Expense => !!x?.vehicleId)
      .map((x) => vehicles.abandon(tenantId, x.vehicleId!, { entryId, expenseId: x._id, revision: x.revision })),
  );
}
