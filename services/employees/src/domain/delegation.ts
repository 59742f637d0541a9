// An approver's delegation: another employee of the company decides the approver's approval steps for a
// period (issue 39 §2, docs/decisions/0205). Pure: the app reads the approver's delegations and the
// delegate, decides here, writes them back as one document at the revision it read.
import type { FieldErrors } from '@travel/platform';
import { isCalendarDate } from '@travel/platform/src/calendar-date';
import type { EmployeeStatus } from './employee';
import { optionalText } from './text';

/** The longest period one delegation covers, in days (both ends counted): a holiday, a leave, not a handover. */
export const MAX_DELEGATION_DAYS = 92;
export const REASON_MAX_LENGTH = 500;

export interface Delegation {
  id: string;
  delegateId: string;
  /** First and last day of the period, both included, in the company market's calendar. */
  firstDay: string;
  lastDay: string;
  reason: string | null;
  createdAt: Date;
  createdByEmployeeId: string;
  /** Set when it was withdrawn (before its period) or ended early (during it); it grants nothing after. */
  withdrawnAt: Date | null;
  withdrawnByEmployeeId: string | null;
}

export interface DelegationWrite {
  delegateId: string;
  firstDay: string;
  lastDay: string;
  reason?: string | null;
}

/** What the rules need of the delegate named: null when they are not an employee of the company. */
export interface DelegateState {
  status: EmployeeStatus;
  isArchived: boolean;
}

const DAY_MS = 86_400_000;
/** Days from `a` to `b` (both `yyyy-MM-dd`): 0 for the same day. */
const daysBetween = (a: string, b: string): number =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);

/** Whether the delegation lets its delegate act on `day` (not withdrawn, the day inside its period). */
export const coversDay = (d: Delegation, day: string): boolean =>
  d.withdrawnAt === null && d.firstDay <= day && day <= d.lastDay;

/**
 * Why a new delegation of `approverId` is refused, keyed by the body's field; empty when it is allowed.
 * `today` is the day in the company market's calendar: a period that is already over grants nothing, so it
 * is refused as a mistake. Overlapping periods of one approver are refused: on any day one person at most
 * acts for an approver, so the audit log and the approver know whom to ask.
 */
export function delegationErrors(
  input: DelegationWrite,
  approverId: string,
  delegate: DelegateState | null,
  existing: readonly Delegation[],
  today: string,
): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (input.delegateId.toLowerCase() === approverId.toLowerCase())
    add('delegateId', 'must be someone other than the approver');
  else if (!delegate) add('delegateId', 'must be an employee of this company');
  else if (delegate.isArchived || delegate.status !== 'Active')
    add('delegateId', 'must be an active, unarchived employee');
  const days = [input.firstDay, input.lastDay].every(isCalendarDate);
  if (!isCalendarDate(input.firstDay)) add('firstDay', 'must be a date (yyyy-MM-dd)');
  if (!isCalendarDate(input.lastDay)) add('lastDay', 'must be a date (yyyy-MM-dd)');
  if (days) {
    const length = daysBetween(input.firstDay, input.lastDay) + 1;
    if (length < 1) add('lastDay', 'must not be before firstDay');
    else if (length > MAX_DELEGATION_DAYS)
      add('lastDay', `must be at most ${MAX_DELEGATION_DAYS} days after firstDay, both days counted`);
    else if (input.lastDay < today) add('lastDay', `must not be before today (${today}): the period is over`);
    else {
      const clash = existing.find(
        (d) => d.withdrawnAt === null && d.firstDay <= input.lastDay && input.firstDay <= d.lastDay,
      );
      if (clash)
        add(
          'firstDay',
          `overlaps delegation ${clash.id} (${clash.firstDay} to ${clash.lastDay}); withdraw it or choose another period`,
        );
    }
  }
  const reason = optionalText(input.reason, false, REASON_MAX_LENGTH).problem;
  if (reason) add('reason', reason);
  return errors;
}

/** Newest period first; among equal first days the one created last first. */
export const newestFirst = (list: readonly Delegation[]): Delegation[] =>
  [...list].sort((a, b) => b.firstDay.localeCompare(a.firstDay) || b.createdAt.getTime() - a.createdAt.getTime());
