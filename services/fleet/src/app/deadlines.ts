import { randomUUID } from 'node:crypto';
import {
  notFound,
  tenantOf,
  listPage,
  type CallerContext,
  type FieldErrors,
  type ListRequest,
  throwIfInvalid,
  withRevisionRetry,
} from '@travel/platform';
import {
  deadlineFields,
  nextReminderOn,
  type Deadline,
  type DeadlineFields,
  type DeadlineWrite,
} from '../domain/deadline';
import type { FleetRepositories } from '../infra/repositories';
import type { VehicleAccess } from './vehicle-access';
import type { EmployeeDirectory } from './employee-directory';

export class DeadlinesApp {
  constructor(
    private readonly repos: FleetRepositories,
    private readonly access: VehicleAccess,
    private readonly employees: EmployeeDirectory,
  ) {}

  private scope(caller: CallerContext) {
    return this.repos.deadlines.of(tenantOf(caller));
  }

  private async decide(caller: CallerContext, input: DeadlineWrite, before?: Deadline): Promise<DeadlineFields> {
    const { fields, errors } = deadlineFields(input);
    const recipientErrors: FieldErrors = {};
    const added = fields.remindEmployeeIds.filter((id) => !before?.remindEmployeeIds.includes(id));
    if (!errors.remindEmployeeIds && added.length) {
      const known = await Promise.all(added.map((id) => this.employees.exists(caller.tenantId, id)));
      const unknown = added.filter((_, i) => !known[i]);
      if (unknown.length)
        recipientErrors.remindEmployeeIds = [`must all be employees of this company; unknown: ${unknown.join(', ')}`];
    }
    throwIfInvalid(errors, recipientErrors);
    return fields;
  }

  async list(caller: CallerContext, vehicleId: string, page: ListRequest) {
    const vehicle = await this.access.visible(caller, vehicleId);
    return listPage<Deadline, Deadline>(
      this.scope(caller),
      { vehicleId: vehicle._id },
      page,
      { dueDate: 1, _id: 1 },
      (d) => d,
    );
  }

  async create(caller: CallerContext, vehicleId: string, input: DeadlineWrite): Promise<Deadline> {
    const vehicle = await this.access.visible(caller, vehicleId);
    const fields = await this.decide(caller, input);
    const now = new Date();
    const deadline: Deadline = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      vehicleId: vehicle._id,
      ...fields,
      nextReminderOn: nextReminderOn(fields, null),
      remindedFor: null,
      lastReminderSentAt: null,
      createdAt: now,
      editedAt: now,
    };
    await this.scope(caller).create(deadline);
    return deadline;
  }

  /** Conditional on the reminder state read, so a reminder sent meanwhile is not scheduled again. */
  async update(caller: CallerContext, vehicleId: string, deadlineId: string, input: DeadlineWrite) {
    return withRevisionRetry('deadline', async () => {
      const current = await this.access.filedUnder(caller, vehicleId, 'deadlines', deadlineId);
      const fields = await this.decide(caller, input, current);
      const next = { ...fields, nextReminderOn: nextReminderOn(fields, current.remindedFor), editedAt: new Date() };
      const res = await this.scope(caller).updateOne(
        {
          _id: current._id,
          remindedFor: current.remindedFor,
          nextReminderOn: current.nextReminderOn,
        },
        { $set: next },
      );
      return res.matchedCount === 1 ? { ...current, ...next } : undefined;
    });
  }

  async delete(caller: CallerContext, vehicleId: string, deadlineId: string): Promise<void> {
    const current = await this.access.filedUnder(caller, vehicleId, 'deadlines', deadlineId);
    const res = await this.scope(caller).deleteOne({ _id: current._id });
    if (res.deletedCount === 0) throw notFound('deadline');
  }
}
