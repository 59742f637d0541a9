import { Schema, type Connection, type Model } from 'mongoose';
import { outboxSchemaFields, tenantScoped, type OutboxFields } from '@travel/platform';
import type { VehicleCost } from '../domain/cost';
import type { Deadline } from '../domain/deadline';
import type { VehicleDocument } from '../domain/document';
import type { Usage } from '../domain/usage';
import type { Vehicle } from '../domain/vehicle';

export interface VehicleStorage {
  /** Incremented by every write of the document; a write applies only to the revision it read. */
  rev: number;
  /** Usage projection: one record per mileage expense that uses (or used) the vehicle. */
  usage: Usage;
  /** Live records in `usage`. */
  inUse: number;
  /** Costs entered for the vehicle (incremented before a cost is stored, decremented after it is removed). */
  costCount: number;
}

export type VehicleDoc = Vehicle & VehicleStorage;
export type VehicleCostDoc = VehicleCost;

/** A `vehicle.used` event the projection could not accept (unknown or deleted vehicle), reported back. */
export interface UsageRefusalDoc extends OutboxFields {
  _id: string;
  tenantId: string;
  vehicleId: string;
  entryId: string;
  expenseId: string;
  revision: number;
  reason: string;
  at: Date;
}

/** A document's bytes, apart from its metadata so lists never load them. Same id as the metadata. */
export interface DocumentContentDoc {
  _id: string;
  tenantId: string;
  data: Buffer;
  /** When the bytes were written: the orphan sweep spares younger ones (an upload in flight). */
  createdAt?: Date;
}

export interface FleetModels {
  Vehicle: Model<VehicleDoc>;
  VehicleCost: Model<VehicleCostDoc>;
  UsageRefusal: Model<UsageRefusalDoc>;
  VehicleDocument: Model<VehicleDocument>;
  DocumentContent: Model<DocumentContentDoc>;
  Deadline: Model<Deadline>;
}

export const REFUSALS_COLLECTION = 'vehicle_usage_refusals';

const NAMES = ['Vehicle', 'VehicleCost', 'UsageRefusal', 'VehicleDocument', 'DocumentContent', 'Deadline'] as const;
const nullableString = { type: String, default: null };
const nullableNumber = { type: Number, default: null };

/** Every index starts with tenantId, except the outbox counter (the relay works across tenants). */
export function registerModels(conn: Connection): FleetModels {
  if (conn.models.Vehicle) return Object.fromEntries(NAMES.map((n) => [n, conn.models[n]])) as unknown as FleetModels;

  const vehicle = new Schema<VehicleDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      type: { type: String, required: true },
      name: { type: String, required: true },
      licensePlate: nullableString,
      make: nullableString,
      model: nullableString,
      fuelType: nullableString,
      // Decimal text ("6.50"): it is priced with money, never a binary float.
      fuelConsumption: nullableString,
      category: nullableNumber,
      engineCapacityCc: nullableNumber,
      enginePowerKw: nullableNumber,
      ownerEmployeeId: nullableString,
      isArchived: { type: Boolean, default: false },
      createdAt: { type: Date, required: true },
      editedAt: { type: Date, required: true },
      rev: { type: Number, required: true },
      usage: { type: Object, default: {} },
      inUse: { type: Number, default: 0 },
      costCount: { type: Number, default: 0 },
    },
    { collection: 'vehicles', versionKey: false, minimize: false },
  );
  vehicle.index({ tenantId: 1, name: 1 });
  vehicle.index({ tenantId: 1, ownerEmployeeId: 1 });
  vehicle.index({ tenantId: 1, type: 1 });
  vehicle.index({ tenantId: 1, isArchived: 1 });
  // Delta sync: updatedSince and the cursor go by (editedAt, _id) (docs/decisions/0156, 0159).
  vehicle.index({ tenantId: 1, editedAt: 1, _id: 1 });

  const cost = new Schema<VehicleCostDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      vehicleId: { type: String, required: true },
      date: { type: String, required: true },
      kind: { type: String, required: true },
      // A decimal string: amounts never pass through binary floating point.
      amount: { type: String, required: true },
      currency: { type: String, required: true },
      odometerKm: nullableNumber,
      note: nullableString,
      createdAt: { type: Date, required: true },
      editedAt: { type: Date, required: true },
    },
    { collection: 'vehicle_costs', versionKey: false },
  );
  cost.index({ tenantId: 1, vehicleId: 1, date: -1 });

  const refusal = new Schema<UsageRefusalDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      vehicleId: { type: String, required: true },
      entryId: { type: String, required: true },
      expenseId: { type: String, required: true },
      revision: { type: Number, required: true },
      reason: { type: String, required: true },
      at: { type: Date, required: true },
      ...outboxSchemaFields,
    },
    { collection: REFUSALS_COLLECTION, versionKey: false },
  );
  refusal.index({ tenantId: 1, vehicleId: 1 });

  const document = new Schema<VehicleDocument>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      vehicleId: { type: String, required: true },
      fileName: { type: String, required: true },
      contentType: { type: String, required: true },
      size: { type: Number, required: true },
      sha256: { type: String, required: true },
      uploadedAt: { type: Date, required: true },
      uploadedByEmployeeId: { type: String, required: true },
    },
    { collection: 'vehicle_documents', versionKey: false },
  );
  document.index({ tenantId: 1, vehicleId: 1, uploadedAt: -1 });

  const content = new Schema<DocumentContentDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      data: { type: Buffer, required: true },
      createdAt: { type: Date },
    },
    { collection: 'vehicle_document_contents', versionKey: false },
  );
  // The orphan sweep reads contents by age, across companies.
  content.index({ createdAt: 1 });

  const deadline = new Schema<Deadline>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      vehicleId: { type: String, required: true },
      kind: { type: String, required: true },
      title: nullableString,
      dueDate: { type: String, required: true },
      note: nullableString,
      remindEmployeeIds: { type: [String], default: [] },
      remindDaysBefore: { type: Number, required: true },
      nextReminderOn: nullableString,
      remindedFor: nullableString,
      lastReminderSentAt: { type: Date, default: null },
      createdAt: { type: Date, required: true },
      editedAt: { type: Date, required: true },
    },
    { collection: 'vehicle_deadlines', versionKey: false },
  );
  deadline.index({ tenantId: 1, vehicleId: 1, dueDate: 1 });
  // The reminder job works across tenants, like the outbox relay: its index cannot start with tenantId.
  deadline.index({ nextReminderOn: 1 });

  // Every query of these collections must name the tenant or say why not (docs/decisions/0081).
  for (const schema of [vehicle, cost, refusal, document, content, deadline] as Schema[]) schema.plugin(tenantScoped);

  return {
    Deadline: conn.model<Deadline>('Deadline', deadline),
    VehicleDocument: conn.model<VehicleDocument>('VehicleDocument', document),
    DocumentContent: conn.model<DocumentContentDoc>('DocumentContent', content),
    Vehicle: conn.model<VehicleDoc>('Vehicle', vehicle),
    VehicleCost: conn.model<VehicleCostDoc>('VehicleCost', cost),
    UsageRefusal: conn.model<UsageRefusalDoc>('UsageRefusal', refusal),
  };
}
