import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKey, tenantScoped, outboxSchemaFields, type OutboxFields } from '@travel/platform';
import type { TravelEntry } from '../domain/entry';
import type { PayoutFields } from '../domain/payout';
import { perDiemSchema } from './per-diem-model';
import { workflowEntrySchemaFields } from './workflow-models';

export interface EntryStorage {
  /** Incremented by every write; an update applies only to the revision it read. */
  rev: number;
  /** Set once the 0109 migration told payouts this entry's amount due is unknown. */
  unknownDueAnnounced?: boolean;
  /**
   * Set when every image or PDF attachment of the entry was announced to the receipts service: at create,
   * or by the back-fill of attachments stored before it existed (docs/decisions/0202). Absent: not yet.
   */
  readingsAnnounced?: boolean;
}

export type EntryDoc = TravelEntry & PayoutFields & EntryStorage & OutboxFields;

/** Per tenant and year: the last entry number issued. */
export interface EntryCounterDoc {
  _id: string;
  tenantId: string;
  year: number;
  seq: number;
}

export interface EntriesModels {
  Entry: Model<EntryDoc>;
  EntryCounter: Model<EntryCounterDoc>;
}

export const ENTRIES_COLLECTION = 'travel_entries';

const NAMES = ['Entry', 'EntryCounter'] as const;
const nullableString = { type: String, default: null };

/**
 * An entry and its children (allocations, expenses) are one document: a create or a child change is a
 * single-document write together with its outbox events (docs/decisions/0003). Every index starts with
 * tenantId; detail reads go by `_id` with the tenant checked on the result (FerretDB pushes down `_id` only).
 */
