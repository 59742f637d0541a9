// A company setting (reference-fx's allow-lists and per-diem policy, entries' journal accounts) is one
// document per tenant and kind, replaced whole: last write wins, there is nothing to merge. Its event goes
// into the same atomic update (single-document outbox).
import type { Model } from 'mongoose';
import type { OutboxEvent } from '../messaging/events';
import { outboxUpdate, type OutboxFields } from '../messaging/outbox';
import type { TenantId } from './tenant-guard';

export interface SettingWrite {
  /** The document's id (the tenant's, or `<tenant>:<kind>`). */
  id: string;
  tenantId: TenantId;
  /** The setting's own fields, stored as given. */
  fields: Record<string, unknown>;
  employeeId: string;
  event: OutboxEvent;
}

export async function replaceSetting<T extends OutboxFields>(
  model: Model<T>,
  write: SettingWrite,
  nudgeOutbox: () => void,
): Promise<T> {
  const { id, tenantId, fields, employeeId, event } = write;
  const update = outboxUpdate(
    { $set: { tenantId, ...fields, editedAt: new Date(), editedByEmployeeId: employeeId } },
    event,
  );
  // No projection here: FerretDB does not implement `fields` on findAndModify (the outbox comes back too).
  const doc = await model.findOneAndUpdate({ _id: id, tenantId }, update, { upsert: true, new: true }).lean<T>();
  nudgeOutbox();
  return doc!;
}
