// Fleet's records as the API shows them (contracts/openapi.yaml): the one place a record becomes a body.
import { decimalFromText, toWireAmount } from '@travel/money';
import type { VehicleCost } from '../domain/cost';
import type { Deadline } from '../domain/deadline';
import type { VehicleDocument } from '../domain/document';
import type { Vehicle } from '../domain/vehicle';

export function toVehicleResponse(v: Vehicle) {
  return {
    id: v._id,
    type: v.type,
    name: v.name,
    licensePlate: v.licensePlate ?? null,
    make: v.make ?? null,
    model: v.model ?? null,
    fuelType: v.fuelType ?? null,
    fuelConsumption: v.fuelConsumption ? Number(v.fuelConsumption) : null,
    category: v.category ?? null,
    engineCapacityCc: v.engineCapacityCc ?? null,
    enginePowerKw: v.enginePowerKw ?? null,
    ownerEmployeeId: v.ownerEmployeeId ?? null,
    isArchived: v.isArchived,
    createdAt: v.createdAt.toISOString(),
    editedAt: v.editedAt.toISOString(),
  };
}

export function toDocumentResponse(d: VehicleDocument) {
  return {
    id: d._id,
    vehicleId: d.vehicleId,
    fileName: d.fileName,
    contentType: d.contentType,
    size: d.size,
    sha256: d.sha256,
    uploadedAt: d.uploadedAt.toISOString(),
    uploadedByEmployeeId: d.uploadedByEmployeeId,
  };
}

export function toDeadlineResponse(d: Deadline) {
  return {
    id: d._id,
    vehicleId: d.vehicleId,
    kind: d.kind,
    title: d.title ?? null,
    dueDate: d.dueDate,
    note: d.note ?? null,
    remindEmployeeIds: d.remindEmployeeIds ?? [],
    remindDaysBefore: d.remindDaysBefore,
    nextReminderOn: d.nextReminderOn ?? null,
    lastReminderSentAt: d.lastReminderSentAt ? d.lastReminderSentAt.toISOString() : null,
    createdAt: d.createdAt.toISOString(),
    editedAt: d.editedAt.toISOString(),
  };
}

/** The stored fixed-point text as the wire's JSON number (exactly its digits). */
export const amountToWire = (text: string, currency: string): number => toWireAmount(decimalFromText(text), currency);

export function toCostResponse(c: VehicleCost) {
  return {
    id: c._id,
    vehicleId: c.vehicleId,
    date: c.date,
    kind: c.kind,
    amount: amountToWire(c.amount, c.currency),
    currency: c.currency,
    odometerKm: c.odometerKm ?? null,
    note: c.note ?? null,
    createdAt: c.createdAt.toISOString(),
    editedAt: c.editedAt.toISOString(),
  };
}
