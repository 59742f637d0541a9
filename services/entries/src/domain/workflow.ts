// The approval workflow of travel entries as a pure state machine (SPEC "Travel entry (events that expose
// transitions)", the event catalog; docs/decisions/0066–0068). No I/O: the app reads, decides here, writes.
import { EntryStatus, type EntryPhase, type EntryStatusValue } from './entry-status';

/** One step of the tenant's workflow: who may decide at that step (any one of them suffices). */
export interface ApprovalStep {
  approverIds: string[];
}

/** The tenant's workflow as configured (`GET` / `PUT /api/v1/approval-workflow`). */
export interface ApprovalWorkflow {
  settlementSteps: ApprovalStep[];
  tripApprovalSteps: ApprovalStep[];
  /**
   * Who decides a step that is left without approvers once the entry's own employee and its creator are
   * left out (docs/decisions/0105). Empty = the company's account owner(s).
   */
  fallbackApproverIds: string[];
  editedAt: Date | null;
}

/** The workflow a submission is decided with: the fallback approvers resolved (never empty for "default"). */
export type SubmissionWorkflow = Pick<
  ApprovalWorkflow,
  'settlementSteps' | 'tripApprovalSteps' | 'fallbackApproverIds'
>;

/** The steps an entry runs through, copied from the tenant's workflow when it was submitted. */
export interface ApprovalRound {
  /** 1 = trip authorization (PreApproval), 0 = settlement (Standard). */
  phase: 0 | 1;
  /** Eligible approvers per step (the entry's own employee and creator removed; fallback approvers where that emptied a step). */
  steps: ApprovalStep[];
  /** Index into `steps` of the step that decides now. */
  currentStep: number;
}

export type WorkflowAction =
  'Submitted' | 'Approved' | 'AutoApproved' | 'Authorized' | 'Rejected' | 'Cancelled' | 'ChangesRequested';

/** One line of the entry's audit log: who did what, when, why, and where it left the entry. */
export interface AuditRecord {
  action: WorkflowAction;
  employeeId: string;
  at: Date;
  comment: string | null;
  status: EntryStatusValue;
  phase: EntryPhase;
  /** The step (0-based) an approval, rejection or change request was given at; null otherwise. */
  step: number | null;
  /** Who issued the API key used, when that is not `employeeId` (docs/decisions/0104); null otherwise. */
  keyIssuedByEmployeeId?: string | null;
  /** The approver a delegate decided for (docs/decisions/0205); null when the decider was an approver themself. */
  onBehalfOfEmployeeId?: string | null;
}

/** An authorized trip's number is being issued: set with the authorization, cleared when the number is stored. */
export interface NumberClaim {
  year: number;
  at: Date;
}

/** What the workflow keeps on an entry (all optional: entries stored before the workflow have none). */
export interface WorkflowFields {
  /** The employee whose key created it; absent on entries stored before (docs/decisions/0105). */
  createdByEmployeeId?: string | null;
  approval?: ApprovalRound | null;
  auditLog?: AuditRecord[];
  approvedAt?: Date | null;
  numberClaim?: NumberClaim | null;
}

export type WorkflowOperation = 'submit' | 'approve' | 'reject' | 'cancel' | 'request-changes';
export const WORKFLOW_OPERATIONS: readonly WorkflowOperation[] = [
  'submit',
  'approve',
  'reject',
  'cancel',
  'request-changes',
];

/** The part of an entry the workflow decides on. */
export interface WorkflowSubject extends WorkflowFields {
  employeeId: string;
  status: EntryStatusValue;
  phase: EntryPhase;
  isRequest: boolean;
  isPaidOut: boolean;
}

export interface Actor {
  employeeId: string;
  /** Who issued the key used, when it acts for someone else (the caller context's); they act too (0194). */
  keyIssuedByEmployeeId?: string | null;
  /** May change this entry (its own employee, or EditAllEntries): submits and cancels. */
  mayEdit: boolean;
  /**
   * The approvers who named this employee their delegate for today and may decide themselves now (asked of
   * the employees context, docs/decisions/0205); their own delegates are not included (not transitive).
   */
  delegatorIds?: readonly string[];
}

