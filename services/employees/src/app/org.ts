import { randomUUID } from 'node:crypto';
import {
  conflict,
  notFound,
  listPage,
  type ListRequest,
  type CallerContext,
  type FieldErrors,
  type TenantModel,
  tenantOf,
  throwIfInvalid,
  uniqueWrite,
  withRevisionRetry,
} from '@travel/platform';
import {
  costCenterFields,
  departmentFields,
  parentProblem,
  type CostCenter,
  type CostCenterWrite,
  type Department,
  type DepartmentWrite,
} from '../domain/org';
import { sameValue } from '../domain/equality';
import { codeKey } from '../domain/text';
import type { EmployeesRepositories } from '../infra/repositories';
import { textSearchFilter } from '../infra/queries';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What departments and cost centers share: identity, a code unique per company, timestamps, a revision. */
interface CodedRecord {
  _id: string;
  tenantId: string;
  code: string;
  codeKey: string;
  createdAt: Date;
  editedAt: Date;
  rev: number;
}

type Fields<R extends CodedRecord> = Omit<R, '_id' | 'tenantId' | 'createdAt' | 'editedAt' | 'rev'>;

/**
 * The lifecycle both share: create, read, list, full-replace update at the revision read (retried on a
 * lost race), code uniqueness (looked up first, enforced by the unique index), delete by id.
 */
abstract class CodedRecords<R extends CodedRecord, W> {
  constructor(
    protected readonly repos: EmployeesRepositories,
    private readonly records: TenantModel<R>,
    private readonly noun: string,
  ) {}

  /** The record's own fields from a write body, and what is wrong with them. */
  protected abstract fields(input: W): { fields: Fields<R>; errors: FieldErrors };
  /** Checks that need the database (none by default); `id` is undefined on create. */
  protected async referenceErrors(
    _caller: CallerContext,
    _id: string | undefined,
    _fields: Fields<R>,
  ): Promise<FieldErrors> {
    return {};
  }

  protected scope(caller: CallerContext) {
    return this.records.of(tenantOf(caller));
  }

  private async codeTaken(caller: CallerContext, code: string, exceptId?: string): Promise<boolean> {
    const filter = { codeKey: codeKey(code), ...(exceptId ? { _id: { $ne: exceptId } } : {}) };
    return (await this.scope(caller).count(filter as never)) > 0;
  }

  private codeConflict(code: string) {
    return `Another ${this.noun} of this company has the code "${code}".`;
  }

  private async decide(caller: CallerContext, id: string | undefined, input: W): Promise<Fields<R>> {
    const { fields, errors } = this.fields(input);
    throwIfInvalid(errors, await this.referenceErrors(caller, id, fields));
    if (await this.codeTaken(caller, fields.code, id)) throw conflict(this.codeConflict(fields.code));
    return fields;
  }

  async create(caller: CallerContext, input: W): Promise<R> {
    const fields = await this.decide(caller, undefined, input);
    const now = new Date();
    const record = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      ...fields,
      createdAt: now,
      editedAt: now,
      rev: 0,
    } as R;
    await uniqueWrite(
      () => this.scope(caller).create(record),
      () => this.codeTaken(caller, fields.code, record._id),
      this.codeConflict(fields.code),
    );
    return record;
  }

  async get(caller: CallerContext, id: string): Promise<R> {
    const record = await this.scope(caller).findById(id.toLowerCase()).lean<R>();
    if (!record) throw notFound(this.noun);
    return record;
  }

  protected page(
    caller: CallerContext,
    query: Record<string, unknown>,
    page: ListRequest,
    sort: Record<string, 1 | -1>,
  ) {
    return listPage<R, R>(this.scope(caller), query, page, sort, (r) => r);
  }

  /** Full replace of the record's fields (see the subclasses for what an omission means). */
  async update(caller: CallerContext, rawId: string, input: W): Promise<R> {
    const id = rawId.toLowerCase();
    return withRevisionRetry(this.noun, async () => {
      const current = await this.scope(caller).findById(id).lean<R>();
      if (!current) throw notFound(this.noun);
      const fields = await this.decide(caller, id, input);
      // A body that changes nothing is a no-op: no write, the same editedAt (docs/decisions/0035).
      const unchanged = Object.entries(fields).every(([k, v]) =>
        sameValue(v ?? null, (current as Record<string, unknown>)[k] ?? null),
      );
      if (unchanged) return current;
      const next = { ...current, ...fields, editedAt: new Date(), rev: current.rev + 1 };
      await uniqueWrite(
        () => this.scope(caller).commit(current, { $set: { ...fields, editedAt: next.editedAt } }),
        () => this.codeTaken(caller, fields.code, id),
        this.codeConflict(fields.code),
      );
      return next;
    });
  }

  /** Deletes the record unless `uses` names something that still points at it (409). */
  protected async deleteUnlessUsed(
    caller: CallerContext,
    rawId: string,
    uses: (id: string) => Promise<string | undefined>,
  ) {
    const id = rawId.toLowerCase();
    if (!(await this.scope(caller).findById(id).select({ _id: 1 }).lean())) throw notFound(this.noun);
    const inUse = await uses(id);
    if (inUse) throw conflict(inUse);
    await this.scope(caller).deleteOne({ _id: id } as never);
  }
}

