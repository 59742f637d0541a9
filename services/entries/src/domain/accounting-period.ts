// Closed accounting periods (issue 39 §3, docs/decisions/0207, 0208): a company closes a calendar month of
// its market's calendar; from then on nothing dated in it changes. Pure: the app reads the entry and the
// periods' states from the store, decides here, and writes.
import { isDeepStrictEqual } from 'node:util';
import { hasControlCharacters } from '@travel/text-rules';
import { EntryStatus, type EntryStatusValue } from './entry-status';
import { isMonth } from './payroll-export';

/** A period is a calendar month, `YYYY-MM`. */
export const isPeriod = isMonth;

export type PeriodState = 'Open' | 'Closed';
export type PeriodAction = 'Closed' | 'Reopened';

/** One line of a period's audit trail: who closed or reopened it, when, and why. */
export interface PeriodRecord {
  action: PeriodAction;
  employeeId: string;
  /** Who issued the API key used, when that is not `employeeId` (as the entries' audit log, 0104). */
  keyIssuedByEmployeeId: string | null;
  at: Date;
  reason: string;
}

/** The longest reason a close or reopen keeps (the contract's `maxLength`, held in the code too). */
export const REASON_MAX = 500;

/** Why a reason is refused (400 under `reason`), or undefined: 1–500 characters, not blank. */
export function reasonProblem(reason: unknown): string | undefined {
  if (typeof reason !== 'string') return 'is required';
  if (!reason.trim()) return 'must not be blank';
  if (hasControlCharacters(reason.trim())) return 'must not contain control characters';
  if ([...reason.trim()].length > REASON_MAX) return `must NOT have more than ${REASON_MAX} characters`;
  return undefined;
}

/**
 * Why the action cannot be taken on a period in `state`, or undefined. A repeat is refused (409
 * `INVALID_STATE`), not answered as done: each close and reopen is a line of the audit trail with its own
 * reason, and a retried request is already answered once by its `Idempotency-Key` (0195).
 */
export function refusalOf(period: string, state: PeriodState, action: PeriodAction): string | undefined {
  if (action === 'Closed' && state === 'Closed') return `The accounting period ${period} is already closed.`;
  if (action === 'Reopened' && state === 'Open') return `The accounting period ${period} is not closed.`;
  return undefined;
}

/** What of an entry is dated: its expenses (mileage is one) and its per-diem rows, each by its `date`. */
export interface DatedChildren {
  expenses?: readonly { date: string }[] | null;
  perDiems?: readonly { date: string }[] | null;
}

const monthOf = (date: string): string => date.slice(0, 7);

/**
 * A record as compared: keys in order, `undefined` and `null` alike left out, dates as their instants, so a
 * row stored and the same row computed again compare equal.
 */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined && v !== null) out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

/** The rows dated in `month`, canonical, in a stable order (a write may reorder rows without changing them). */
function rowsIn(rows: readonly { date: string }[], month: string): string[] {
  return rows
    .filter((r) => monthOf(r.date) === month)
    .map((r) => JSON.stringify(canonical(r)))
    .sort();
}

/**
 * The months in which a write creates, changes or removes an expense or a per-diem row: those where the
 * entry's dated rows before and after differ. A row moved from one month to another touches both.
 */
export function monthsChanged(before: DatedChildren, after: DatedChildren): string[] {
  const months = new Set<string>();
  for (const kind of ['expenses', 'perDiems'] as const) {
    const [was, will] = [before[kind] ?? [], after[kind] ?? []];
    for (const month of new Set([...was, ...will].map((r) => monthOf(r.date))))
      if (!isDeepStrictEqual(rowsIn(was, month), rowsIn(will, month))) months.add(month);
  }
  return [...months].sort();
}

/** Every month from the first date's to the last's, inclusive, ascending. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let [y, m] = first.split('-').map(Number) as [number, number];
  const end = monthOf(last);
  for (let guard = 0; guard < 1200; guard++) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    if (month > end) break;
    months.push(month);
    [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  }
  return months;
}

/**
 * The months an entry lies in: its trip (departure to return) and whatever it carries dated outside it.
 * Reopening the entry would make all of them editable again.
 */
export function entryMonths(
  entry: DatedChildren & { departureDate: string; returnDate: string },
): string[] {
  const months = new Set(monthsBetween(entry.departureDate, entry.returnDate));
  for (const row of [...(entry.expenses ?? []), ...(entry.perDiems ?? [])]) months.add(monthOf(row.date));
  return [...months].sort();
}

/** The refusal of a write that touches closed periods (409 `PERIOD_CLOSED`), naming them. */
export interface ClosedPeriodRefusal {
  periods: string[];
  detail: string;
}

const listed = (periods: readonly string[]): string =>
  periods.length === 1 ? `period ${periods[0]} is` : `periods ${periods.join(', ')} are`;

/** A change of expenses or per-diem rows dated in closed periods: refused, naming the periods. */
export function closedForChanges(closed: readonly string[]): ClosedPeriodRefusal | undefined {
  if (closed.length === 0) return undefined;
  const periods = [...closed].sort();
  return {
    periods,
    detail:
      `The accounting ${listed(periods)} closed: no expense, per-diem or mileage dated in it can be created, ` +
      'changed or removed. Reopen the period first (POST /api/v1/accounting-periods/{period}/reopen).',
  };
}

/** A transition that would make an entry lying in closed periods editable again: refused, naming them. */
export function closedForReopening(closed: readonly string[]): ClosedPeriodRefusal | undefined {
  if (closed.length === 0) return undefined;
  const periods = [...closed].sort();
  return {
    periods,
    detail:
      `The accounting ${listed(periods)} closed: an entry whose trip lies in it cannot be made editable ` +
      'again. Reopen the period first (POST /api/v1/accounting-periods/{period}/reopen).',
  };
}

/** The calendar days of a period, first and last (`YYYY-MM-DD`). */
export function periodDays(period: string): { first: string; last: string } {
  const [y, m] = period.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  return { first: `${period}-01`, last };
}

/**
 * Whether a workflow transition makes the entry editable again: from a locked status (submitted) back to
 * one its owner may change (Draft or ChangesRequested). Request-changes does, and so does a trip
 * authorization (the request becomes an order open for its settlement).
 */
export const makesEditable = (from: EntryStatusValue, to: EntryStatusValue): boolean =>
  !OPEN.has(from) && OPEN.has(to);

const OPEN = new Set<EntryStatusValue>([EntryStatus.Draft, EntryStatus.ChangesRequested]);
