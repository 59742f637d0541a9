// The ready-for-payout projection (docs/decisions/0074): one row per entry, fed by `entries.entry-state.changed`.
// Pure: no I/O.
import { Decimal } from '@travel/money';

export const APPROVED = 3;

export interface EntryChange {
  entryId: string;
  entryNumber: string;
  employeeId: string;
  status: number;
  isPaidOut: boolean;
  deleted: boolean;
  approvedAt: string | null;
  baseCurrency: string;
  /** Computed by entries (docs/decisions/0109); null when not known (a per-diem row has no amount). */
  amountDue: string | null;
  rev: number;
}

export interface ReadyRow {
  _id: string;
  tenantId: string;
  entryNumber: string;
  employeeId: string;
  status: number;
  isPaidOut: boolean;
  deleted: boolean;
  approvedAt: Date | null;
  baseCurrency: string;
  /** Decimal text in the base currency; null when entries does not know it (never ready then). */
  amountDue: string | null;
  /** Approved, not paid out, not deleted, a known amount due other than zero: on the list. */
  ready: boolean;
  /** The entry revision this row reflects; an older or equal change is ignored. */
  rev: number;
}

/**
 * Ready = Approved, not paid out, not deleted, and a known amount due other than zero (either sign). An
 * unknown amount (null) is never paid as 0 (docs/decisions/0109).
 */
export const isReady = (r: Pick<ReadyRow, 'status' | 'isPaidOut' | 'deleted' | 'amountDue'>): boolean =>
  r.status === APPROVED && !r.isPaidOut && !r.deleted && r.amountDue !== null && !new Decimal(r.amountDue).isZero();

export type Direction = 'ToEmployee' | 'FromEmployee';
export const directionOf = (amountDue: string): Direction =>
  new Decimal(amountDue).isNegative() ? 'FromEmployee' : 'ToEmployee';

/**
 * The row after a change, or undefined when the change is not newer than the row (redelivered, or
 * overtaken by a later change). The approval time is the event's; failing that, the row keeps the one it
 * had while the entry stays approved, or takes the time of the first change that saw it approved.
 */
export function applyChange(
  stored: ReadyRow | null,
  tenantId: string,
  change: EntryChange,
  occurredAt: Date,
): ReadyRow | undefined {
  if (stored && stored.rev >= change.rev) return undefined;
  const approved = change.status === APPROVED;
  const approvedAt = !approved
    ? null
    : change.approvedAt
      ? new Date(change.approvedAt)
      : stored?.status === APPROVED && stored.approvedAt
        ? stored.approvedAt
        : occurredAt;
  const row: ReadyRow = {
    _id: change.entryId,
    tenantId,
    entryNumber: change.entryNumber,
    employeeId: change.employeeId,
    status: change.status,
    isPaidOut: change.isPaidOut,
    deleted: change.deleted,
    approvedAt,
    baseCurrency: change.baseCurrency,
    amountDue: change.amountDue,
    ready: false,
    rev: change.rev,
  };
  row.ready = isReady(row);
  return row;
}
