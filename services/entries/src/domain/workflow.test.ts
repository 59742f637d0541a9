import { EntryStatus } from './entry';
import { barredFromDeciding, decide, ineligibleApprovers, planSteps, type WorkflowSubject } from './workflow';

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
const FALLBACK = 'fallback';
const none = { settlementSteps: [], tripApprovalSteps: [], fallbackApproverIds: [FALLBACK] };
const twoSteps = {
  settlementSteps: [{ approverIds: ['a', OWNER] }, { approverIds: ['b'] }],
  tripApprovalSteps: [],
  fallbackApproverIds: [FALLBACK],
};

describe('planSteps (segregation of duties, docs/decisions/0105)', () => {
  it('leaves the ineligible out of every step and drops duplicates', () => {
    expect(planSteps([{ approverIds: ['A', 'a', OWNER] }, { approverIds: ['b'] }], [OWNER], [FALLBACK])).toEqual({
      kind: 'steps',
      steps: [{ approverIds: ['a'] }, { approverIds: ['b'] }],
    });
  });

  it('gives a step the ineligible leave empty to the fallback approvers, never skips it', () => {
    expect(planSteps([{ approverIds: [OWNER] }, { approverIds: ['b'] }], [OWNER], [FALLBACK, OWNER])).toEqual({
      kind: 'steps',
      steps: [{ approverIds: [FALLBACK] }, { approverIds: ['b'] }],
    });
  });

  it('is blocked, not approved, when the fallback approvers are ineligible too', () => {
    expect(planSteps([{ approverIds: [OWNER] }], [OWNER, 'creator'], ['creator'])).toMatchObject({
      kind: 'blocked',
      detail: expect.stringContaining('step 1'),
    });
    expect(planSteps([{ approverIds: [OWNER] }], [OWNER], [])).toMatchObject({ kind: 'blocked' });
  });

  it('no step naming anyone is no workflow (auto-approval), whoever the fallback approvers are', () => {
    expect(planSteps([], [OWNER], [])).toEqual({ kind: 'none' });
    expect(planSteps([{ approverIds: [] }], [OWNER], [FALLBACK])).toEqual({ kind: 'none' });
  });
});

describe('ineligibleApprovers', () => {
  it("is the entry's employee and its creator (entries stored before have no creator)", () => {
    expect(ineligibleApprovers({ employeeId: OWNER, createdByEmployeeId: 'C' })).toEqual([OWNER, 'c']);
    expect(ineligibleApprovers({ employeeId: OWNER, createdByEmployeeId: OWNER })).toEqual([OWNER]);
    expect(ineligibleApprovers({ employeeId: OWNER, createdByEmployeeId: null })).toEqual([OWNER]);
    expect(ineligibleApprovers({ employeeId: OWNER })).toEqual([OWNER]);
  });
});

describe('barredFromDeciding: the people behind a decision (docs/decisions/0194)', () => {
  const made = { employeeId: OWNER, createdByEmployeeId: 'creator' };

  it("bars the key's employee when they own or created the entry", () => {
    expect(barredFromDeciding(made, { employeeId: OWNER })).toBe('Nobody decides on their own entry.');
    expect(barredFromDeciding(made, { employeeId: 'creator' })).toMatch(/created/);
  });

  it('bars a key whose issuer owns or created the entry, whoever the key is for', () => {
    expect(barredFromDeciding(made, { employeeId: 'approver', keyIssuedByEmployeeId: OWNER })).toMatch(
      /own entry.*key they issued/,
    );
    for (const issuer of ['creator', 'CREATOR'])
      expect(barredFromDeciding(made, { employeeId: 'approver', keyIssuedByEmployeeId: issuer })).toMatch(
        /created.*key they issued/,
      );
  });

  it('lets anyone else decide: an approver with their own key, or with a key from an uninvolved issuer', () => {
    expect(barredFromDeciding(made, { employeeId: 'approver' })).toBeUndefined();
    expect(barredFromDeciding(made, { employeeId: 'approver', keyIssuedByEmployeeId: null })).toBeUndefined();
    expect(barredFromDeciding(made, { employeeId: 'approver', keyIssuedByEmployeeId: 'someone' })).toBeUndefined();
  });
});

