// A company setting (reference-fx's allow-lists and per-diem policy, entries' journal accounts) is one
// document per tenant and kind, replaced whole: last write wins, there is nothing to merge. Its event goes
// into the same atomic update (single-document outbox), and the relay is nudged (docs/decisions/0170).
import type { Model } from 'mongoose';
import type { OutboxEvent } from '../messaging/events';
import { outboxUpdate, type OutboxFields } from '../messaging/outbox';
import { nudgeRelayOf } from '../messaging/outbox-nudge';
import type { CollectionVersions } from './collection-versions';
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
  /** With the versions, the write bumps the tenant's version of the collection, for conditional GETs (0155, 0159). */
  versions?: CollectionVersions,
): Promise<T> {
  const { id, tenantId, fields, employeeId, event } = write;
  const update = outboxUpdate(
    { $set: { tenantId, ...fields, editedAt: new Date(), editedByEmployeeId: employeeId } },
    event,
  );
  // No projection here: FerretDB does not implement `fields` on findAndModify (the outbox comes back too).
  const replace = () => model.findOneAndUpdate({ _id: id, tenantId }, update, { upsert: true, new: true }).lean<T>();
  const doc = await (versions ? versions.around(tenantId, model.collection.collectionName, replace) : replace());
  nudgeRelayOf(model.db);
  return doc!;
}
