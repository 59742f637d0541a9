import { applyChange, directionOf, isReady, type EntryChange } from './ready';

const change = (rev: number, over: Partial<EntryChange> = {}): EntryChange => ({
  entryId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  entryNumber: '2026-00042',
  employeeId: '0b8e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c',
  status: 3,
  isPaidOut: false,
  deleted: false,
  approvedAt: '2026-11-20T09:00:00.000Z',
  baseCurrency: 'EUR',
  amountDue: '120.50',
  rev,
  ...over,
});
const at = new Date('2026-11-21T12:00:00.000Z');

describe('the ready-for-payout projection', () => {
  it('ready = approved, not paid out, not deleted, something due (either sign)', () => {
    const base = { status: 3, isPaidOut: false, deleted: false, amountDue: '1.00' };
    expect(isReady(base)).toBe(true);
    expect(isReady({ ...base, amountDue: '-250.00' })).toBe(true);
    expect(isReady({ ...base, amountDue: '0.00' })).toBe(false);
    // Not known (a per-diem row has no amount, docs/decisions/0109): never ready, never paid as 0.
    expect(isReady({ ...base, amountDue: null })).toBe(false);
    expect(isReady({ ...base, isPaidOut: true })).toBe(false);
    expect(isReady({ ...base, deleted: true })).toBe(false);
    for (const status of [0, 1, 2, 4, 5]) expect(isReady({ ...base, status })).toBe(false);
  });

  it('keeps the highest revision: an older or repeated change is ignored', () => {
    const row = applyChange(null, 't1', change(5), at)!;
    expect(row).toMatchObject({ ready: true, rev: 5, approvedAt: new Date('2026-11-20T09:00:00.000Z') });
    expect(applyChange(row, 't1', change(5, { isPaidOut: true }), at)).toBeUndefined();
    expect(applyChange(row, 't1', change(4, { status: 1 }), at)).toBeUndefined();
    const paid = applyChange(row, 't1', change(9, { isPaidOut: true }), at)!;
    expect(paid.ready).toBe(false);
    // The approval time survives a change that does not carry it, while the entry stays approved.
    expect(applyChange(paid, 't1', change(10, { approvedAt: null }), at)!.approvedAt).toEqual(row.approvedAt);
  });

  it('without an approval time from entries, the first change that sees it approved dates it', () => {
    const draft = applyChange(null, 't1', change(1, { status: 0, approvedAt: null }), at)!;
    expect(draft.approvedAt).toBeNull();
    expect(applyChange(draft, 't1', change(2, { approvedAt: null }), at)!.approvedAt).toEqual(at);
  });

  it('a negative balance is owed by the employee', () => {
    expect(directionOf('-0.01')).toBe('FromEmployee');
    expect(directionOf('10.00')).toBe('ToEmployee');
  });
});
