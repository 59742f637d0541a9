import type { FieldErrors } from '@travel/platform';
import { checkRange, decimalText, isCurrency, minorDigitsOf } from './amounts';
import { AMOUNT_RANGE, MANUAL_RATE_RANGE, TEXT_MAX_LENGTH } from './limits';
import { checkAllocationShape, type CostCenterAllocation } from './allocations';
import { addFieldError, optionalText, tooLong } from '@travel/text-rules';
import { isCountryCode } from '@travel/regulations';
import type { Attachment } from './attachment';
import type { Expense } from './expense';
import type { PerDiem } from './per-diem-row';
import type { WorkflowFields } from './workflow';
import type { PolicyFinding } from './policy-findings';
import { isCalendarDate } from '@travel/platform/src/calendar-date';
import type { CountryResolution } from '@travel/places';
import { storedResolution } from './destination-country';
import { EntryStatus, type EntryPhase, type EntryStatusValue, type RateSource, type TravelType } from './entry-status';

export { EntryStatus, type EntryPhase, type EntryStatusValue, type RateSource, type TravelType } from './entry-status';

/** What a create or a full-replace update writes (normalized), in a fixed key order. */
export interface EntryFields {
  employeeId: string;
  travelType: TravelType;
  departureDate: string;
  returnDate: string;
  destination: string | null;
  purpose: string | null;
  description: string | null;
  report: string | null;
  departureLocationPlaceId: string | null;
  destinationPlaceId: string | null;
  destinationCountryCode: string | null;
  /** Where the country came from, or why there is none (docs/decisions/0131); null before it is settled. */
  destinationCountryResolution: CountryResolution | null;
  /** Decimal text in `currencyCode`'s minor digits. */
  advancePayment: string;
  currencyCode: string;
  advancePaymentDate: string;
  /** Decimal text, or null. */
  manualAdvanceExchangeRate: string | null;
  costCenterAllocations: CostCenterAllocation[];
}

export interface TravelEntry extends EntryFields, WorkflowFields {
  _id: string;
  tenantId: string;
  entryNumber: string;
  isRequest: boolean;
  status: EntryStatusValue;
  phase: EntryPhase;
  isPaidOut: boolean;
  paidOutAt: Date | null;
  baseCurrency: string;
  /** Decimal text in the base currency's minor digits. */
  advancePaymentInBaseCurrency: string;
  advancePaymentExchangeRateSource: RateSource;
  expenses: Expense[];
  /** Per-diem rows (issue 14); absent on entries stored before them. */
  perDiems?: PerDiem[];
  attachments: Attachment[];
  /** The expense policy's findings as of the entry's last write (docs/decisions/0203); absent: none. */
  policyFindings?: PolicyFinding[];
  createdAt: Date;
  editedAt: Date;
  deletedAt: Date | null;
}

/** The body of a create or an update, as the contract admits it (read-only fields already removed). */
export interface EntryInput {
  employeeId?: string;
  travelType?: TravelType;
  departureDate: string;
  returnDate: string;
  destination?: string | null;
  purpose?: string | null;
  description?: string | null;
  report?: string | null;
  departureLocationPlaceId?: string | null;
  destinationPlaceId?: string | null;
  destinationCountryCode?: string | null;
  advancePayment?: number;
  currencyCode?: string;
  advancePaymentDate?: string | null;
  manualAdvanceExchangeRate?: number | null;
  costCenterAllocations?: { costCenterId: string; percentage?: number | null; amount?: number | null }[];
}

// Closed to writes: in approval, decided, or paid out (API-SURFACE.md status values; SPEC "locked").
const LOCKED_STATUSES: ReadonlySet<number> = new Set([
  EntryStatus.Submitted,
  EntryStatus.Approved,
  EntryStatus.Rejected,
  EntryStatus.Cancelled,
]);

/** `locked`: true whenever the document is closed to writes, including the automatic lock at payout. */
export const isLocked = (
  e: Pick<TravelEntry, 'status' | 'isPaidOut' | 'numberClaim'> & { payoutBatchId?: string | null },
): boolean => e.isPaidOut || LOCKED_STATUSES.has(e.status) || Boolean(e.numberClaim) || !!e.payoutBatchId;

// The contract's `format: date`, written once (docs/decisions/0119).
export { isCalendarDate };

/** Up to 10 decimals for a manual exchange rate. */
const RATE_PLACES = 10;

/**
 * Normalizes and checks the writable fields of a create or full-replace update: omitted optional fields
 * are cleared (advance 0 in the base currency, dated on the departure date, no allocations).
 */
