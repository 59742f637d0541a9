import type { Connection } from 'mongoose';
import { CollectionVersions, TenantModel, crossTenant, type TenantId } from '@travel/platform';
import { EntryStatus } from '../domain/entry';
import { AccountingPeriodStore } from './accounting-period-store';
import { EntryCounters } from './entry-numbers';
import { nextEntrySequence, registerModels, type EntryDoc } from './models';
import { registerWorkflowModels, type ApprovalWorkflowDoc } from './workflow-models';

export type { EntryCounterDoc, EntryDoc } from './models';
export type { ApprovalWorkflowDoc } from './workflow-models';
export type { CounterState } from './entry-numbers';
export { ENTRIES_COLLECTION } from './models';
export { EntryCounters } from './entry-numbers';
export type { AccountingPeriodStore } from './accounting-period-store';

/** An entry of some tenant holding an entry-number claim (its tenant is read from the stored record). */
export interface PendingNumberClaim {
  _id: string;
  tenantId: string;
}

/**
 * The only way to the entries context's store (docs/decisions/0082): a scope per `TenantId` for the
 * entries and the approval workflows, the entry-number counter taking a `TenantId`, and the one read
 * across tenants (the start-up completion of pending entry numbers) as a named function marked
 * `crossTenant` (docs/decisions/0081).
 */
export interface EntriesRepositories {
  /** The tenants' versions of the entries and workflows: every write through a scope bumps them (0155). */
  versions: CollectionVersions;
  entries: TenantModel<EntryDoc>;
  workflows: TenantModel<ApprovalWorkflowDoc>;
  /** The companies' accounting periods: closed months and their frozen exports (docs/decisions/0207, 0208). */
  periods: AccountingPeriodStore;
  /** The per-tenant, per-year counter as the trip-number protocol reads and advances it (0067). */
  counters: EntryCounters;
  /** The next entry number's sequence for a tenant and year (an order's number at create, 0046). */
  nextEntrySequence(tenant: TenantId, year: number): Promise<number>;
  /** Entries of every company with an entry-number claim a stopped process did not complete (start-up). */
  pendingNumberClaims(): Promise<PendingNumberClaim[]>;
  /**
   * Approved, unpaid entries of every company with a per-diem row without an amount, not yet announced to
   * payouts as unknown: before 0109 their amount due counted the row as 0 (the start-up migration).
   */
  unknownDueNotAnnounced(): Promise<EntryDoc[]>;
  /**
   * Live entries of every company, after `afterId` in id order, holding attachments not yet announced to
   * the receipts service (stored before it existed): the back-fill's next batch (docs/decisions/0202).
   */
  readingsNotAnnounced(afterId: string, limit: number): Promise<EntryDoc[]>;
}

export function entriesRepositories(conn: Connection): EntriesRepositories {
  const models = registerModels(conn);
  const { ApprovalWorkflow } = registerWorkflowModels(conn);
  const versions = new CollectionVersions(conn);
  return {
    versions,
    entries: new TenantModel(models.Entry, versions),
    workflows: new TenantModel(ApprovalWorkflow, versions),
    periods: new AccountingPeriodStore(conn, versions),
    counters: new EntryCounters(models),
    nextEntrySequence: (tenant, year) => nextEntrySequence(models, tenant, year),
    pendingNumberClaims: () =>
      models.Entry.find(
        { numberClaim: { $ne: null } },
        { _id: 1, tenantId: 1 },
        // Every tenant's pending claims, once at start-up (docs/decisions/0067).
        crossTenant('start-up recovery of entry numbers: the pending claims of every company'),
      ).lean<PendingNumberClaim[]>(),
    unknownDueNotAnnounced: () =>
      models.Entry.find(
        {
          status: EntryStatus.Approved,
          isPaidOut: false,
          deletedAt: null,
          // A row stored with a null amount (FerretDB answers `$elemMatch` on null with nothing).
          'perDiems.amountInBaseCurrency': { $type: 'null' },
          unknownDueAnnounced: { $ne: true },
        },
        null,
        crossTenant(
          'migration 0109: entries of every company whose amount due was counted with an unknown per-diem as 0',
        ),
      ).lean<EntryDoc[]>(),
    readingsNotAnnounced: (afterId, limit) =>
      models.Entry.find(
        {
          _id: { $gt: afterId },
          deletedAt: null,
          readingsAnnounced: { $ne: true },
          'attachments.0': { $exists: true },
        },
        null,
        {
          sort: { _id: 1 },
          limit,
          ...crossTenant('back-fill 0202: attachments of every company stored before the receipts service'),
        },
      ).lean<EntryDoc[]>(),
  };
}
