import type { components } from '@travel/contracts';
import { wireNumber } from '../domain/amounts';
import type { PolicyFinding } from '../domain/policy-findings';
import { entryFigures } from '../domain/entry-figures';
import { toPerDiemResponse } from './per-diem-mappers';
import { isLocked, type TravelEntry } from '../domain/entry';
import type { Attachment } from '../domain/attachment';
import type { Expense } from '../domain/expense';
import { workflowView } from './workflow-mappers';
import { storedResolution } from '../domain/destination-country';
import type { AccountsView } from '../app/journal';
import type { ReadingView } from '../app/readings';

type Schemas = components['schemas'];

const allocationOut = (a: TravelEntry['costCenterAllocations'][number]): Schemas['CostCenterAllocation'] => ({
  costCenterId: a.costCenterId,
  percentage: a.percentage === null ? null : wireNumber(a.percentage),
  amount: a.amount === null ? null : wireNumber(a.amount),
});

const orNull = (text: string | null): number | null => (text === null ? null : wireNumber(text));

/** The entry's money figures, all from `entryFigures` (docs/decisions/0109). */
function figuresView(
  e: TravelEntry,
): Pick<Schemas['TravelEntry'], 'expenseTotal' | 'perDiemTotal' | 'amountDue' | 'payoutBlockedReason'> {
  const f = entryFigures(e);
  return {
    expenseTotal: wireNumber(f.expenseTotal),
    perDiemTotal: orNull(f.perDiemTotal),
    amountDue: orNull(f.amountDue),
    payoutBlockedReason: f.payoutBlockedReason,
  };
}

/** How the destination country was settled (docs/decisions/0131); its candidates are listed country codes. */
function resolutionOut(e: TravelEntry): Schemas['DestinationCountryResolution'] | null {
  const r = storedResolution(e);
  return r && { ...r, candidates: r.candidates as Schemas['CountryCode'][] };
}

/** The full entry, as GET /travel-entries/{id} returns it. */
export function toEntryResponse(e: TravelEntry): Schemas['TravelEntry'] {
  return {
    id: e._id,
    entryNumber: e.entryNumber,
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
    destinationCountryResolution: resolutionOut(e),
    status: e.status,
    phase: e.phase ?? null,
    isRequest: e.isRequest,
    locked: isLocked(e),
    isPaidOut: e.isPaidOut,
    paidOutAt: e.paidOutAt ? e.paidOutAt.toISOString() : null,
    ...workflowView(e),
    advancePayment: wireNumber(e.advancePayment),
    currencyCode: e.currencyCode,
    advancePaymentDate: e.advancePaymentDate,
    manualAdvanceExchangeRate: e.manualAdvanceExchangeRate === null ? null : wireNumber(e.manualAdvanceExchangeRate),
    advancePaymentInBaseCurrency: wireNumber(e.advancePaymentInBaseCurrency),
    advancePaymentExchangeRateSource: e.advancePaymentExchangeRateSource ?? null,
    baseCurrency: e.baseCurrency,
    costCenterAllocations: (e.costCenterAllocations ?? []).map(allocationOut),
    expenses: (e.expenses ?? []).map(toExpenseResponse),
    ...figuresView(e),
    perDiems: (e.perDiems ?? []).map(toPerDiemResponse),
    attachments: (e.attachments ?? []).map(toAttachmentResponse),
    policyFindings: (e.policyFindings ?? []).map(toFindingResponse),
    createdAt: e.createdAt.toISOString(),
    editedAt: e.editedAt.toISOString(),
  };
}

/** An entry as lists return it. */
export function toEntrySummary(e: TravelEntry): Schemas['TravelEntrySummary'] {
  return {
    id: e._id,
    entryNumber: e.entryNumber,
    employeeId: e.employeeId,
    travelType: e.travelType,
    departureDate: e.departureDate,
    returnDate: e.returnDate,
    destination: e.destination ?? null,
    destinationCountryCode: e.destinationCountryCode ?? null,
    status: e.status,
    phase: e.phase ?? null,
    isRequest: e.isRequest,
    locked: isLocked(e),
    isPaidOut: e.isPaidOut,
    paidOutAt: e.paidOutAt ? e.paidOutAt.toISOString() : null,
    advancePayment: wireNumber(e.advancePayment),
    currencyCode: e.currencyCode,
    advancePaymentInBaseCurrency: wireNumber(e.advancePaymentInBaseCurrency),
    createdAt: e.createdAt.toISOString(),
    editedAt: e.editedAt.toISOString(),
  };
}

