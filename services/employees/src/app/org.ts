import { randomUUID } from 'node:crypto';
import { TenantScope, conflict, notFound, paginate, type CallerContext, type PageRequest } from '@travel/platform';
import {
  costCenterFields,
  departmentFields,
  parentProblem,
  toCostCenterResponse,
  toDepartmentResponse,
  type CostCenter,
  type CostCenterWrite,
  type Department,
  type DepartmentWrite,
} from '../domain/org';
import { codeKey, textSearchFilter } from '../domain/text';
import type { CostCenterDoc, DepartmentDoc, EmployeesModels } from '../infra/models';
import { atRevision, throwIfInvalid, uniqueWrite, withRevisionRetry } from './writes';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Departments: create, read, full-replace update, delete (refused while employees or sub-departments use one). */
export class DepartmentsApp {
  constructor(private readonly models: EmployeesModels) {}

  private scope(caller: CallerContext) {
    return new TenantScope<DepartmentDoc>(this.models.Department, caller.tenantId);
  }

  private async codeTaken(caller: CallerContext, code: string, exceptId?: string): Promise<boolean> {
    return (
      (await this.scope(caller).count({ codeKey: codeKey(code), ...(exceptId ? { _id: { $ne: exceptId } } : {}) })) > 0
    );
  }

  private codeConflict = (code: string) => `Another department of this company has the code "${code}".`;

  /** Every department of the company and its parent, for the tree checks (one query, ids only). */
  private async parents(caller: CallerContext): Promise<Map<string, string | null>> {
    const rows = await this.scope(caller).find().select({ _id: 1, parentId: 1 }).lean();
    return new Map(rows.map((r) => [r._id, r.parentId ?? null]));
  }

  async create(caller: CallerContext, input: DepartmentWrite) {
    const { fields, errors } = departmentFields(input);
    if (fields.parentId) {
      const problem = parentProblem(undefined, fields.parentId, await this.parents(caller));
      if (problem) errors.parentId = [problem];
    }
    throwIfInvalid(errors);
    if (await this.codeTaken(caller, fields.code)) throw conflict(this.codeConflict(fields.code));
    const now = new Date();
    const department: Department = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      ...fields,
      createdAt: now,
      editedAt: now,
      rev: 0,
    };
    await uniqueWrite(
      () => this.models.Department.create(department),
      () => this.codeTaken(caller, fields.code, department._id),
      this.codeConflict(fields.code),
    );
    return toDepartmentResponse(department);
  }

  async get(caller: CallerContext, id: string) {
    const doc = await this.scope(caller).findById(id.toLowerCase()).lean<DepartmentDoc>();
    if (!doc) throw notFound('department');
    return toDepartmentResponse(doc);
  }

  async list(caller: CallerContext, filter: { q?: string; parentId?: string }, page: PageRequest) {
    const query: Record<string, unknown> = { ...textSearchFilter(filter.q, ['name', 'code']) };
    if (filter.parentId) query.parentId = filter.parentId.toLowerCase();
    return paginate<DepartmentDoc, ReturnType<typeof toDepartmentResponse>>(
      this.scope(caller),
      query,
      page,
      { name: 1, _id: 1 },
      toDepartmentResponse,
    );
  }

  /** Full replace: an omitted `parentId` makes the department a root one. */
  async update(caller: CallerContext, rawId: string, input: DepartmentWrite) {
    const id = rawId.toLowerCase();
    return withRevisionRetry('department', async () => {
      const current = await this.scope(caller).findById(id).lean<DepartmentDoc>();
      if (!current) throw notFound('department');
      const { fields, errors } = departmentFields(input);
      if (fields.parentId) {
        const problem = parentProblem(id, fields.parentId, await this.parents(caller));
        if (problem) errors.parentId = [problem];
      }
      throwIfInvalid(errors);
      if (await this.codeTaken(caller, fields.code, id)) throw conflict(this.codeConflict(fields.code));
      const next: Department = { ...current, ...fields, editedAt: new Date(), rev: current.rev + 1 };
      const result = await uniqueWrite(
        () =>
          this.models.Department.updateOne(
            { _id: id, tenantId: caller.tenantId, ...atRevision(current.rev) },
            { $set: { ...fields, editedAt: next.editedAt, rev: next.rev } },
          ),
        () => this.codeTaken(caller, fields.code, id),
        this.codeConflict(fields.code),
      );
      return result.matchedCount === 1 ? toDepartmentResponse(next) : undefined;
    });
  }

  /**
   * Refused with 409 while an employee (active, inactive or archived) or a sub-department points at it.
   * Travel entries do not exist yet; when they do, their references are checked here too.
   */
  async delete(caller: CallerContext, rawId: string): Promise<void> {
    const id = rawId.toLowerCase();
    if (!(await this.scope(caller).findById(id).select({ _id: 1 }).lean())) throw notFound('department');
    const [employees, children] = await Promise.all([
      this.models.Employee.countDocuments({ tenantId: caller.tenantId, departmentId: id }),
      this.scope(caller).count({ parentId: id }),
    ]);
    const uses = [
      ...(employees ? [plural(employees, 'employee', 'employees')] : []),
      ...(children ? [plural(children, 'sub-department', 'sub-departments')] : []),
    ];
    if (uses.length) throw conflict(`The department is still used by ${uses.join(' and ')}; move them first.`);
    await this.models.Department.deleteOne({ _id: id, tenantId: caller.tenantId });
  }
}

