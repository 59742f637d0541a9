// Who may see a vehicle and the records filed under it, over the fleet repositories (as EntryAccess does for
// an entry, docs/decisions/0168 and 0212): the vehicles, costs, documents and deadlines use cases ask here,
// so none of them depends on another use case's module.
import { notFound, tenantOf, type CallerContext, type TenantModel } from '@travel/platform';
import type { Deadline } from '../domain/deadline';
import type { VehicleDocument } from '../domain/document';
import { canSee } from '../domain/vehicle';
import type { FleetRepositories, VehicleCostDoc, VehicleDoc } from '../infra/repositories';

/** The collections of records that belong to one vehicle, and what a 404 calls each record. */
const FILED_UNDER_A_VEHICLE = { costs: 'cost', documents: 'document', deadlines: 'deadline' } as const;
interface Filed {
  costs: VehicleCostDoc;
  documents: VehicleDocument;
  deadlines: Deadline;
}
type FiledUnder = keyof typeof FILED_UNDER_A_VEHICLE & keyof Filed;

export class VehicleAccess {
  constructor(private readonly repos: Pick<FleetRepositories, 'vehicles' | FiledUnder>) {}

  /** The vehicle as this caller may see it: another company's, or another employee's Personal one, is 404. */
  async visible(caller: CallerContext, id: string): Promise<VehicleDoc> {
    const doc = await this.repos.vehicles.of(tenantOf(caller)).get(id.toLowerCase());
    if (!doc || !canSee(caller, doc)) throw notFound('vehicle');
    return doc;
  }

  /** A cost, document or deadline of a vehicle the caller sees; 404 when it is another vehicle's (or none). */
  async filedUnder<K extends FiledUnder>(
    caller: CallerContext,
    vehicleId: string,
    kind: K,
    recordId: string,
  ): Promise<Filed[K]> {
    const vehicle = await this.visible(caller, vehicleId);
    const records = this.repos[kind] as unknown as TenantModel<Filed[K]>;
    const record = await records.of(tenantOf(caller)).get(recordId.toLowerCase());
    if (!record || record.vehicleId !== vehicle._id) throw notFound(FILED_UNDER_A_VEHICLE[kind]);
    return record;
  }
}
