import type { components } from '@travel/contracts';
import { wireNumber } from '../domain/amounts';
import { isLocked, type TravelEntry } from '../domain/entry';

type Schemas = components['schemas'];

const allocationOut = (a: TravelEntry['costCenterAllocations'][number]): Schemas['CostCenterAllocation'] => ({
  costCenterId: a.costCenterId,
  percentage: a.percentage === null ? null : wireNumber(a.percentage),
  amount: a.amount === null ? null : wireNumber(a.amount),
});

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
    status: e.status,
    phase: e.phase ?? null,
    isRequest: e.isRequest,
    locked: isLocked(e),
    isPaidOut: e.isPaidOut,
    paidOutAt: e.paidOutAt ? e.paidOutAt.toISOString() : null,
    advancePayment: wireNumber(e.advancePayment),
    currencyCode: e.currencyCode,
    advancePaymentDate: e.advancePaymentDate,
    manualAdvanceExchangeRate: e.manualAdvanceExchangeRate === null ? null : wireNumber(e.manualAdvanceExchangeRate),
    advancePaymentInBaseCurrency: wireNumber(e.advancePaymentInBaseCurrency),
    advancePaymentExchangeRateSource: e.advancePaymentExchangeRateSource ?? null,
    baseCurrency: e.baseCurrency,
    costCenterAllocations: (e.costCenterAllocations ?? []).map(allocationOut),
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
