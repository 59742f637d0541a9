import type { FieldErrors } from '@travel/platform';
import { addFieldError, optionalText } from './text';

// Vehicle costs (issue 11): date, kind, amount and currency (decimal), odometer, note. Pure rules.

export const COST_KINDS = ['Fuel', 'Service', 'Tyres', 'Insurance', 'Toll', 'Parking', 'Other'] as const;
export type CostKind = (typeof COST_KINDS)[number];

export interface CostFields {
  date: string;
  kind: CostKind;
  /** Decimal string, canonical (no trailing zeros beyond the currency's minor units, no leading zeros). */
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
  amount: string;
  currency: string;
  odometerKm?: number | null;
  note?: string | null;
}

/**
 * Minor units of a currency (ISO 4217 exponent as the runtime's CLDR data has it), or undefined for a
 * code that is not a currency. Until the shared money package lands this is the only money rule here.
 */
export function minorUnits(currency: string): number | undefined {
  if (!/^[A-Z]{3}$/.test(currency)) return undefined;
  const known = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('currency');
  if (known && !known.includes(currency)) return undefined;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  } catch {
    return undefined;
  }
}

const DECIMAL = /^(0|[1-9][0-9]{0,12})(?:\.([0-9]+))?$/;

/**
 * Checks a decimal amount string against its currency without ever making it a binary float: digits
 * only, greater than zero, at most the currency's minor digits (trailing zeros beyond them are fine).
 * Returns the amount with exactly the currency's minor digits ("84.3" EUR → "84.30").
 */
export function checkAmount(amount: string, currency: string): { value?: string; problem?: string } {
  const digits = minorUnits(currency);
  if (digits === undefined) return { problem: 'currency: must be an ISO 4217 currency code' };
  const m = DECIMAL.exec(amount);
  if (!m) return { problem: 'must be a decimal number as a string, such as "84.37"' };
  const whole = m[1]!;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits)
    return {
      problem: `has more than ${digits} decimal place${digits === 1 ? '' : 's'}, the minor units of ${currency}`,
    };
  if (/^0$/.test(whole) && !/[1-9]/.test(fraction)) return { problem: 'must be greater than 0' };
  return { value: digits === 0 ? whole : `${whole}.${fraction.padEnd(digits, '0')}` };
}

/** A calendar date `yyyy-MM-dd` that exists (the contract checks the format; this checks the day). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** The stored fields of a cost create or full replace (omitted odometer and note are cleared). */
export function costFields(input: CostWrite): { fields: CostFields; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (!isCalendarDate(input.date)) addFieldError(errors, 'date', 'must be a calendar date yyyy-MM-dd');
  const amount = checkAmount(input.amount, input.currency);
  if (amount.problem?.startsWith('currency: ')) addFieldError(errors, 'currency', amount.problem.slice(10));
  else addFieldError(errors, 'amount', amount.problem);
  const note = optionalText(input.note, true);
  addFieldError(errors, 'note', note.problem);
  return {
    fields: {
      date: input.date,
      kind: input.kind,
      amount: amount.value ?? input.amount,
      currency: input.currency,
      odometerKm: input.odometerKm ?? null,
      note: note.value,
    },
    errors,
  };
}

export function toCostResponse(c: VehicleCost) {
  return {
    id: c._id,
    vehicleId: c.vehicleId,
    date: c.date,
    kind: c.kind,
    amount: c.amount,
    currency: c.currency,
    odometerKm: c.odometerKm ?? null,
    note: c.note ?? null,
    createdAt: c.createdAt.toISOString(),
    editedAt: c.editedAt.toISOString(),
  };
}
