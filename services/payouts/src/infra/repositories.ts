import type { Connection } from 'mongoose';
import { CollectionVersions, TenantModel, crossTenant, stampMissingEditedAt } from '@travel/platform';
import { registerModels, type BatchDoc, type ReadyDoc } from './models';

export type { BatchDoc, ReadyDoc } from './models';
export { BATCHES_COLLECTION } from './models';

/**
 * The only way to the payouts context's store (docs/decisions/0082): the projection and the batches through
 * a scope for a `TenantId`, and the two reads across tenants as named functions (docs/decisions/0081).
 */
export interface PayoutsRepositories {
  /** The tenants' versions of the projection and the batches: every write through a scope bumps them (0155, 0159). */
  versions: CollectionVersions;
  ready: TenantModel<ReadyDoc>;
  batches: TenantModel<BatchDoc>;
  /** The projection row of an entry id, whichever company it belongs to (an event naming another company's entry is refused). */
  readyRowOfEntry(entryId: string): Promise<ReadyDoc | null>;
  /** The batches of every company in a state the recovery job finishes or rolls back. */
  batchesIn(state: BatchDoc['state']): Promise<BatchDoc[]>;
  /** Start-up: records written before `editedAt` existed get the start's time (docs/decisions/0159). */
  stampEdits(): Promise<void>;
  /** Rolled-back batches of every company whose reservations may still hold after `now` (docs/decisions/0110). */
  rolledBackHoldingAfter(now: Date): Promise<BatchDoc[]>;
}

export function payoutsRepositories(conn: Connection): PayoutsRepositories {
  const models = registerModels(conn);
  const versions = new CollectionVersions(conn);
  return {
    versions,
    ready: new TenantModel(models.Ready, versions),
    batches: new TenantModel(models.Batch, versions),
    stampEdits: async () => {
      await stampMissingEditedAt(models.Ready);
      await stampMissingEditedAt(models.Batch);
    },
    readyRowOfEntry: (entryId) =>
      models.Ready.findOne(
        { _id: entryId },
        null,
        crossTenant('projection: an entry id owned by another company is refused'),
      ).lean<ReadyDoc>(),
    batchesIn: (state) =>
      models.Batch.find({ state }, null, crossTenant('payout recovery: the unfinished batches of every company')).lean<
        BatchDoc[]
      >(),
    rolledBackHoldingAfter: (now) =>
      models.Batch.find(
        { state: 'rolledBack', reservedUntil: { $gt: now } },
        null,
        crossTenant('payout recovery: late reservations of rolled-back batches of every company'),
      ).lean<BatchDoc[]>(),
  };
}
