import { randomUUID } from 'node:crypto';
import { listPage, notFound, tenantOf, throwIfInvalid, type CallerContext, type ListRequest } from '@travel/platform';
import { costFields, type CostKind, type CostWrite, type VehicleCost } from '../domain/cost';
import type { FleetRepositories, VehicleCostDoc } from '../infra/repositories';
import type { VehicleAccess } from './vehicle-access';

/**
 * Costs of a vehicle. The vehicle's `costCount` is raised before a cost is stored and lowered after one
 * is removed, each with a new revision: a crash between the two steps leaves the count too high (the
 * vehicle stays undeletable, the safe side), never too low, and a delete that checked an older revision
 * decides again.
 */
export class CostsApp {
  constructor(
    private readonly repos: FleetRepositories,
    private readonly access: VehicleAccess,
  ) {}

  private scope(caller: CallerContext) {
    return this.repos.costs.of(tenantOf(caller));
  }

  async list(caller: CallerContext, vehicleId: string, filter: { kind?: CostKind }, page: ListRequest) {
    const vehicle = await this.access.visible(caller, vehicleId);
    const query: Record<string, unknown> = { vehicleId: vehicle._id };
    if (filter.kind) query.kind = filter.kind;
    return listPage<VehicleCostDoc, VehicleCost>(
      this.scope(caller),
      query,
      page,
      { date: -1, createdAt: -1, _id: 1 },
      (c) => c,
    );
  }

  async create(caller: CallerContext, vehicleId: string, input: CostWrite): Promise<VehicleCost> {
    const vehicle = await this.access.visible(caller, vehicleId);
    const { fields, errors } = costFields(input);
    throwIfInvalid(errors);
    const counted = await this.repos.vehicles
      .of(tenantOf(caller))
      .updateOne({ _id: vehicle._id }, { $inc: { costCount: 1, rev: 1 } });
    if (counted.matchedCount === 0) throw notFound('vehicle');
    const now = new Date();
    const cost: VehicleCost = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      vehicleId: vehicle._id,
      ...fields,
      createdAt: now,
      editedAt: now,
    };
    try {
      await this.scope(caller).create(cost);
    } catch (err) {
      await this.uncount(caller, vehicle._id).catch(() => undefined);
      throw err;
    }
    return cost;
  }

  /** Full replace of a cost's fields. */
  async update(caller: CallerContext, vehicleId: string, costId: string, input: CostWrite): Promise<VehicleCost> {
    const current = await this.access.filedUnder(caller, vehicleId, 'costs', costId);
    const { fields, errors } = costFields(input);
    throwIfInvalid(errors);
    const editedAt = new Date();
    const res = await this.scope(caller).updateOne({ _id: current._id }, { $set: { ...fields, editedAt } });
    if (res.matchedCount === 0) throw notFound('cost');
    return { ...current, ...fields, editedAt };
  }

  async delete(caller: CallerContext, vehicleId: string, costId: string): Promise<void> {
    const current = await this.access.filedUnder(caller, vehicleId, 'costs', costId);
    const res = await this.scope(caller).deleteOne({ _id: current._id });
    if (res.deletedCount === 0) throw notFound('cost');
    await this.uncount(caller, current.vehicleId);
  }

  private uncount(caller: CallerContext, vehicleId: string) {
    return this.repos.vehicles
      .of(tenantOf(caller))
      .updateOne({ _id: vehicleId, costCount: { $gt: 0 } }, { $inc: { costCount: -1, rev: 1 } });
  }
}