export function registerModels(conn: Connection): EntriesModels {
  if (conn.models.Entry) return Object.fromEntries(NAMES.map((n) => [n, conn.models[n]])) as unknown as EntriesModels;

  const allocation = new Schema(
    {
      costCenterId: { type: String, required: true },
      percentage: nullableString,
      amount: nullableString,
    },
    { _id: false },
  );

  const expense = new Schema(
    {
      _id: String,
      kind: { type: String, required: true },
      date: { type: String, required: true },
      description: nullableString,
      amount: { type: String, required: true },
      currencyCode: { type: String, required: true },
      manualExchangeRate: nullableString,
      amountInBaseCurrency: { type: String, required: true },
      exchangeRateSource: nullableString,
      vehicleId: nullableString,
      distanceKm: nullableString,
      vehicleKind: nullableString,
      fuelType: nullableString,
      fuelConsumption: nullableString,
      fuelUnitPriceOverride: nullableString,
      mileagePetrolGrade: nullableString,
      ratePerKm: nullableString,
      fuelUnitPrice: nullableString,
      // The receipt reading an expense was created from (docs/decisions/0201); absent on others.
      receiptReading: {
        type: new Schema({ attachmentId: String, engine: String, readAt: Date, corrected: [String] }, { _id: false }),
        default: undefined,
      },
      // Its receipts and a declared missing receipt (docs/decisions/0204); absent on older rows.
      receiptAttachmentIds: { type: [String], default: undefined },
      missingReceiptDeclaration: {
        type: new Schema(
          { reason: String, declaredByEmployeeId: String, apiKeyId: String, declaredAt: Date, digest: String },
          { _id: false },
        ),
        default: undefined,
      },
      revision: { type: Number, required: true },
      createdAt: { type: Date, required: true },
      editedAt: { type: Date, required: true },
    },
    { minimize: false },
  );

  const attachment = new Schema(
    {
      _id: String,
      fileName: { type: String, required: true },
      contentType: { type: String, required: true },
      size: { type: Number, required: true },
      createdAt: { type: Date, required: true },
    },
    { minimize: false },
  );

  const entry = new Schema<EntryDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      employeeId: { type: String, required: true },
      entryNumber: { type: String, default: '' },
      isRequest: { type: Boolean, required: true },
      travelType: { type: String, required: true },
      departureDate: { type: String, required: true },
      returnDate: { type: String, required: true },
      destination: nullableString,
      purpose: nullableString,
      description: nullableString,
      report: nullableString,
      departureLocationPlaceId: nullableString,
      destinationPlaceId: nullableString,
      destinationCountryCode: nullableString,
      // Where the country came from, or why there is none (docs/decisions/0131); absent on older entries.
      destinationCountryResolution: {
        type: new Schema(
          { source: String, reason: nullableString, candidates: [String], detail: String },
          { _id: false },
        ),
        default: undefined,
      },
      status: { type: Number, required: true },
      phase: { type: Number, default: null },
      isPaidOut: { type: Boolean, default: false },
      paidOutAt: { type: Date, default: null },
      advancePayment: { type: String, required: true },
      currencyCode: { type: String, required: true },
      advancePaymentDate: { type: String, required: true },
      manualAdvanceExchangeRate: nullableString,
      baseCurrency: { type: String, required: true },
      advancePaymentInBaseCurrency: { type: String, required: true },
      advancePaymentExchangeRateSource: nullableString,
      costCenterAllocations: { type: [allocation], default: [] },
      expenses: { type: [expense], default: [] },
      perDiems: { type: [perDiemSchema()], default: [] },
      attachments: { type: [attachment], default: [] },
      // The expense policy's findings as of the last write (docs/decisions/0203); absent on older entries.
      policyFindings: {
        type: [
          new Schema(
            {
              rule: String,
              effectiveFrom: String,
              check: String,
              kind: String,
              expenseId: nullableString,
              date: nullableString,
              amount: String,
              limit: String,
              amountOver: String,
              onBreach: String,
            },
            { _id: false },
          ),
        ],
        default: undefined,
      },
      createdAt: { type: Date, required: true },
      editedAt: { type: Date, required: true },
      deletedAt: { type: Date, default: null },
      // Payouts (docs/decisions/0075): the batch that reserved or paid the entry out (approvedAt: workflow).
      payoutBatchId: nullableString,
      // When an uncommitted reservation lapses (docs/decisions/0110).
      payoutReservedUntil: { type: Date, default: null },
      unknownDueAnnounced: { type: Boolean },
      readingsAnnounced: { type: Boolean },
      rev: { type: Number, required: true },
      ...workflowEntrySchemaFields,
      ...outboxSchemaFields,
    },
    { collection: ENTRIES_COLLECTION, versionKey: false, minimize: false },
  );
  entry.index({ tenantId: 1, deletedAt: 1, departureDate: -1 });
  entry.index({ tenantId: 1, employeeId: 1, departureDate: -1 });
  entry.index({ tenantId: 1, isRequest: 1, departureDate: -1 });
  entry.index({ tenantId: 1, status: 1, departureDate: -1 });
  // Delta sync: updatedSince and the cursor go by (editedAt, _id) (docs/decisions/0156).
  entry.index({ tenantId: 1, editedAt: 1, _id: 1 });

  const counter = new Schema<EntryCounterDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      year: { type: Number, required: true },
      seq: { type: Number, required: true },
    },
    { collection: 'entry_counters', versionKey: false },
  );
  counter.index({ tenantId: 1, year: 1 });
  // Every query names its tenant, or says why it may not (docs/decisions/0081).
  entry.plugin(tenantScoped);
  counter.plugin(tenantScoped);

  return {
    Entry: conn.model<EntryDoc>('Entry', entry),
    EntryCounter: conn.model<EntryCounterDoc>('EntryCounter', counter),
  };
}

/** The next entry number's sequence for a tenant and year: one atomic increment (upsert on first use). */
export async function nextEntrySequence(models: EntriesModels, tenantId: string, year: number): Promise<number> {
  const next = () =>
    models.EntryCounter.findOneAndUpdate(
      { _id: `${tenantId}:${year}`, tenantId },
      { $inc: { seq: 1 }, $setOnInsert: { year } },
      { upsert: true, new: true, lean: true },
    );
  try {
    return (await next())!.seq;
  } catch (err) {
    // Two first numbers of a year at once: both upsert, one insert loses on _id; the counter exists now.
    if (!isDuplicateKey(err)) throw err;
    return (await next())!.seq;
  }
}
