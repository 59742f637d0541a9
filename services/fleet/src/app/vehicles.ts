import { randomUUID } from 'node:crypto';
import {
  conflict,
  tenantOf,
  listPage,
  type CallerContext,
  type FieldErrors,
  type ListRequest,
  throwIfInvalid,
  withRevisionRetry,
} from '@travel/platform';
import {
  deleteBlocker,
  seesAllPersonal,
  vehicleFields,
  type Vehicle,
  type VehicleFields,
  type VehicleType,
  type VehicleWrite,
} from '../domain/vehicle';
import type { FleetRepositories, VehicleDoc } from '../infra/repositories';
import type { EmployeeDirectory } from './employee-directory';
import type { VehicleAccess } from './vehicle-access';
import { deleteDocumentsOf } from './vehicle-documents-removal';

export interface VehicleFilter {
  type?: VehicleType;
  isArchived?: boolean;
  ownerEmployeeId?: string;
}

export class VehiclesApp {
  constructor(
    private readonly repos: FleetRepositories,
    private readonly employees: EmployeeDirectory,
    private readonly access: VehicleAccess,
  ) {}

  private scope(caller: CallerContext) {
    return this.repos.vehicles.of(tenantOf(caller));
  }

  private async ownerErrors(
    caller: CallerContext,
    fields: VehicleFields,
    before?: VehicleFields,
  ): Promise<FieldErrors> {
    const owner = fields.ownerEmployeeId;
    // An unchanged owner was checked when it was set: a GET body PUT back stays valid.
    if (!owner || owner === before?.ownerEmployeeId) return {};
    return (await this.employees.exists(caller.tenantId, owner))
      ? {}
      : { ownerEmployeeId: ['must be an employee of this company'] };
  }

  async create(caller: CallerContext, input: VehicleWrite): Promise<Vehicle> {
    const { fields, errors } = vehicleFields(input);
    throwIfInvalid(errors, Object.keys(errors).length ? {} : await this.ownerErrors(caller, fields));
    const now = new Date();
    const vehicle: Vehicle = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      ...fields,
      isArchived: false,
      createdAt: now,
      editedAt: now,
    };
    await this.scope(caller).create({ ...vehicle, rev: 0, usage: {}, inUse: 0, costCount: 0 });
    return vehicle;
  }

  async get(caller: CallerContext, id: string): Promise<Vehicle> {
    return this.access.visible(caller, id);
  }

  async list(caller: CallerContext, filter: VehicleFilter, page: ListRequest) {
    const query: Record<string, unknown> = {};
    if (filter.type) query.type = filter.type;
    if (filter.isArchived !== undefined) query.isArchived = filter.isArchived;
    if (filter.ownerEmployeeId) query.ownerEmployeeId = filter.ownerEmployeeId.toLowerCase();
    // Without a privileged flag: company vehicles and the caller's own Personal ones only.
    if (!seesAllPersonal(caller)) query.$or = [{ type: 'Company' }, { ownerEmployeeId: caller.employeeId }];
    return listPage<VehicleDoc, Vehicle>(this.scope(caller), query, page, { name: 1, _id: 1 }, (v) => v);
  }

  /** Full replace; see vehicleFields for what an omission means. An unchanged body changes nothing. */
  async update(caller: CallerContext, id: string, input: VehicleWrite): Promise<Vehicle> {
    return withRevisionRetry('vehicle', async () => {
      const current = await this.access.visible(caller, id);
      const { fields, errors } = vehicleFields(input, current);
      throwIfInvalid(errors, Object.keys(errors).length ? {} : await this.ownerErrors(caller, fields, current));
      const unchanged = (Object.keys(fields) as (keyof VehicleFields)[]).every(
        (k) => fields[k] === (current[k] ?? null),
      );
      if (unchanged) return current;
      const editedAt = new Date();
      await this.scope(caller).commit(current, { $set: { ...fields, editedAt } });
      return { ...current, ...fields, editedAt };
    });
  }

  /** Archive (true) or unarchive (false); setting the state a vehicle already has changes nothing. */
  async setArchived(caller: CallerContext, id: string, isArchived: boolean): Promise<Vehicle> {
    return withRevisionRetry('vehicle', async () => {
      const current = await this.access.visible(caller, id);
      if (current.isArchived === isArchived) return current;
      const editedAt = new Date();
      await this.scope(caller).commit(current, { $set: { isArchived, editedAt } });
      return { ...current, isArchived, editedAt };
    });
  }

  /**
   * 409 while a live mileage expense uses the vehicle or a cost is entered; otherwise removed. The delete
   * is conditional on the revision it checked, and every first use and every cost moves the revision, so
   * a use or cost that comes in between makes it decide again (docs/decisions/0032).
   */
  async delete(caller: CallerContext, id: string): Promise<void> {
    await withRevisionRetry('vehicle', async () => {
      const current = await this.access.visible(caller, id);
      const blocker = deleteBlocker({ inUse: current.inUse ?? 0, costCount: current.costCount ?? 0 });
      if (blocker) throw conflict(blocker);
      const res = await this.scope(caller).deleteOne({ _id: current._id, rev: current.rev });
      return res.deletedCount === 1 ? true : undefined;
    });
    await deleteDocumentsOf(this.repos, tenantOf(caller), id.toLowerCase());
    await this.repos.deadlines.of(tenantOf(caller)).deleteMany({ vehicleId: id.toLowerCase() });
  }
}
