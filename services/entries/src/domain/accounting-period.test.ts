import {
  closedForChanges,
  closedForReopening,
  entryMonths,
  makesEditable,
  monthsBetween,
  monthsChanged,
  periodDays,
  reasonProblem,
  refusalOf,
} from './accounting-period';
import { EntryStatus } from './entry-status';

const taxi = { _id: 'x1', kind: 'Other', date: '2026-03-31', amount: '12.00', editedAt: new Date('2026-04-01T08:00:00Z') };
const hotel = { _id: 'x2', kind: 'Accommodation', date: '2026-04-01', amount: '80.00', description: null };
const row = { date: '2026-03-31', hours: 9, amount: '155.00' };

describe('monthsChanged: the months in which expenses or per-diem rows are created, changed or removed', () => {
  it('nothing changed: no month, even when the rows come back in another order or as stored (dates, nulls)', () => {
    const stored = { expenses: [taxi, hotel], perDiems: [row] };
    const again = {
      expenses: [{ ...hotel, description: undefined }, { ...taxi, editedAt: new Date('2026-04-01T08:00:00.000Z') }],
      perDiems: [{ ...row }],
    };
    expect(monthsChanged(stored, again)).toEqual([]);
  });

  it('a new expense touches its month only', () => {
    expect(monthsChanged({ expenses: [taxi] }, { expenses: [taxi, hotel] })).toEqual(['2026-04']);
  });

  it('an expense moved from 31 March to 1 April touches both months', () => {
    expect(monthsChanged({ expenses: [taxi] }, { expenses: [{ ...taxi, date: '2026-04-01' }] })).toEqual([
      '2026-03',
      '2026-04',
    ]);
  });

  it('a changed amount touches the month; a removal too; a per-diem row like an expense', () => {
    const dearer = { ...taxi, amount: '13.00' };
    expect(monthsChanged({ expenses: [taxi] }, { expenses: [dearer] })).toEqual(['2026-03']);
    expect(monthsChanged({ expenses: [taxi, hotel] }, { expenses: [hotel] })).toEqual(['2026-03']);
    expect(monthsChanged({ perDiems: [row] }, { perDiems: [] })).toEqual(['2026-03']);
    // A whole entry deleted: everything it carries.
    expect(monthsChanged({ expenses: [taxi, hotel], perDiems: [row] }, {})).toEqual(['2026-03', '2026-04']);
  });
});

describe('entryMonths: where an entry lies', () => {
  it('every month of the trip, and the months of what it carries outside the trip', () => {
    const entry = { departureDate: '2026-01-30', returnDate: '2026-03-02', expenses: [{ date: '2025-12-20' }] };
    expect(entryMonths(entry)).toEqual(['2025-12', '2026-01', '2026-02', '2026-03']);
  });

  it('months across a year end', () => {
    expect(monthsBetween('2025-11-15', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
});

describe('refusals name the periods', () => {
  it('none closed: no refusal', () => {
    expect(closedForChanges([])).toBeUndefined();
    expect(closedForReopening([])).toBeUndefined();
  });

  it('one period, several periods (sorted)', () => {
    expect(closedForChanges(['2026-03'])).toEqual({
      periods: ['2026-03'],
      detail: expect.stringMatching(/^The accounting period 2026-03 is closed: /),
    });
    expect(closedForReopening(['2026-04', '2026-03'])).toEqual({
      periods: ['2026-03', '2026-04'],
      detail: expect.stringMatching(/^The accounting periods 2026-03, 2026-04 are closed: /),
    });
  });
});

describe('close and reopen', () => {
  it('a repeat is refused: closing a closed period, reopening an open one', () => {
    expect(refusalOf('2026-03', 'Open', 'Closed')).toBeUndefined();
    expect(refusalOf('2026-03', 'Closed', 'Reopened')).toBeUndefined();
    expect(refusalOf('2026-03', 'Closed', 'Closed')).toBe('The accounting period 2026-03 is already closed.');
    expect(refusalOf('2026-03', 'Open', 'Reopened')).toBe('The accounting period 2026-03 is not closed.');
  });

  it('a reason is 1–500 characters, not blank, one line', () => {
    expect(reasonProblem('March booked')).toBeUndefined();
    expect(reasonProblem('x'.repeat(500))).toBeUndefined();
    expect(reasonProblem('x'.repeat(501))).toBe('must NOT have more than 500 characters');
    expect(reasonProblem('   ')).toBe('must not be blank');
    expect(reasonProblem(undefined)).toBe('is required');
    expect(reasonProblem('a\u0007b')).toBe('must not contain control characters');
  });

  it('a period’s days: February 2028 has 29', () => {
    expect(periodDays('2028-02')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(periodDays('2026-12')).toEqual({ first: '2026-12-01', last: '2026-12-31' });
  });
});

describe('makesEditable: the transitions a closed period refuses for an entry lying in it', () => {
  it('Submitted → ChangesRequested (request-changes) and Submitted → Draft (a trip authorized)', () => {
    expect(makesEditable(EntryStatus.Submitted, EntryStatus.ChangesRequested)).toBe(true);
    expect(makesEditable(EntryStatus.Submitted, EntryStatus.Draft)).toBe(true);
  });

  it('not a submission, an approval, a rejection or a cancellation', () => {
    expect(makesEditable(EntryStatus.Draft, EntryStatus.Submitted)).toBe(false);
    expect(makesEditable(EntryStatus.Submitted, EntryStatus.Approved)).toBe(false);
    expect(makesEditable(EntryStatus.Submitted, EntryStatus.Rejected)).toBe(false);
    expect(makesEditable(EntryStatus.Draft, EntryStatus.Cancelled)).toBe(false);
    // A request authorized at its submission (no trip-approval steps) was open before.
    expect(makesEditable(EntryStatus.Draft, EntryStatus.Draft)).toBe(false);
  });
});
