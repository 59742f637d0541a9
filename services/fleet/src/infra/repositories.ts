import type { Connection } from 'mongoose';
import { TenantModel, crossTenant } from '@travel/platform';
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
 * collection, and the one read across tenants (the reminder job's due deadlines) as a named function.
 */
export interface FleetRepositories {
  vehicles: TenantModel<VehicleDoc>;
  costs: TenantModel<VehicleCostDoc>;
  usageRefusals: TenantModel<UsageRefusalDoc>;
  documents: TenantModel<VehicleDocument>;
  documentContents: TenantModel<DocumentContentDoc>;
  deadlines: TenantModel<Deadline>;
  /** Deadlines of every company with a reminder due on or before `day` (the reminder job). */
  dueDeadlines(day: string, limit: number): Promise<Deadline[]>;
}

export function fleetRepositories(conn: Connection): FleetRepositories {
  const models = registerModels(conn);
  return {
    vehicles: new TenantModel(models.Vehicle),
    costs: new TenantModel(models.VehicleCost),
    usageRefusals: new TenantModel(models.UsageRefusal),
    documents: new TenantModel(models.VehicleDocument),
    documentContents: new TenantModel(models.DocumentContent),
    deadlines: new TenantModel(models.Deadline),
    dueDeadlines: (day, limit) =>
      models.Deadline.find(
        { nextReminderOn: { $lte: day } },
        null,
        crossTenant('reminder job: the deadlines due today, of every company'),
      )
        .limit(limit)
        .lean<Deadline[]>(),
  };
}
