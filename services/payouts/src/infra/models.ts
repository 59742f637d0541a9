import { Schema, type Connection, type Model } from 'mongoose';
import { keepsEditedAt, tenantScoped } from '@travel/platform';
import type { Batch } from '../domain/batch';
import type { ReadyRow } from '../domain/ready';

/** `editedAt`: the record's last change, kept by the schema for delta sync (docs/decisions/0159). */
export type ReadyDoc = ReadyRow & { editedAt?: Date };
export type BatchDoc = Batch & { editedAt?: Date };

export interface PayoutsModels {
  Ready: Model<ReadyDoc>;
  Batch: Model<BatchDoc>;
}

export const BATCHES_COLLECTION = 'payout_batches';

/**
 * The payouts context's own collections: the ready-for-payout projection (one row per entry, by entry id)
 * and the batches. Every index starts with tenantId, except the batches' `state`
 * index the recovery job uses across tenants.
 */
export function registerModels(conn: Connection): PayoutsModels {
  if (conn.models.Ready) return { Ready: conn.models.Ready, Batch: conn.models.Batch } as PayoutsModels;

  const ready = new Schema<ReadyDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      entryNumber: { type: String, default: '' },
      employeeId: { type: String, required: true },
      status: { type: Number, required: true },
      isPaidOut: { type: Boolean, required: true },
      deleted: { type: Boolean, required: true },
      approvedAt: { type: Date, default: null },
      baseCurrency: { type: String, required: true },
      amountDue: { type: String, default: null },
      ready: { type: Boolean, required: true },
      rev: { type: Number, required: true },
    },
    { collection: 'payout_ready', versionKey: false },
  );
  // The list: {tenantId, ready: true}, most recently approved first, then by id.
  ready.index({ tenantId: 1, ready: 1, approvedAt: -1, _id: 1 });
  // Delta sync goes by (editedAt, _id), which every write moves (docs/decisions/0156, 0159).
  keepsEditedAt(ready);
  ready.index({ tenantId: 1, editedAt: 1, _id: 1 });

  const entry = new Schema(
    {
      entryId: { type: String, required: true },
      entryNumber: { type: String, default: '' },
      employeeId: { type: String, required: true },
      amountDue: { type: String, required: true },
      direction: { type: String, required: true },
    },
    { _id: false },
  );
  // A BankTransfer batch's payees as they were when it was made (docs/decisions/0111): personal data.
  const payee = new Schema(
    {
      employeeId: { type: String, required: true },
      name: { type: String, required: true },
      iban: { type: String, default: null },
      bic: { type: String, default: null },
    },
    { _id: false },
  );
  // Who marked the batch sent to the bank, and when (docs/decisions/0191).
  const sentToBank = new Schema(
    {
      at: { type: Date, required: true },
      employeeId: { type: String, required: true },
      keyIssuedByEmployeeId: { type: String, default: null },
    },
    { _id: false },
  );
  const batch = new Schema<BatchDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      state: { type: String, required: true },
      payoutMethod: { type: String, required: true },
      currencyCode: { type: String, required: true },
      entryIds: { type: [String], default: [] },
      entries: { type: [entry], default: [] },
      payees: { type: [payee], default: [] },
      reservedUntil: { type: Date, default: null },
      createdAt: { type: Date, required: true },
      createdByEmployeeId: { type: String, required: true },
      completedAt: { type: Date, default: null },
      paymentFileDownloadedAt: { type: Date, default: null },
      sentToBank: { type: sentToBank, default: null },
      deletedAt: { type: Date, default: null },
      stateAt: { type: Date, required: true },
      rev: { type: Number, required: true },
    },
    { collection: BATCHES_COLLECTION, versionKey: false, minimize: false },
  );
  batch.index({ tenantId: 1, state: 1, createdAt: -1 });
  batch.index({ state: 1 });
  keepsEditedAt(batch);
  batch.index({ tenantId: 1, editedAt: 1, _id: 1 });
  // Every query names its tenant, or says why it may not (docs/decisions/0081).
  ready.plugin(tenantScoped);
  batch.plugin(tenantScoped);

  return {
    Ready: conn.model<ReadyDoc>('Ready', ready),
    Batch: conn.model<BatchDoc>('Batch', batch),
  };
}
