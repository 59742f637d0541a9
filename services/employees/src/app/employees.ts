import { randomUUID } from 'node:crypto';
import {
  AppError,
  notFound,
  listPage,
  type ListRequest,
  raiseEvent,
  type CallerContext,
  type FieldErrors,
  type PageRequest,
  pageOf,
  tenantOf,
  throwIfInvalid,
  uniqueWrite,
  withRevisionRetry,
} from '@travel/platform';
import {
  accountOwnerErrors,
  emailKeyOf,
  nextCostCenterIds,
  nextPermissions,
  readsAllPersonalData,
  replacedFields,
  sameEmployeeState,
  shownTo,
  toEmployeeWebhookDto,
  type Employee,
  type ShownEmployee,
  type EmployeeStatus,
  type EmployeeWrite,
} from '../domain/employee';
import { bankDataChange } from '../domain/bank-data-change';
import { flagsCallerLacks, permissionChange } from '../domain/permissions';
import type { EmployeeDoc, EmployeesRepositories } from '../infra/repositories';
import { textSearchFilter } from '../infra/queries';

export interface EmployeeFilter {
  departmentId?: string;
  status?: EmployeeStatus;
  isArchived?: boolean;
  email?: string;
  q?: string;
}

const EMAIL_TAKEN = 'Another employee of this company has this e-mail address.';

export class EmployeesApp {
  constructor(private readonly repos: EmployeesRepositories) {}

  private scope(caller: CallerContext) {
    return this.repos.employees.of(tenantOf(caller));
  }

  private async emailTaken(caller: CallerContext, email: string | null, exceptId?: string): Promise<boolean> {
    if (!email) return false;
    const clash = await this.scope(caller)
      .find({ emailKey: email, ...(exceptId ? { _id: { $ne: exceptId } } : {}) })
      .select({ _id: 1 })
      .limit(1)
      .lean();
    return clash.length > 0;
  }

  /** The department and the cost centers a write names must be the caller's company's own. */
  private async referenceErrors(
    caller: CallerContext,
    departmentId: string | null,
    costCenterIds: string[] | undefined,
  ): Promise<FieldErrors> {
    const errors: FieldErrors = {};
    const [department, found] = await Promise.all([
      departmentId ? this.repos.departments.of(tenantOf(caller)).exists({ _id: departmentId }) : true,
      costCenterIds?.length
        ? this.repos.costCenters
            .of(tenantOf(caller))
            .find({ _id: { $in: costCenterIds } }, { _id: 1 })
            .lean()
        : [],
    ]);
    if (!department) errors.departmentId = ['must be a department of this company'];
    if (costCenterIds?.length) {
      const known = new Set(found.map((c) => c._id));
      const unknown = costCenterIds.filter((id) => !known.has(id));
      if (unknown.length) {
        const shown = unknown.slice(0, 10).join(', ') + (unknown.length > 10 ? ` and ${unknown.length - 10} more` : '');
        errors.costCenterIds = [`must all be cost centers of this company; unknown: ${shown}`];
      }
    }
    return errors;
  }

  /** No privilege escalation: the caller may grant or take away only flags they hold (docs/decisions/0011). */
  private assertMayChangePermissions(caller: CallerContext, before: readonly string[], after: readonly string[]): void {
    const lacking = flagsCallerLacks(caller.permissions, permissionChange(before, after));
    if (lacking.length) {
      throw new AppError(
        'FORBIDDEN',
        `Granting or taking away a permission requires holding it; this caller does not hold ${lacking.join(', ')}.`,
      );
    }
  }

