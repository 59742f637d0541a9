// Which live travel-entry reimbursements (mileage expenses) use a vehicle: fleet's own projection of the
// entries context's `vehicle.used` / `vehicle.released` events (contracts/events/, docs/decisions/0032).
// One record per expense, kept in the vehicle's document so a delete and a first use are decided on the
// same document at the same revision. Pure rules: no I/O.

export interface UsageChange {
  entryId: string;
  expenseId: string;
  /** Increases with every change of the expense (the entries side's revision); orders redelivered events. */
  revision: number;
  /** true: the expense uses the vehicle (used); false: it no longer does (released). */
  live: boolean;
}

export interface UsageRecord {
  entryId: string;
  expenseId: string;
  revision: number;
  live: boolean;
  at: Date;
}

export type Usage = Record<string, UsageRecord>;

/** The map key of an expense: ids are UUIDs, so neither `.` nor `$` can occur in it. */
export const usageKey = (c: { entryId: string; expenseId: string }): string => `${c.entryId}_${c.expenseId}`;

/**
 * The usage after a change, or undefined when the change is stale or already applied (nothing to write).
 * A change older than the stored record is ignored (events may arrive out of order). At the same
 * revision `used` wins: a vehicle is never freed by an ambiguous pair, only blocked (the safe side).
 */
export function applyUsage(usage: Usage, change: UsageChange, now: Date): Usage | undefined {
  const key = usageKey(change);
  const stored = usage[key];
  if (stored) {
    if (change.revision < stored.revision) return undefined;
    if (change.revision === stored.revision && (stored.live || !change.live)) return undefined;
  }
  // A release with no record yet is stored too: a late `used` of an older revision is then recognised as stale.
  return {
    ...usage,
    [key]: {
      entryId: change.entryId,
      expenseId: change.expenseId,
      revision: change.revision,
      live: change.live,
      at: now,
    },
  };
}

/** How many live expenses use the vehicle. */
export const liveCount = (usage: Usage): number => Object.values(usage).filter((u) => u.live).length;

/**
 * Undoes a synchronous claim whose expense was never stored: only a live record of exactly that revision.
 * A later `used` of the same revision (the expense was stored after all) makes it live again.
 */
export function abandonClaim(usage: Usage, change: Omit<UsageChange, 'live'>, now: Date): Usage | undefined {
  const key = usageKey(change);
  const stored = usage[key];
  if (!stored || stored.revision !== change.revision || !stored.live) return undefined;
  return { ...usage, [key]: { ...stored, live: false, at: now } };
}
