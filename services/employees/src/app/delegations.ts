import { randomUUID } from 'node:crypto';
import {
  AppError,
  notFound,
  pageOf,
  RevisionConflict,
  tenantOf,
  throwIfInvalid,
  withRevisionRetry,
  type CallerContext,
  type Market,
  type PageRequest,
  type TenantId,
} from '@travel/platform';
import { MARKET_PROFILES } from '@travel/per-diem';
import { localDate } from '@travel/per-diem/src/time';
import { coversDay, delegationErrors, newestFirst, type Delegation, type DelegationWrite } from '../domain/delegation';
import { optionalText } from '../domain/text';
import type { DelegationsDoc, EmployeeDoc, EmployeesRepositories } from '../infra/repositories';

const MANAGE_COMPANY_DATA = 'ManageCompanyData';

/** Today in the company market's calendar: delegation periods are days there. */
export const marketToday = (market: Market, now = new Date()): string =>
  localDate(MARKET_PROFILES[market].zone, now.getTime());

const active = (e: Pick<EmployeeDoc, 'status' | 'isArchived'> | null | undefined): boolean =>
  !!e && e.status === 'Active' && !e.isArchived;

/**
 * An approver's delegations (issue 39 §2, docs/decisions/0205): the approver themself (a key whose
 * employee they are) or ManageCompanyData names, lists and withdraws them. Not part of the employee record
 * nor of its webhooks; the entries context asks `delegatorsOf` when someone decides an approval step.
 */
export class DelegationsApp {
  constructor(private readonly repos: Pick<EmployeesRepositories, 'employees' | 'delegations'>) {}

  /** The approver, after the caller's right to manage their delegations is checked (403, then 404). */
  private async approver(caller: CallerContext, rawId: string): Promise<EmployeeDoc> {
    const id = rawId.toLowerCase();
    if (id !== caller.employeeId && !caller.permissions.includes(MANAGE_COMPANY_DATA))
      throw new AppError(
        'FORBIDDEN',
        "An approver's delegations are managed by the approver themself or with the ManageCompanyData permission.",
      );
    const approver = await this.repos.employees.of(tenantOf(caller)).findById(id).lean<EmployeeDoc>();
    if (!approver) throw notFound('employee');
    return approver;
  }

  private doc(tenant: TenantId, approverId: string): Promise<DelegationsDoc | null> {
    return this.repos.delegations.of(tenant).findById(approverId).lean<DelegationsDoc>().exec();
  }

  async list(caller: CallerContext, rawId: string, page: PageRequest) {
    const approver = await this.approver(caller, rawId);
    const doc = await this.doc(tenantOf(caller), approver._id);
    return pageOf(newestFirst(doc?.delegations ?? []), page);
  }

  async create(caller: CallerContext, rawId: string, input: DelegationWrite): Promise<Delegation> {
    const approver = await this.approver(caller, rawId);
    if (!active(approver))
      throw new AppError(
        'INVALID_STATE',
        'An inactive or archived employee decides nothing, so there is nothing to delegate.',
      );
    const tenant = tenantOf(caller);
    const delegateId = input.delegateId.toLowerCase();
    const delegate =
      delegateId === approver._id
        ? null
        : await this.repos.employees.of(tenant).findById(delegateId).lean<EmployeeDoc>();
    const today = marketToday(caller.market);
    return withRevisionRetry('delegation', async () => {
      const current = await this.doc(tenant, approver._id);
      const existing = current?.delegations ?? [];
      const state = delegate ? { status: delegate.status, isArchived: delegate.isArchived ?? false } : null;
      throwIfInvalid(delegationErrors(input, approver._id, state, existing, today));
      const created: Delegation = {
        id: randomUUID(),
        delegateId,
        firstDay: input.firstDay,
        lastDay: input.lastDay,
        reason: optionalText(input.reason, false).value,
        createdAt: new Date(),
        createdByEmployeeId: caller.employeeId,
        withdrawnAt: null,
        withdrawnByEmployeeId: null,
      };
      await this.write(tenant, approver._id, current, [...existing, created]);
      return created;
    });
  }

  /** Withdraws one before its period, or ends it during it; one already withdrawn stays as it was. */
  async withdraw(caller: CallerContext, rawId: string, rawDelegationId: string): Promise<void> {
    const approver = await this.approver(caller, rawId);
    const tenant = tenantOf(caller);
    const id = rawDelegationId.toLowerCase();
    await withRevisionRetry('delegation', async () => {
      const current = await this.doc(tenant, approver._id);
      const found = current?.delegations.find((d) => d.id === id);
      if (!current || !found) throw notFound('delegation');
      if (found.withdrawnAt) return true;
      const withdrawn = { ...found, withdrawnAt: new Date(), withdrawnByEmployeeId: caller.employeeId };
      await this.write(
        tenant,
        approver._id,
        current,
        current.delegations.map((d) => (d.id === id ? withdrawn : d)),
      );
      return true; // withRevisionRetry runs an attempt that answers undefined again
    });
  }

  /** The first write creates the approver's document (a concurrent first write loses on its `_id`, and retries). */
  private async write(tenant: TenantId, approverId: string, current: DelegationsDoc | null, next: Delegation[]) {
    const scope = this.repos.delegations.of(tenant);
    if (current) await scope.commit(current, { $set: { delegations: next } });
    else await scope.create({ _id: approverId, rev: 0, delegations: next }).catch(asRevisionConflict);
  }

  /**
   * The approvers who named `delegateId` their delegate for `day` and could decide themselves now (active,
   * unarchived), while the delegate is too. Only direct delegations: a delegate's own delegate gets nothing.
   */
  async delegatorsOf(tenant: TenantId, rawDelegateId: string, day: string): Promise<string[]> {
    const delegateId = rawDelegateId.toLowerCase();
    const employees = this.repos.employees.of(tenant);
    const delegate = await employees.findById(delegateId).lean<EmployeeDoc>();
    if (!active(delegate)) return [];
    const docs = await this.repos.delegations
      .of(tenant)
      .find({ 'delegations.delegateId': delegateId })
      .lean<DelegationsDoc[]>();
    const approverIds = docs
      .filter((doc) => doc.delegations.some((d) => d.delegateId === delegateId && coversDay(d, day)))
      .map((doc) => doc._id);
    if (!approverIds.length) return [];
    const approvers = await employees
      .find({ _id: { $in: approverIds }, status: 'Active', isArchived: { $ne: true } }, { _id: 1 })
      .lean();
    return approvers.map((a) => a._id).sort();
  }
}

/** A duplicate `_id` on the first write: another replica created the document first; read it again. */
function asRevisionConflict(err: unknown): never {
  if ((err as { code?: number }).code === 11000) throw new RevisionConflict();
  throw err;
}
