import {
  AppError,
  invalidState,
  throwIfInvalid,
  tenantOf,
  withRevisionRetry,
  type CallerContext,
  type FieldErrors,
} from '@travel/platform';
import { mayEdit } from '../domain/access';
import { makesEditable } from '../domain/accounting-period';
import { commentErrors, workflowListErrors } from '../domain/limits';
import type { TravelEntry } from '../domain/entry';
import {
  decide,
  type ApprovalStep,
  type ApprovalWorkflow,
  type AuditRecord,
  type SubmissionWorkflow,
  type WorkflowOperation,
} from '../domain/workflow';
import type { EntriesRepositories, EntryDoc } from '../infra/repositories';
import type { EntryAccess } from './entry-access';
import { EntryWrites } from './entry-writes';
import type { EntryNumberIssuer } from './entry-numbers';
import { delegatorsVia } from './delegators';
import type { EmployeeDirectory } from './ports';
import { NO_POLICY, type PolicyJudge } from './expense-policy';
import { blockingErrors } from '../domain/policy-findings';

export interface ApprovalWorkflowInput {
  settlementSteps: ApprovalStep[];
  tripApprovalSteps: ApprovalStep[];
  /** Optional in a PUT: omitted = none named (the account owner decides emptied steps, 0105). */
  fallbackApproverIds?: string[];
}

const NO_WORKFLOW: ApprovalWorkflow = {
  settlementSteps: [],
  tripApprovalSteps: [],
  fallbackApproverIds: [],
  editedAt: null,
};

const distinctIds = (ids: readonly string[]): string[] => [...new Set(ids.map((id) => id.toLowerCase()))];
const normalizeSteps = (steps: readonly ApprovalStep[]): ApprovalStep[] =>
  steps.map((s) => ({ approverIds: distinctIds(s.approverIds) }));

/**
 * The tenant's approval workflow and the operations on an entry (submit, approve, reject, cancel,
 * request-changes): decided by `domain/workflow`, written as one conditional write on the entry with its
 * event in the outbox (docs/decisions/0066–0068).
 */