describe('decide', () => {
  it('submit without a workflow approves automatically: entry.updated, never entry.approved', () => {
    const d = decide(entry(), 'submit', owner, none);
    expect(d).toMatchObject({ kind: 'moved', status: 3, phase: null, event: 'entry.updated', approved: true });
  });

  it("a sole approver's own entry goes to the fallback approvers, never straight to Approved", () => {
    const sole = {
      settlementSteps: [{ approverIds: [OWNER] }],
      tripApprovalSteps: [],
      fallbackApproverIds: [FALLBACK],
    };
    expect(decide(entry(), 'submit', owner, sole)).toMatchObject({
      status: 1,
      approval: { steps: [{ approverIds: [FALLBACK] }], currentStep: 0 },
    });
    expect(decide(entry(), 'submit', owner, { ...sole, fallbackApproverIds: [OWNER] })).toMatchObject({
      kind: 'refused',
      code: 'CONFLICT',
    });
  });

  it('an entry created for someone by its sole approver goes to the fallback; the creator may not decide', () => {
    const createdByEmployeeId = 'a';
    const byA = { settlementSteps: [{ approverIds: ['a'] }], tripApprovalSteps: [], fallbackApproverIds: [FALLBACK] };
    const submitted = decide(entry({ createdByEmployeeId }), 'submit', owner, byA);
    expect(submitted).toMatchObject({ status: 1, approval: { steps: [{ approverIds: [FALLBACK] }] } });
    // A round that still names the creator (submitted before): they are refused all the same.
    const round = { phase: 0 as const, steps: [{ approverIds: ['a', FALLBACK] }], currentStep: 0 };
    const inApproval = entry({ status: 1, phase: 0, approval: round, createdByEmployeeId });
    for (const op of ['approve', 'reject', 'request-changes'] as const)
      expect(decide(inApproval, op, approver('a'), none)).toMatchObject({ code: 'FORBIDDEN' });
    expect(decide(inApproval, 'approve', approver(FALLBACK), none)).toMatchObject({ status: 3 });
  });

  it('an approver acting through a key issued by the entry’s employee may not decide; the same approver may otherwise', () => {
    const round = { phase: 0 as const, steps: [{ approverIds: ['a'] }], currentStep: 0 };
    const inApproval = entry({ status: 1, phase: 0, approval: round, createdByEmployeeId: OWNER });
    for (const op of ['approve', 'reject', 'request-changes'] as const)
      expect(
        decide(inApproval, op, { employeeId: 'a', keyIssuedByEmployeeId: OWNER, mayEdit: false }, none),
      ).toMatchObject({ kind: 'refused', code: 'FORBIDDEN' });
    expect(decide(inApproval, 'approve', approver('a'), none)).toMatchObject({ status: 3 });
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
    const trip = { settlementSteps: [], tripApprovalSteps: [{ approverIds: ['a'] }], fallbackApproverIds: [] };
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

describe('deciding as a delegate (issue 39 §2, docs/decisions/0205)', () => {
  // Two steps: 'a' decides the first, 'b' the second; 'd' is 'a's delegate, 'e' is 'd's.
  const round = { phase: 0 as const, steps: [{ approverIds: ['a'] }, { approverIds: ['b'] }], currentStep: 0 };
  const inApproval = (over: Partial<WorkflowSubject> = {}) => entry({ status: 1, phase: 0, approval: round, ...over });
  const delegate = (employeeId: string, delegatorIds: string[], keyIssuedByEmployeeId?: string) => ({
    employeeId,
    delegatorIds,
    keyIssuedByEmployeeId,
    mayEdit: false,
  });

  it("decides the approver's step exactly as the approver would, naming the approver it acted for", () => {
    const byApprover = decide(inApproval(), 'approve', approver('a'), none);
    const byDelegate = decide(inApproval(), 'approve', delegate('d', ['a']), none);
    expect(byApprover).toMatchObject({ onBehalfOfEmployeeId: null });
    expect(byDelegate).toEqual({ ...byApprover, onBehalfOfEmployeeId: 'a' });
    // The last step by a delegate: Approved and entry.approved, as by the approver.
    const atLast = inApproval({ approval: { ...round, currentStep: 1 } });
    expect(decide(atLast, 'approve', delegate('d', ['b']), none)).toMatchObject({
      status: 3,
      event: 'entry.approved',
      approved: true,
      onBehalfOfEmployeeId: 'b',
    });
    expect(decide(inApproval(), 'reject', delegate('d', ['a']), none)).toMatchObject({
      status: 4,
      onBehalfOfEmployeeId: 'a',
    });
    expect(decide(inApproval(), 'request-changes', delegate('d', ['a']), none)).toMatchObject({
      status: 2,
      onBehalfOfEmployeeId: 'a',
    });
  });

  it("an approver of the step decides as themself even when they are someone's delegate too", () => {
    expect(decide(inApproval(), 'approve', delegate('a', ['b']), none)).toMatchObject({ onBehalfOfEmployeeId: null });
  });

  it('decides only the step whose approver named them, not another step, and is not transitive', () => {
    // 'b' decides step 2, not the current step 1.
    expect(decide(inApproval(), 'approve', delegate('d', ['b']), none)).toMatchObject({ code: 'FORBIDDEN' });
    // 'e' is the delegate of 'd', who is 'a's delegate: the employees context answers only 'd' for 'e'.
    expect(decide(inApproval(), 'approve', delegate('e', ['d']), none)).toMatchObject({ code: 'FORBIDDEN' });
    expect(decide(inApproval(), 'approve', delegate('d', []), none)).toMatchObject({ code: 'FORBIDDEN' });
  });

  it("nobody decides their own entry, or one they created, as someone's delegate", () => {
    for (const op of ['approve', 'reject', 'request-changes'] as const) {
      expect(decide(inApproval({ employeeId: 'd' }), op, delegate('d', ['a']), none)).toMatchObject({
        code: 'FORBIDDEN',
        detail: 'Nobody decides on their own entry.',
      });
      expect(decide(inApproval({ createdByEmployeeId: 'd' }), op, delegate('d', ['a']), none)).toMatchObject({
        code: 'FORBIDDEN',
        detail: 'Nobody decides on an entry they created, even for someone else.',
      });
      // Nor through a key the entry's employee issued for the delegate.
      expect(decide(inApproval(), op, delegate('d', ['a'], OWNER), none)).toMatchObject({ code: 'FORBIDDEN' });
    }
  });

  it("never widens the approver's rights: an approver who may not decide this entry lends nothing", () => {
    // A round stored before 0105 that still names the entry's creator 'a': 'a' may not decide, nor may 'a's delegate.
    const stale = inApproval({ createdByEmployeeId: 'a' });
    expect(decide(stale, 'approve', approver('a'), none)).toMatchObject({ code: 'FORBIDDEN' });
    expect(decide(stale, 'approve', delegate('d', ['a']), none)).toMatchObject({ code: 'FORBIDDEN' });
  });
});
