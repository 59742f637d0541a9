import { WireFormatError, isCurrency, outOfRange, parseWireAmount, toAmountText } from '@travel/money';
import type { FieldErrors } from '@travel/platform';
import { addFieldError, optionalText } from '@travel/text-rules';
import { checkWholeNumber, COST_AMOUNT_RANGE, MAX_ODOMETER_KM, TEXT_MAX_LENGTH } from './limits';
import { isCalendarDate } from '@travel/platform/src/calendar-date';

// Vehicle costs (issue 11): date, kind, amount and currency (decimal), odometer, note. Pure rules.

export const COST_KINDS = ['Fuel', 'Service', 'Tyres', 'Insurance', 'Toll', 'Parking', 'Other'] as const;
export type CostKind = (typeof COST_KINDS)[number];

export interface CostFields {
  date: string;
  kind: CostKind;
  /** Fixed-point text with exactly the currency's minor digits ("84.30"): stored money is never a float. */
  amount: string;
  currency: string;
  odometerKm: number | null;
  note: string | null;
}

export interface VehicleCost extends CostFields {
  _id: string;
  tenantId: string;
  vehicleId: string;
  createdAt: Date;
  editedAt: Date;
}

export interface CostWrite {
  date: string;
  kind: CostKind;
  /** A JSON number on the wire (docs/decisions/0020). */
  amount: number;
  currency: string;
  odometerKm?: number | null;
  note?: string | null;
}

/**
 * Checks an amount from the wire (a JSON number, docs/decisions/0020) against its currency with the
 * shared money package: never through binary floating point, greater than zero and at most the product's
 * maximum amount, at most the currency's minor digits (more is a 400, never rounded). Returns the
 * fixed-point text that is stored ("84.30").
 */
export function checkAmount(amount: unknown, currency: string): { value?: string; problem?: string } {
  if (!isCurrency(currency)) return { problem: 'currency: must be an ISO 4217 currency code' };
  try {
    const value = parseWireAmount(amount, currency, { positive: true });
    const problem = outOfRange(value, COST_AMOUNT_RANGE);
    return problem ? { problem } : { value: toAmountText(value, currency) };
  } catch (err) {
    if (err instanceof WireFormatError) return { problem: err.message };
    throw err;
  }
}

// The contract's `format: date`, written once (docs/decisions/0119).
export { isCalendarDate };

/** The stored fields of a cost create or full replace (omitted odometer and note are cleared). */
export function costFields(input: CostWrite): { fields: CostFields; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (!isCalendarDate(input.date)) addFieldError(errors, 'date', 'must be a calendar date yyyy-MM-dd');
  const amount = checkAmount(input.amount, input.currency);
  if (amount.problem?.startsWith('currency: ')) addFieldError(errors, 'currency', amount.problem.slice(10));
  else addFieldError(errors, 'amount', amount.problem);
  checkWholeNumber(errors, 'odometerKm', input.odometerKm, MAX_ODOMETER_KM);
  const note = optionalText(input.note, true, TEXT_MAX_LENGTH.note);
  addFieldError(errors, 'note', note.problem);
  return {
    fields: {
      date: input.date,
      kind: input.kind,
      amount: amount.value ?? '0',
      currency: input.currency,
      odometerKm: input.odometerKm ?? null,
      note: note.value,
    },
    errors,
  };
}