export class WorkflowApp {
  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries' | 'workflows'>,
    private readonly access: EntryAccess,
    private readonly employees: EmployeeDirectory,
    private readonly numbers: EntryNumberIssuer,
    /** The expense policy a submission is judged by (docs/decisions/0203). */
    private readonly policy: PolicyJudge = NO_POLICY,
  ) {
    this.writes = new EntryWrites(repos);
  }

  private readonly writes: EntryWrites;

  async workflow(caller: Pick<CallerContext, 'tenantId'>): Promise<ApprovalWorkflow> {
    // One document per tenant, `_id` = tenantId.
    const doc = await this.repos.workflows.of(tenantOf(caller)).get(caller.tenantId);
    if (!doc) return NO_WORKFLOW;
    return {
      settlementSteps: doc.settlementSteps.map((s) => ({ approverIds: [...s.approverIds] })),
      tripApprovalSteps: doc.tripApprovalSteps.map((s) => ({ approverIds: [...s.approverIds] })),
      fallbackApproverIds: [...(doc.fallbackApproverIds ?? [])],
      editedAt: doc.editedAt,
    };
  }

  /** Replaces the workflow (ManageCompanyData is checked by the route). Every approver must be the company's. */
  async replaceWorkflow(caller: CallerContext, input: ApprovalWorkflowInput): Promise<ApprovalWorkflow> {
    throwIfInvalid(workflowListErrors(input)); // before one directory call per approver
    const settlementSteps = normalizeSteps(input.settlementSteps);
    const tripApprovalSteps = normalizeSteps(input.tripApprovalSteps);
    const fallbackApproverIds = distinctIds(input.fallbackApproverIds ?? []);
    const named = new Set([
      ...[...settlementSteps, ...tripApprovalSteps].flatMap((s) => s.approverIds),
      ...fallbackApproverIds,
    ]);
    const known = new Map(
      await Promise.all([...named].map(async (id) => [id, await this.employees.exists(caller.tenantId, id)] as const)),
    );
    const errors: FieldErrors = {};
    for (const [list, steps] of [
      ['settlementSteps', input.settlementSteps],
      ['tripApprovalSteps', input.tripApprovalSteps],
    ] as const)
      steps.forEach((s, i) =>
        s.approverIds.forEach((id, j) => {
          if (!known.get(id.toLowerCase()))
            (errors[`${list}[${i}].approverIds[${j}]`] ??= []).push('must be an employee of this company');
        }),
      );
    (input.fallbackApproverIds ?? []).forEach((id, i) => {
      if (!known.get(id.toLowerCase()))
        (errors[`fallbackApproverIds[${i}]`] ??= []).push('must be an employee of this company');
    });
    if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);

    const current = await this.workflow(caller);
    const same =
      JSON.stringify([current.settlementSteps, current.tripApprovalSteps, current.fallbackApproverIds]) ===
      JSON.stringify([settlementSteps, tripApprovalSteps, fallbackApproverIds]);
    if (same && current.editedAt) return current;
    const editedAt = new Date();
    await this.repos.workflows
      .of(tenantOf(caller))
      .updateOne(
        { _id: caller.tenantId },
        { $set: { settlementSteps, tripApprovalSteps, fallbackApproverIds, editedAt } },
        { upsert: true },
      );
    return { settlementSteps, tripApprovalSteps, fallbackApproverIds, editedAt };
  }

  /**
   * The workflow a submission is decided with: the fallback approvers named, or else the company's account
   * owner(s) (docs/decisions/0105). Asked of the employees context only when the company has a workflow.
   */
  private async submissionWorkflow(caller: CallerContext): Promise<SubmissionWorkflow> {
    const workflow = await this.workflow(caller);
    const hasSteps = [...workflow.settlementSteps, ...workflow.tripApprovalSteps].some((s) => s.approverIds.length);
    if (workflow.fallbackApproverIds.length > 0 || !hasSteps) return workflow;
    return { ...workflow, fallbackApproverIds: await this.employees.accountOwners(caller.tenantId) };
  }

  /**
   * Whose delegate the caller is today (docs/decisions/0205), asked only for a decision the caller may not
   * make as an approver of the current step themself: everyone else never causes the extra call.
   */
  private async delegatorsFor(caller: CallerContext, entry: EntryDoc, operation: WorkflowOperation) {
    if (operation === 'submit' || operation === 'cancel') return [];
    const step = entry.approval?.steps[entry.approval.currentStep];
    if (!step || step.approverIds.includes(caller.employeeId)) return [];
    return delegatorsVia(this.employees)(caller, new Date());
  }

  /** One workflow operation on an entry; answers the entry as stored afterwards. */
  async operate(
    caller: CallerContext,
    rawId: string,
    operation: WorkflowOperation,
    comment: string | null,
  ): Promise<TravelEntry> {
    throwIfInvalid(commentErrors(comment)); // kept in the audit log: bounded like the contract says
    const workflow = operation === 'submit' ? await this.submissionWorkflow(caller) : NO_WORKFLOW;
    let authorized: EntryDoc | undefined;
    const stored = await withRevisionRetry('travel entry', async () => {
      let current = await this.access.readable(caller, rawId);
      // An authorization whose number was not stored yet (a crash half-way): finish it first.
      if (current.numberClaim) current = await this.numbers.issue(tenantOf(caller), current._id);
      const decision = decide(
        current,
        operation,
        {
          employeeId: caller.employeeId,
          keyIssuedByEmployeeId: caller.keyIssuedByEmployeeId ?? null,
          mayEdit: mayEdit(caller, current.employeeId),
          delegatorIds: await this.delegatorsFor(caller, current, operation),
        },
        workflow,
      );
      if (decision.kind === 'refused') {
        if (decision.code === 'INVALID_STATE') throw invalidState(decision.detail);
        throw new AppError(decision.code, decision.detail);
      }
      // Request-changes (or an authorization) makes the entry editable again: not while it lies in a closed period (0207).
      if (makesEditable(current.status, decision.status)) await this.access.periods.refuseReopening(caller, current);
      // Submit: judged again by the policy in force now; a blocking finding refuses it, keyed by the expense.
      const policyFindings = operation === 'submit' ? await this.policy.findingsFor(caller, current) : undefined;
      if (policyFindings) throwIfInvalid(blockingErrors(current.expenses ?? [], policyFindings, current.baseCurrency));
      const now = new Date();
      const records: AuditRecord[] = decision.records.map((r) => ({
        ...r,
        employeeId: caller.employeeId,
        keyIssuedByEmployeeId: caller.keyIssuedByEmployeeId ?? null,
        onBehalfOfEmployeeId: decision.onBehalfOfEmployeeId,
        at: now,
        comment,
      }));
      const changes = {
        status: decision.status,
        phase: decision.phase,
        isRequest: decision.isRequest,
        approval: decision.approval,
        auditLog: [...(current.auditLog ?? []), ...records],
        ...(decision.approved ? { approvedAt: now } : {}),
        ...(decision.issueNumber ? { numberClaim: { year: now.getUTCFullYear(), at: now } } : {}),
        ...(policyFindings ? { policyFindings } : {}),
        editedAt: now,
      };
      const { entry: next } = await this.writes.apply(tenantOf(caller), current, {
        set: changes,
        // An authorization raises its entry.updated when the number is stored (with the number in it).
        announce: decision.issueNumber ? null : decision.event,
        at: now,
      });
      if (decision.issueNumber) authorized = next;
      return next;
    });
    return authorized ? this.numbers.issue(tenantOf(caller), authorized._id) : stored;
  }
}
