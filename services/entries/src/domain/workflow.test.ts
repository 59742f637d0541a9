import { EntryStatus } from './entry';
import { decide, effectiveSteps, type WorkflowSubject } from './workflow';

const OWNER = 'owner';
const entry = (over: Partial<WorkflowSubject> = {}): WorkflowSubject => ({
  employeeId: OWNER,
  status: EntryStatus.Draft,
  phase: null,
  isRequest: false,
  isPaidOut: false,
  ...over,
});
const owner = { employeeId: OWNER, mayEdit: true };
const approver = (employeeId: string) => ({ employeeId, mayEdit: false });
const none = { settlementSteps: [], tripApprovalSteps: [] };
const twoSteps = { settlementSteps: [{ approverIds: ['a', OWNER] }, { approverIds: ['b'] }], tripApprovalSteps: [] };

describe('effectiveSteps', () => {
  it('leaves the entry employee out of every step, drops duplicates and steps nobody is left in', () => {
    expect(effectiveSteps([{ approverIds: [OWNER] }, { approverIds: ['A', 'a', OWNER] }], OWNER)).toEqual([
      { approverIds: ['a'] },
    ]);
  });
});

describe('decide', () => {
  it('submit without a workflow approves automatically: entry.updated, never entry.approved', () => {
    const d = decide(entry(), 'submit', owner, none);
    expect(d).toMatchObject({ kind: 'moved', status: 3, phase: null, event: 'entry.updated', approved: true });
  });

  it('a workflow whose only approver is the entry employee is no workflow for that entry', () => {
    const d = decide(entry(), 'submit', owner, { settlementSteps: [{ approverIds: [OWNER] }], tripApprovalSteps: [] });
    expect(d).toMatchObject({ status: 3, event: 'entry.updated' });
  });

  it('submit with a workflow: Submitted in phase 0 with the steps copied; the last step raises entry.approved', () => {
    const submitted = decide(entry(), 'submit', owner, twoSteps);
    expect(submitted).toMatchObject({ status: 1, phase: 0, approval: { phase: 0, currentStep: 0 } });
    if (submitted.kind !== 'moved') throw new Error('refused');
    const inApproval = entry({ status: 1, phase: 0, approval: submitted.approval });
    expect(decide(inApproval, 'approve', approver('b'), none)).toMatchObject({ kind: 'refused', code: 'FORBIDDEN' });
    expect(decide(inApproval, 'approve', { employeeId: OWNER, mayEdit: true }, none)).toMatchObject({
      code: 'FORBIDDEN',
    });
    const first = decide(inApproval, 'approve', approver('a'), none);
    expect(first).toMatchObject({ status: 1, event: 'entry.updated', approval: { currentStep: 1 } });
    if (first.kind !== 'moved') throw new Error('refused');
    const last = decide({ ...inApproval, approval: first.approval }, 'approve', approver('b'), none);
    expect(last).toMatchObject({ status: 3, phase: 0, event: 'entry.approved', approved: true, issueNumber: false });
  });

  it('a trip request: authorization issues the number, makes it an order in settlement, entry.updated only', () => {
    const trip = { settlementSteps: [], tripApprovalSteps: [{ approverIds: ['a'] }] };
    const submitted = decide(entry({ isRequest: true, phase: 1 }), 'submit', owner, trip);
    expect(submitted).toMatchObject({ status: 1, phase: 1, isRequest: true });
    if (submitted.kind !== 'moved') throw new Error('refused');
    const authorized = decide(
      entry({ isRequest: true, status: 1, phase: 1, approval: submitted.approval }),
      'approve',
      approver('a'),
      none,
    );
    expect(authorized).toMatchObject({
      status: 0,
      phase: 0,
      isRequest: false,
      issueNumber: true,
      event: 'entry.updated',
    });
    expect(decide(entry({ isRequest: true, phase: 1 }), 'submit', owner, none)).toMatchObject({
      isRequest: false,
      issueNumber: true,
    });
  });

  it.each([
    ['submit', EntryStatus.Submitted],
    ['submit', EntryStatus.Approved],
    ['cancel', EntryStatus.Approved],
    ['cancel', EntryStatus.Rejected],
    ['approve', EntryStatus.Draft],
    ['reject', EntryStatus.ChangesRequested],
    ['request-changes', EntryStatus.Cancelled],
  ] as const)('%s on status %i is INVALID_STATE', (operation, status) => {
    expect(decide(entry({ status }), operation, owner, twoSteps)).toMatchObject({ code: 'INVALID_STATE' });
  });

  it('request-changes reopens (ChangesRequested); reject and cancel are terminal', () => {
    const round = { phase: 0 as const, steps: [{ approverIds: ['a'] }], currentStep: 0 };
    const inApproval = entry({ status: 1, phase: 0, approval: round });
    expect(decide(inApproval, 'request-changes', approver('a'), none)).toMatchObject({ status: 2, approval: null });
    expect(decide(inApproval, 'reject', approver('a'), none)).toMatchObject({ status: 4 });
    expect(decide(inApproval, 'cancel', approver('a'), none)).toMatchObject({ code: 'FORBIDDEN' });
    expect(decide(inApproval, 'cancel', owner, none)).toMatchObject({ status: 5 });
    expect(decide(entry({ status: 2, phase: 0 }), 'submit', owner, none)).toMatchObject({ status: 3 });
  });
});