const num = (t: string | null | undefined): number | null => (t === null || t === undefined ? null : wireNumber(t));

/** One expense; `vehicle` is null on every kind but Mileage (SPEC, Expense). */
export function toExpenseResponse(x: Expense): Schemas['Expense'] {
  const vehicleId = x.kind === 'Mileage' ? (x.vehicleId ?? null) : null;
  return {
    id: x._id,
    kind: x.kind,
    date: x.date,
    description: x.description ?? null,
    amount: wireNumber(x.amount),
    currencyCode: x.currencyCode,
    manualExchangeRate: num(x.manualExchangeRate),
    amountInBaseCurrency: wireNumber(x.amountInBaseCurrency),
    exchangeRateSource: x.exchangeRateSource ?? null,
    vehicleId,
    vehicle: vehicleId ? { id: vehicleId } : null,
    distanceKm: num(x.distanceKm),
    vehicleKind: x.vehicleKind ?? null,
    fuelType: x.fuelType ?? null,
    fuelConsumption: num(x.fuelConsumption),
    fuelUnitPriceOverride: num(x.fuelUnitPriceOverride),
    mileagePetrolGrade: x.mileagePetrolGrade ?? null,
    ratePerKm: num(x.ratePerKm),
    fuelUnitPrice: num(x.fuelUnitPrice),
    receiptReading: x.receiptReading
      ? {
          attachmentId: x.receiptReading.attachmentId,
          engine: x.receiptReading.engine,
          readAt: x.receiptReading.readAt.toISOString(),
          corrected: [...x.receiptReading.corrected],
        }
      : null,
    receiptAttachmentIds: [...(x.receiptAttachmentIds ?? [])],
    missingReceiptDeclaration: x.missingReceiptDeclaration
      ? {
          reason: x.missingReceiptDeclaration.reason,
          declaredByEmployeeId: x.missingReceiptDeclaration.declaredByEmployeeId,
          apiKeyId: x.missingReceiptDeclaration.apiKeyId,
          declaredAt: new Date(x.missingReceiptDeclaration.declaredAt).toISOString(),
          digest: x.missingReceiptDeclaration.digest,
        }
      : null,
    createdAt: x.createdAt.toISOString(),
    editedAt: x.editedAt.toISOString(),
  };
}

/** A policy finding as the entry shows it (docs/decisions/0203): amounts as wire numbers. */
export const toFindingResponse = (f: PolicyFinding): Schemas['PolicyFinding'] => ({
  rule: f.rule,
  effectiveFrom: f.effectiveFrom,
  check: f.check,
  kind: f.kind,
  expenseId: f.expenseId,
  date: f.date,
  amount: wireNumber(f.amount),
  limit: wireNumber(f.limit),
  amountOver: wireNumber(f.amountOver),
  onBreach: f.onBreach,
});

export const toAttachmentResponse = (a: Attachment): Schemas['Attachment'] => ({
  id: a._id,
  fileName: a.fileName,
  contentType: a.contentType,
  size: a.size,
  createdAt: a.createdAt.toISOString(),
});

/** `GET|PUT /api/v1/journal-accounts`: the accounts in use, the market's defaults and when they last changed. */
export const toJournalAccountsResponse = (view: AccountsView) => ({
  ...view,
  editedAt: view.editedAt ? view.editedAt.toISOString() : null,
});

/** `GET …/attachments/{attachmentId}/reading`: the projection's reading, or Pending (docs/decisions/0200). */
export function toReadingResponse(view: ReadingView): Schemas['AttachmentReading'] {
  const r = view.reading;
  if (!r)
    return {
      attachmentId: view.attachment._id,
      state: 'Pending',
      reason: null,
      engine: null,
      readAt: null,
      fields: {},
      lines: [],
    };
  return {
    attachmentId: r._id,
    state: r.state,
    reason: r.reason,
    engine: r.engine,
    readAt: r.readAt.toISOString(),
    fields: r.fields,
    lines: r.lines,
  };
}
