// The company expense policy (issue 39 §1, docs/decisions/0203): read by every caller of the company (its
// employees need to know the rules), replaced as a whole with ManageCompanyData (checked by the route).
import { AppError, tenantOf, type CallerContext, type TenantId } from '@travel/platform';
import {
  namedOrgUnits,
  namesDepartments,
  normalizeExpensePolicy,
  samePolicy,
  type ExpensePolicy,
  type ExpensePolicyInput,
} from '../domain/expense-policy';
import { minorDigitsOf } from '../domain/amounts';
import { policyFindings, type JudgedEntry, type PolicyFinding } from '../domain/policy-findings';
import type { ExpensePolicyStore } from '../infra/expense-policy-store';
import type { OrgDirectory } from './ports';

export interface StoredExpensePolicy extends ExpensePolicy {
  editedAt: Date | null;
}

const NONE: StoredExpensePolicy = { versions: [], editedAt: null };

/** An entry as the policy judges it. */
type Judged = JudgedEntry & {
  employeeId: string;
  baseCurrency: string;
  costCenterAllocations?: readonly { costCenterId: string }[];
};

export class ExpensePolicyApp {
  constructor(
    private readonly store: Pick<ExpensePolicyStore, 'get' | 'put'>,
    private readonly org: OrgDirectory,
  ) {}

  async get(tenantId: TenantId): Promise<StoredExpensePolicy> {
    const doc = await this.store.get(tenantId);
    return doc ? { versions: doc.versions, editedAt: doc.editedAt } : NONE;
  }

  /** Replaces the policy. A PUT that changes nothing is a no-op: same editedAt, nothing written. */
  async put(caller: CallerContext, body: ExpensePolicyInput): Promise<StoredExpensePolicy> {
    const tenantId = tenantOf(caller);
    const { policy, errors } = normalizeExpensePolicy(body, minorDigitsOf(caller.baseCurrency));
    const named = namedOrgUnits(policy);
    if (named.departmentIds.length || named.costCenterIds.length) {
      const known = await this.org.knownOrgUnits(caller.tenantId, named);
      body.versions.forEach((v, vi) =>
        v.rules.forEach((r, ri) => {
          const at = `versions[${vi}].rules[${ri}]`;
          const dep = r.departmentId?.toLowerCase();
          const cc = r.costCenterId?.toLowerCase();
          if (dep && !known.departmentIds.includes(dep))
            (errors[`${at}.departmentId`] ??= []).push('must be a department of this company');
          if (cc && !known.costCenterIds.includes(cc))
            (errors[`${at}.costCenterId`] ??= []).push('must be a cost center of this company');
        }),
      );
    }
    if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
    const current = await this.get(tenantId);
    if (current.editedAt && samePolicy(current, policy)) return current;
    const doc = await this.store.put(tenantId, policy, caller.employeeId);
    return { versions: doc.versions, editedAt: doc.editedAt };
  }

  /**
   * The findings of the policy in force now on the entry as a write leaves it. Every write of an entry and
   * its children stores them with it; a policy change reaches an entry at its next write or submit.
   */
  async findingsFor(caller: Pick<CallerContext, 'tenantId'>, entry: Judged): Promise<PolicyFinding[]> {
    return (await this.judge(caller, entry))(entry);
  }

  /**
   * The policy in force now as a judge of versions of one entry (what it is, what a write would make it):
   * the policy, and the employee's department when a rule names one, are read once for all of them.
   */
  async judge(
    caller: Pick<CallerContext, 'tenantId'>,
    of: Pick<Judged, 'employeeId'>,
  ): Promise<(entry: Judged) => PolicyFinding[]> {
    const policy = await this.get(tenantOf(caller));
    if (policy.versions.length === 0) return () => [];
    // The department is asked for only when a rule is narrowed to one.
    const departmentId = namesDepartments(policy) ? await this.org.departmentOf(caller.tenantId, of.employeeId) : null;
    return (entry) => {
      if (entry.expenses.length === 0) return [];
      const scope = { departmentId, costCenterIds: (entry.costCenterAllocations ?? []).map((a) => a.costCenterId) };
      return policyFindings(entry, policy, scope, minorDigitsOf(entry.baseCurrency));
    };
  }
}

/** What the entries' writes ask: the findings to store with the entry. */
export type PolicyJudge = Pick<ExpensePolicyApp, 'findingsFor' | 'judge'>;

/** Without a policy source (unit tests of other use cases): no findings. */
export const NO_POLICY: PolicyJudge = {
  findingsFor: () => Promise.resolve([]),
  judge: () => Promise.resolve(() => []),
};