/** CONFLICT: the company's workflow leaves nobody who may approve the entry (docs/decisions/0105). */
export type RefusalCode = 'INVALID_STATE' | 'FORBIDDEN' | 'CONFLICT';

export type Decision =
  | { kind: 'refused'; code: RefusalCode; detail: string }
  | {
      kind: 'moved';
      status: EntryStatusValue;
      phase: EntryPhase;
      isRequest: boolean;
      approval: ApprovalRound | null;
      /** Audit records to append (a submission that decides at once records both steps). */
      records: Omit<AuditRecord, 'employeeId' | 'at' | 'comment'>[];
      /** The approver a delegate decides for (0205); null when the actor decides as an approver themself. */
      onBehalfOfEmployeeId: string | null;
      /** `entry.approved` only for the final step of a settlement workflow (never auto, never authorization). */
      event: 'entry.updated' | 'entry.approved';
      /** A trip request was authorized: the entry number is issued now (docs/decisions/0067). */
      issueNumber: boolean;
      approved: boolean;
    };

/**
 * The people who may never decide on an entry (docs/decisions/0105): its own employee and its creator. Not
 * the issuer of the creator's key (0194): administrators issue most keys, so that would bar them from
 * nearly every entry. Both the steps at submission and every decision are checked against this list.
 */
export function ineligibleApprovers(e: Pick<WorkflowSubject, 'employeeId' | 'createdByEmployeeId'>): string[] {
  const ids = [e.employeeId, e.createdByEmployeeId];
  return [...new Set(ids.filter((id): id is string => !!id).map((id) => id.toLowerCase()))];
}

/**
 * Why this actor may not decide on the entry, or undefined. The people behind a decision are the key's
 * employee and, when someone else issued the key, its issuer (docs/decisions/0194): neither may be one of
 * the entry's ineligible people.
 */
export function barredFromDeciding(
  entry: Pick<WorkflowSubject, 'employeeId' | 'createdByEmployeeId'>,
  actor: Pick<Actor, 'employeeId' | 'keyIssuedByEmployeeId'>,
): string | undefined {
  const ineligible = ineligibleApprovers(entry);
  const [self, issuer] = [actor.employeeId.toLowerCase(), actor.keyIssuedByEmployeeId?.toLowerCase()];
  const own = entry.employeeId.toLowerCase();
  if (self === own) return 'Nobody decides on their own entry.';
  if (ineligible.includes(self)) return 'Nobody decides on an entry they created, even for someone else.';
  if (issuer === own) return 'Nobody decides on their own entry, also not through a key they issued for someone else.';
  if (issuer && ineligible.includes(issuer))
    return 'Nobody decides on an entry they created, also not through a key they issued for someone else.';
  return undefined;
}