/** Cost centers: create, read, full-replace update, delete (refused while employees may charge one). */
export class CostCentersApp {
  constructor(private readonly models: EmployeesModels) {}

  private scope(caller: CallerContext) {
    return new TenantScope<CostCenterDoc>(this.models.CostCenter, caller.tenantId);
  }

  private async codeTaken(caller: CallerContext, code: string, exceptId?: string): Promise<boolean> {
    return (
      (await this.scope(caller).count({ codeKey: codeKey(code), ...(exceptId ? { _id: { $ne: exceptId } } : {}) })) > 0
    );
  }

  private codeConflict = (code: string) => `Another cost center of this company has the code "${code}".`;

  async create(caller: CallerContext, input: CostCenterWrite) {
    const { fields, errors } = costCenterFields(input);
    throwIfInvalid(errors);
    if (await this.codeTaken(caller, fields.code)) throw conflict(this.codeConflict(fields.code));
    const now = new Date();
    const costCenter: CostCenter = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      ...fields,
      createdAt: now,
      editedAt: now,
      rev: 0,
    };
    await uniqueWrite(
      () => this.models.CostCenter.create(costCenter),
      () => this.codeTaken(caller, fields.code, costCenter._id),
      this.codeConflict(fields.code),
    );
    return toCostCenterResponse(costCenter);
  }

  async get(caller: CallerContext, id: string) {
    const doc = await this.scope(caller).findById(id.toLowerCase()).lean<CostCenterDoc>();
    if (!doc) throw notFound('cost center');
    return toCostCenterResponse(doc);
  }

  async list(caller: CallerContext, filter: { q?: string; isActive?: boolean }, page: PageRequest) {
    const query: Record<string, unknown> = { ...textSearchFilter(filter.q, ['name', 'code']) };
    if (filter.isActive !== undefined) query.isActive = filter.isActive;
    return paginate<CostCenterDoc, ReturnType<typeof toCostCenterResponse>>(
      this.scope(caller),
      query,
      page,
      { code: 1, _id: 1 },
      toCostCenterResponse,
    );
  }

  /** Full replace: an omitted `description` is cleared and an omitted `isActive` is true. */
  async update(caller: CallerContext, rawId: string, input: CostCenterWrite) {
    const id = rawId.toLowerCase();
    return withRevisionRetry('cost center', async () => {
      const current = await this.scope(caller).findById(id).lean<CostCenterDoc>();
      if (!current) throw notFound('cost center');
      const { fields, errors } = costCenterFields(input);
      throwIfInvalid(errors);
      if (await this.codeTaken(caller, fields.code, id)) throw conflict(this.codeConflict(fields.code));
      const next: CostCenter = { ...current, ...fields, editedAt: new Date(), rev: current.rev + 1 };
      const result = await uniqueWrite(
        () =>
          this.models.CostCenter.updateOne(
            { _id: id, tenantId: caller.tenantId, ...atRevision(current.rev) },
            { $set: { ...fields, editedAt: next.editedAt, rev: next.rev } },
          ),
        () => this.codeTaken(caller, fields.code, id),
        this.codeConflict(fields.code),
      );
      return result.matchedCount === 1 ? toCostCenterResponse(next) : undefined;
    });
  }

  /**
   * Refused with 409 while an employee's `costCenterIds` names it. Travel-entry allocations do not exist
   * yet; when they do, their references are checked here too.
   */
  async delete(caller: CallerContext, rawId: string): Promise<void> {
    const id = rawId.toLowerCase();
    if (!(await this.scope(caller).findById(id).select({ _id: 1 }).lean())) throw notFound('cost center');
    const employees = await this.models.Employee.countDocuments({ tenantId: caller.tenantId, costCenterIds: id });
    if (employees) {
      throw conflict(
        `The cost center is still in the allowed list of ${plural(employees, 'employee', 'employees')}; remove it there first.`,
      );
    }
    await this.models.CostCenter.deleteOne({ _id: id, tenantId: caller.tenantId });
  }
}