/**
 * Departments. Full replace: an omitted `parentId` makes a root department. Delete is refused while an
 * employee (active, inactive or archived) or a sub-department points at it; travel entries do not exist yet,
 * and when they do, their references are checked here too.
 */
export class DepartmentsApp extends CodedRecords<Department, DepartmentWrite> {
  constructor(repos: EmployeesRepositories) {
    super(repos, repos.departments, 'department');
  }

  protected fields(input: DepartmentWrite) {
    return departmentFields(input);
  }

  /** The parent must fit the company's tree, read in one query of (id, parent) pairs. */
  protected override async referenceErrors(
    caller: CallerContext,
    id: string | undefined,
    fields: Fields<Department>,
  ): Promise<FieldErrors> {
    if (!fields.parentId) return {};
    const rows = await this.scope(caller).find().select({ _id: 1, parentId: 1 }).lean();
    const problem = parentProblem(id, fields.parentId, new Map(rows.map((r) => [r._id, r.parentId ?? null])));
    return problem ? { parentId: [problem] } : {};
  }

  list(caller: CallerContext, filter: { q?: string; parentId?: string }, page: ListRequest) {
    const query: Record<string, unknown> = { ...textSearchFilter(filter.q, ['name', 'code']) };
    if (filter.parentId) query.parentId = filter.parentId.toLowerCase();
    return this.page(caller, query, page, { name: 1, _id: 1 });
  }

  delete(caller: CallerContext, rawId: string): Promise<void> {
    return this.deleteUnlessUsed(caller, rawId, async (id) => {
      const [employees, children] = await Promise.all([
        this.repos.employees.of(tenantOf(caller)).count({ departmentId: id }),
        this.scope(caller).count({ parentId: id }),
      ]);
      const uses = [
        ...(employees ? [plural(employees, 'employee', 'employees')] : []),
        ...(children ? [plural(children, 'sub-department', 'sub-departments')] : []),
      ];
      return uses.length ? `The department is still used by ${uses.join(' and ')}; move them first.` : undefined;
    });
  }
}

/**
 * Cost centers. Full replace: an omitted `description` is cleared and an omitted `isActive` is true.
 * Delete is refused while an employee's `costCenterIds` names it; travel-entry allocations do not exist
 * yet, and when they do, their references are checked here too.
 */
export class CostCentersApp extends CodedRecords<CostCenter, CostCenterWrite> {
  constructor(repos: EmployeesRepositories) {
    super(repos, repos.costCenters, 'cost center');
  }

  protected fields(input: CostCenterWrite) {
    return costCenterFields(input);
  }

  list(caller: CallerContext, filter: { q?: string; isActive?: boolean }, page: ListRequest) {
    const query: Record<string, unknown> = { ...textSearchFilter(filter.q, ['name', 'code']) };
    if (filter.isActive !== undefined) query.isActive = filter.isActive;
    return this.page(caller, query, page, { code: 1, _id: 1 });
  }

  delete(caller: CallerContext, rawId: string): Promise<void> {
    return this.deleteUnlessUsed(caller, rawId, async (id) => {
      const employees = await this.repos.employees.of(tenantOf(caller)).count({ costCenterIds: id });
      return employees
        ? `The cost center is still in the allowed list of ${plural(employees, 'employee', 'employees')}; remove it there first.`
        : undefined;
    });
  }
}