const distinct = (ids: readonly string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

export type StepsPlan =
  { kind: 'none' } | { kind: 'steps'; steps: ApprovalStep[] } | { kind: 'blocked'; detail: string };

/**
 * The steps an entry runs through (docs/decisions/0105). A company without a step naming anyone has no
 * workflow (`none`: the spec's auto-approval). Otherwise every step loses the entry's ineligible people
 * (its employee, its creator); a step that this empties goes to the fallback approvers (without them
 * too), never skipped; when none of those is left either, nobody may approve it (`blocked`).
 */
export function planSteps(
  configured: readonly ApprovalStep[],
  ineligible: readonly string[],
  fallbackApproverIds: readonly string[],
): StepsPlan {
  const named = configured.map((s) => distinct(s.approverIds)).filter((ids) => ids.length > 0);
  if (named.length === 0) return { kind: 'none' };
  const eligible = (ids: readonly string[]) => ids.filter((id) => !ineligible.includes(id));
  const fallback = eligible(distinct(fallbackApproverIds));
  const steps: ApprovalStep[] = [];
  for (const [i, ids] of named.entries()) {
    const left = eligible(ids);
    if (left.length > 0) steps.push({ approverIds: left });
    else if (fallback.length > 0) steps.push({ approverIds: fallback });
    else
      return {
        kind: 'blocked',
        detail:
          `Nobody may approve this entry: the approvers of step ${i + 1} and the company's fallback approvers ` +
          "are all the entry's employee or its creator. Name other fallback approvers " +
          '(fallbackApproverIds of the approval workflow), then submit again.',
      };
  }
  return { kind: 'steps', steps };
}

/** Whether the employee is named in the entry's approval round or audit log (they may read the entry). */
export function isInvolvedApprover(e: WorkflowFields, employeeId: string): boolean {
  return (
    (e.approval?.steps ?? []).some((s) => s.approverIds.includes(employeeId)) ||
    (e.auditLog ?? []).some((r) => r.employeeId === employeeId && r.step !== null)
  );
}

/**
 * Whom the actor decides the step as (docs/decisions/0205): undefined = may not; null = as an approver of
 * the step themself; an id = as the delegate of that approver of the step. A delegation never widens what
 * the approver may do: the approver must be an eligible approver of the step (the round already left out
 * the entry's employee and creator) and not barred themself; the delegate is checked by `barredFromDeciding`
 * before this. Not transitive: only the actor's own delegators count, never their delegators' delegators.
 */
export function deciderAt(
  entry: Pick<WorkflowSubject, 'employeeId' | 'createdByEmployeeId'>,
  stepApproverIds: readonly string[],
  actor: Pick<Actor, 'employeeId' | 'delegatorIds'>,
): string | null | undefined {
  if (stepApproverIds.includes(actor.employeeId)) return null;
  const delegator = (actor.delegatorIds ?? [])
    .map((id) => id.toLowerCase())
    .filter((id) => id !== actor.employeeId.toLowerCase())
    .sort()
    .find((id) => stepApproverIds.includes(id) && !barredFromDeciding(entry, { employeeId: id }));
  return delegator;
}

const refused = (code: RefusalCode, detail: string): Decision => ({ kind: 'refused', code, detail });

const STATUS_NAMES = ['Draft', 'Submitted', 'ChangesRequested', 'Approved', 'Rejected', 'Cancelled'];
const named = (s: EntryStatusValue) => `${STATUS_NAMES[s]} (${s})`;

/**
 * The next state of an entry for one operation, or why not. `workflow` is the tenant's workflow now
 * (read only by a submission: entries in approval keep the round they started with).
 */
export function decide(
  entry: WorkflowSubject,
  operation: WorkflowOperation,
  actor: Actor,
  workflow: SubmissionWorkflow,
): Decision {
  if (entry.numberClaim) return refused('INVALID_STATE', 'The trip is being authorized; read the entry again.');
  if (entry.isPaidOut) return refused('INVALID_STATE', 'The entry is paid out.');
  const open = entry.status === EntryStatus.Draft || entry.status === EntryStatus.ChangesRequested;
  const inApproval = entry.status === EntryStatus.Submitted && !!entry.approval;

  switch (operation) {
    case 'submit': {
      if (!open)
        return refused(
          'INVALID_STATE',
          `Only a Draft or ChangesRequested entry can be submitted; it is ${named(entry.status)}.`,
        );
      if (!actor.mayEdit)
        return refused('FORBIDDEN', "Only the entry's employee or a key with EditAllEntries submits it.");
      const phase: 0 | 1 = entry.isRequest ? 1 : 0;
      const plan = planSteps(
        entry.isRequest ? workflow.tripApprovalSteps : workflow.settlementSteps,
        ineligibleApprovers(entry),
        workflow.fallbackApproverIds,
      );
      if (plan.kind === 'blocked') return refused('CONFLICT', plan.detail);
      if (plan.kind === 'steps')
        return moved(EntryStatus.Submitted, phase, entry.isRequest, { phase, steps: plan.steps, currentStep: 0 }, [
          { action: 'Submitted', status: EntryStatus.Submitted, phase, step: null },
        ]);
      // No workflow (no step naming anyone): decided on submission, entry.updated only.
      if (entry.isRequest)
        return authorize([{ action: 'Submitted', status: EntryStatus.Submitted, phase: 1, step: null }]);
      return {
        ...moved(EntryStatus.Approved, entry.phase, false, null, [
          { action: 'Submitted', status: EntryStatus.Submitted, phase: entry.phase, step: null },
          { action: 'AutoApproved', status: EntryStatus.Approved, phase: entry.phase, step: null },
        ]),
        approved: true,
      };
    }
    case 'cancel': {
      if (!open && entry.status !== EntryStatus.Submitted)
        return refused(
          'INVALID_STATE',
          `Only a Draft, Submitted or ChangesRequested entry can be cancelled; it is ${named(entry.status)}.`,
        );
      if (!actor.mayEdit)
        return refused('FORBIDDEN', "Only the entry's employee or a key with EditAllEntries cancels it.");
      return moved(EntryStatus.Cancelled, entry.phase, entry.isRequest, null, [
        { action: 'Cancelled', status: EntryStatus.Cancelled, phase: entry.phase, step: null },
      ]);
    }
    case 'approve':
    case 'reject':
    case 'request-changes': {
      if (!inApproval)
        return refused(
          'INVALID_STATE',
          `Only a Submitted entry in approval can be decided; it is ${named(entry.status)}.`,
        );
      const round = entry.approval!;
      const step = round.currentStep;
      const barred = barredFromDeciding(entry, actor);
      if (barred) return refused('FORBIDDEN', barred);
      const as = deciderAt(entry, round.steps[step]?.approverIds ?? [], actor);
      if (as === undefined)
        return refused(
          'FORBIDDEN',
          `Only an eligible approver of the current step (${step + 1} of ${round.steps.length}) decides, ` +
            "or an approver's delegate during the delegation's period.",
        );
      // A delegate's decision moves the entry exactly as the approver's would; only the record differs.
      const forWhom = <D extends Extract<Decision, { kind: 'moved' }>>(d: D): D => ({ ...d, onBehalfOfEmployeeId: as });
      if (operation === 'reject')
        return forWhom(
          moved(EntryStatus.Rejected, round.phase, entry.isRequest, null, [
            { action: 'Rejected', status: EntryStatus.Rejected, phase: round.phase, step },
          ]),
        );
      if (operation === 'request-changes')
        return forWhom(
          moved(EntryStatus.ChangesRequested, round.phase, entry.isRequest, null, [
            { action: 'ChangesRequested', status: EntryStatus.ChangesRequested, phase: round.phase, step },
          ]),
        );
      if (step + 1 < round.steps.length)
        return forWhom(
          moved(EntryStatus.Submitted, round.phase, entry.isRequest, { ...round, currentStep: step + 1 }, [
            { action: 'Approved', status: EntryStatus.Submitted, phase: round.phase, step },
          ]),
        );
      if (round.phase === 1)
        return forWhom(authorize([{ action: 'Approved', status: EntryStatus.Submitted, phase: 1, step }]));
      return forWhom({
        ...moved(EntryStatus.Approved, 0, false, null, [
          { action: 'Approved', status: EntryStatus.Approved, phase: 0, step },
        ]),
        event: 'entry.approved',
        approved: true,
      });
    }
  }
}

function moved(
  status: EntryStatusValue,
  phase: EntryPhase,
  isRequest: boolean,
  approval: ApprovalRound | null,
  records: Omit<AuditRecord, 'employeeId' | 'at' | 'comment'>[],
): Extract<Decision, { kind: 'moved' }> {
  return {
    kind: 'moved',
    status,
    phase,
    isRequest,
    approval,
    records,
    onBehalfOfEmployeeId: null,
    event: 'entry.updated',
    issueNumber: false,
    approved: false,
  };
}

/**
 * Trip authorized: the request becomes an order (`isRequest` false) open for its settlement (Draft, phase 0
 * Standard), and its entry number is issued. `entry.updated` only, never `entry.approved`.
 */
function authorize(before: Omit<AuditRecord, 'employeeId' | 'at' | 'comment'>[]): Extract<Decision, { kind: 'moved' }> {
  return {
    ...moved(EntryStatus.Draft, 0, false, null, [
      ...before,
      { action: 'Authorized', status: EntryStatus.Draft, phase: 0, step: null },
    ]),
    issueNumber: true,
  };
}