  async create(caller: CallerContext, input: EmployeeWrite) {
    const { fields, errors } = replacedFields(input, caller.market);
    const costCenters = nextCostCenterIds([], input.costCenterIds);
    if (costCenters.error) errors.costCenterIds = [costCenters.error];
    throwIfInvalid(
      errors,
      await this.referenceErrors(caller, fields.departmentId, costCenters.error ? undefined : costCenters.ids),
    );
    const permissions = nextPermissions([], input.permissions);
    this.assertMayChangePermissions(caller, [], permissions);

    const now = new Date();
    const employee: Employee = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      ...fields,
      isAccountOwner: false,
      costCenterIds: costCenters.ids,
      permissions,
      createdAt: now,
      editedAt: now,
    };
    const event = raiseEvent('employees', 'employee.created', caller.tenantId, toEmployeeWebhookDto(employee), now);
    // Bank data given at creation is its first change (docs/decisions/0106).
    const banked = bankDataChange({ bankAccount: null, bic: null }, employee, caller, now, randomUUID());
    const bankDataChanges = banked ? [banked] : [];
    await uniqueWrite(
      () => this.scope(caller).create({ ...employee, emailKey: emailKeyOf(employee), rev: 0, bankDataChanges }, event),
      () => this.emailTaken(caller, employee.email, employee._id),
      EMAIL_TAKEN,
    );
    return employee;
  }

  /**
   * The changes of an employee's bank data, newest first, paged: for the employee themself and for readers
   * of personal data (docs/decisions/0036, 0106); anyone else is 403.
   */
  async bankDataChanges(caller: CallerContext, rawId: string, page: PageRequest) {
    const id = rawId.toLowerCase();
    if (id !== caller.employeeId && !readsAllPersonalData(caller))
      throw new AppError(
        'FORBIDDEN',
        "Bank data changes are personal data: they need ManageEmployees or ManageCompanyData (or the key's own employee).",
      );
    const doc = await this.scope(caller).findById(id).select({ bankDataChanges: 1 }).lean<EmployeeDoc>();
    if (!doc) throw notFound('employee');
    const newestFirst = [...(doc.bankDataChanges ?? [])].reverse();
    return pageOf(newestFirst, page);
  }

  async get(caller: CallerContext, id: string): Promise<ShownEmployee> {
    const doc = await this.scope(caller).findById(id.toLowerCase()).lean<EmployeeDoc>();
    if (!doc) throw notFound('employee');
    return shownTo(caller, doc);
  }

  /**
   * Each item is the full record or the summary, as `get` answers it (docs/decisions/0036). The e-mail
   * filter needs the right to read e-mail addresses: otherwise it would tell which address is whose.
   */
  async list(caller: CallerContext, filter: EmployeeFilter, page: ListRequest) {
    if (filter.email !== undefined && !readsAllPersonalData(caller)) {
      throw new AppError(
        'FORBIDDEN',
        'Filtering employees by e-mail needs ManageEmployees or ManageCompanyData (the permissions that read e-mail addresses).',
      );
    }
    const query: Record<string, unknown> = { ...textSearchFilter(filter.q, ['firstName', 'lastName']) };
    if (filter.departmentId) query.departmentId = filter.departmentId.toLowerCase();
    if (filter.status) query.status = filter.status;
    if (filter.isArchived !== undefined) query.isArchived = filter.isArchived;
    // emailKey equals the stored (lower-case) address and is indexed per company.
    if (filter.email) query.emailKey = filter.email.trim().toLowerCase();
    return listPage<EmployeeDoc, ShownEmployee>(
      this.scope(caller),
      query,
      page,
      { lastName: 1, firstName: 1, _id: 1 },
      (e) => shownTo(caller, e),
    );
  }

  /**
   * Full replace: every field the body omits is cleared (status, isArchived, residency and
   * mobileRoadTransportWorker fall back to their defaults), except `costCenterIds` and `permissions`, which an omission keeps. Raises
   * `employee.updated` in the same single-document write, on every update that changes the record; a
   * body that changes nothing is a no-op (no write, no event, the same `editedAt`: docs/decisions/0035).
   */
  async update(caller: CallerContext, rawId: string, input: EmployeeWrite) {
    const id = rawId.toLowerCase();
    return withRevisionRetry('employee', async () => {
      const current = await this.scope(caller).findById(id).lean<EmployeeDoc>();
      if (!current) throw notFound('employee');

      const { fields, errors } = replacedFields(input, caller.market);
      const costCenters = nextCostCenterIds(current.costCenterIds ?? [], input.costCenterIds);
      if (costCenters.error) errors.costCenterIds = [costCenters.error];
      const permissions = nextPermissions(current.permissions ?? [], input.permissions);
      const next: Employee = {
        _id: current._id,
        tenantId: current.tenantId,
        ...fields,
        isAccountOwner: current.isAccountOwner ?? false,
        costCenterIds: costCenters.ids,
        permissions,
        createdAt: current.createdAt,
        editedAt: new Date(),
      };
      const changedCostCenters = input.costCenterIds !== undefined && !costCenters.error ? costCenters.ids : undefined;
      throwIfInvalid(
        errors,
        accountOwnerErrors(next),
        await this.referenceErrors(caller, fields.departmentId, changedCostCenters),
      );
      this.assertMayChangePermissions(caller, current.permissions ?? [], permissions);
      if (sameEmployeeState(current, next)) return current;

      const event = raiseEvent(
        'employees',
        'employee.updated',
        caller.tenantId,
        toEmployeeWebhookDto(next),
        next.editedAt,
      );
      const $set = {
        ...fields,
        costCenterIds: next.costCenterIds,
        permissions: next.permissions,
        editedAt: next.editedAt,
        emailKey: emailKeyOf(next),
      };
      // A change of the bank data is recorded in the same write as the change (docs/decisions/0106).
      const banked = bankDataChange(current, next, caller, next.editedAt, randomUUID());
      const update = banked ? { $set, $push: { bankDataChanges: banked } } : { $set };
      await uniqueWrite(
        () => this.scope(caller).commit(current, update, event),
        () => this.emailTaken(caller, next.email, id),
        EMAIL_TAKEN,
      );
      return next;
    });
  }
}
