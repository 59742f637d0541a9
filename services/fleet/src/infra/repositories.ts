import type { Connection } from 'mongoose';
import { CollectionVersions, TenantModel, crossTenant, type TenantId } from '@travel/platform';
import type { Deadline } from '../domain/deadline';
import type { VehicleDocument } from '../domain/document';
import {
  registerModels,
  type DocumentContentDoc,
  type UsageRefusalDoc,
  type VehicleCostDoc,
  type VehicleDoc,
} from './models';

export type { DocumentContentDoc, UsageRefusalDoc, VehicleCostDoc, VehicleDoc } from './models';
export { REFUSALS_COLLECTION } from './models';

/**
 * The only way to the fleet context's store (docs/decisions/0082): a scope per `TenantId` for every
 * collection, and the reads across tenants (the reminder job's due deadlines, the orphan sweep's
 * contents) as named functions.
 */
export interface FleetRepositories {
  /**
   * The tenants' versions of the vehicles, costs, documents and deadlines: every write through their
   * scopes bumps them (docs/decisions/0155, 0159). Document bytes and usage refusals are not read as JSON.
   */
  versions: CollectionVersions;
  vehicles: TenantModel<VehicleDoc>;
  costs: TenantModel<VehicleCostDoc>;
  usageRefusals: TenantModel<UsageRefusalDoc>;
  documents: TenantModel<VehicleDocument>;
  documentContents: TenantModel<DocumentContentDoc>;
  deadlines: TenantModel<Deadline>;
  /** Deadlines of every company with a reminder due on or before `day` (the reminder job). */
  dueDeadlines(day: string, limit: number): Promise<Deadline[]>;
  /**
   * Document contents of every company written before `cutoff`, by id after `after` (the orphan sweep).
   * Contents written before they carried `createdAt` get it now, so their grace starts today.
   */
  contentsWrittenBefore(cutoff: Date, after: string, limit: number): Promise<Array<{ _id: string; tenantId: string }>>;
  /** Deletes a document's bytes; their size, or null when they were gone already. */
  removeContent(tenant: TenantId, id: string): Promise<number | null>;
}

export function fleetRepositories(conn: Connection): FleetRepositories {
  const models = registerModels(conn);
  const versions = new CollectionVersions(conn);
  return {
    versions,
    vehicles: new TenantModel(models.Vehicle, versions),
    costs: new TenantModel(models.VehicleCost, versions),
    usageRefusals: new TenantModel(models.UsageRefusal),
    documents: new TenantModel(models.VehicleDocument, versions),
    documentContents: new TenantModel(models.DocumentContent),
    deadlines: new TenantModel(models.Deadline, versions),
    dueDeadlines: (day, limit) =>
      models.Deadline.find(
        { nextReminderOn: { $lte: day } },
        null,
        crossTenant('reminder job: the deadlines due today, of every company'),
      )
        .limit(limit)
        .lean<Deadline[]>(),
    contentsWrittenBefore: async (cutoff, after, limit) => {
      const sweep = crossTenant('orphan sweep: document bytes of every company, by age');
      await models.DocumentContent.updateMany({ createdAt: null }, { $set: { createdAt: new Date() } }, sweep);
      return models.DocumentContent.find({ createdAt: { $lt: cutoff }, _id: { $gt: after } }, { tenantId: 1 }, sweep)
        .sort({ _id: 1 })
        .limit(limit)
        .lean<Array<{ _id: string; tenantId: string }>>();
    },
    removeContent: async (tenant, id) => {
      const removed = await models.DocumentContent.findOneAndDelete({ _id: id, tenantId: tenant }).lean();
      if (!removed) return null;
      // A lean read gives the driver's Binary, not a Buffer.
      const data = removed.data as unknown as { length: number | (() => number) };
      return typeof data.length === 'function' ? data.length() : data.length;
    },
  };
}