export function entryFields(
  input: EntryInput,
  defaults: { employeeId: string; baseCurrency: string },
): { fields: EntryFields; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);

  for (const field of ['departureDate', 'returnDate', 'advancePaymentDate'] as const) {
    const value = input[field];
    if (typeof value === 'string' && !isCalendarDate(value)) add(field, 'must be a calendar date (yyyy-MM-dd)');
  }
  if (input.returnDate < input.departureDate) add('returnDate', 'must be on or after departureDate');
  const country = input.destinationCountryCode ?? null;
  if (country !== null && !isCountryCode(country))
    add('destinationCountryCode', 'must be a country code the product knows (ISO 3166-1 alpha-2, or XK for Kosovo)');

  const currencyCode = input.currencyCode ?? defaults.baseCurrency;
  if (!isCurrency(currencyCode)) add('currencyCode', 'must be an ISO 4217 currency code the product knows');
  const places = minorDigitsOf(currencyCode);
  const advancePayment = decimalText(input.advancePayment ?? 0, places);
  if (advancePayment === undefined && isCurrency(currencyCode))
    add('advancePayment', `must have at most ${places} decimals in ${currencyCode}`);
  checkRange(add, 'advancePayment', advancePayment, AMOUNT_RANGE);

  let manualRate: string | null = null;
  if (input.manualAdvanceExchangeRate !== undefined && input.manualAdvanceExchangeRate !== null) {
    manualRate = decimalText(input.manualAdvanceExchangeRate, RATE_PLACES) ?? null;
    if (manualRate === null) add('manualAdvanceExchangeRate', `must have at most ${RATE_PLACES} decimals`);
    checkRange(add, 'manualAdvanceExchangeRate', manualRate, MANUAL_RATE_RANGE);
  }

  const { allocations, errors: allocationErrors } = checkAllocationShape(
    input.costCenterAllocations ?? [],
    minorDigitsOf(defaults.baseCurrency),
  );
  Object.assign(errors, allocationErrors);

  // Free text (shared rules): trimmed, blank is null, no control characters (line breaks in the long texts).
  const text = (field: 'destination' | 'purpose' | 'description' | 'report', multiline: boolean) => {
    const checked = optionalText(input[field], multiline, TEXT_MAX_LENGTH[field]);
    addFieldError(errors, field, checked.problem);
    return checked.value;
  };

  // Place ids are stored as sent: only their length is bounded.
  for (const field of ['departureLocationPlaceId', 'destinationPlaceId'] as const) {
    const value = input[field];
    if (value !== undefined && value !== null)
      addFieldError(
        errors,
        field,
        typeof value === 'string' ? tooLong(value, TEXT_MAX_LENGTH.placeId) : 'must be string',
      );
  }

  const fields: EntryFields = {
    employeeId: (input.employeeId ?? defaults.employeeId).toLowerCase(),
    // As sent, Domestic when omitted: the app settles it with the trip's countries (travel-type.ts).
    travelType: input.travelType ?? 'Domestic',
    departureDate: input.departureDate,
    returnDate: input.returnDate,
    destination: text('destination', false),
    purpose: text('purpose', false),
    description: text('description', true),
    report: text('report', true),
    departureLocationPlaceId: input.departureLocationPlaceId ?? null,
    destinationPlaceId: input.destinationPlaceId ?? null,
    // As sent: the app settles it with its resolution (supplied, or derived by the fallback).
    destinationCountryCode: country,
    destinationCountryResolution: null,
    advancePayment: advancePayment ?? '0',
    currencyCode,
    advancePaymentDate: input.advancePaymentDate ?? input.departureDate,
    manualAdvanceExchangeRate: manualRate,
    costCenterAllocations: allocations,
  };
  return { fields, errors };
}

/** The writable fields of a stored entry, in the same shape and order `entryFields` produces. */
export function storedFields(e: TravelEntry): EntryFields {
  return {
    employeeId: e.employeeId,
    travelType: e.travelType,
    departureDate: e.departureDate,
    returnDate: e.returnDate,
    destination: e.destination ?? null,
    purpose: e.purpose ?? null,
    description: e.description ?? null,
    report: e.report ?? null,
    departureLocationPlaceId: e.departureLocationPlaceId ?? null,
    destinationPlaceId: e.destinationPlaceId ?? null,
    destinationCountryCode: e.destinationCountryCode ?? null,
    destinationCountryResolution: storedResolution(e),
    advancePayment: e.advancePayment,
    currencyCode: e.currencyCode,
    advancePaymentDate: e.advancePaymentDate,
    manualAdvanceExchangeRate: e.manualAdvanceExchangeRate ?? null,
    costCenterAllocations: (e.costCenterAllocations ?? []).map((a) => ({
      costCenterId: a.costCenterId,
      percentage: a.percentage ?? null,
      amount: a.amount ?? null,
    })),
  };
}

/** True when a full replace would store exactly what is stored. */
export const sameFields = (a: EntryFields, b: EntryFields): boolean => JSON.stringify(a) === JSON.stringify(b);

/** `<year>-<5-digit sequence>` (API-SURFACE.md). */
export const formatEntryNumber = (year: number, seq: number): string => `${year}-${String(seq).padStart(5, '0')}`;
