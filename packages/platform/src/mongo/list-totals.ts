import type { CollectionState } from './collection-versions';

/**
 * Totals of lists, remembered per query while the collection's version stays (docs/decisions/0157): a list
 * read costs a count only after a write. Each versioned repository owns one (0233), read and written by its
 * lists alone. A total is remembered under the settled version read before it was counted, so a write of
 * any replica (its `begin` raises the version) makes it unreachable. Bounded; an entry of an older version
 * is simply replaced.
 */
export class ListTotals {
  private readonly entries = new Map<string, { at: string; total: number }>();

  constructor(private readonly capacity = 2000) {}

  private static at(state: CollectionState): string {
    return `${state.epoch}.${state.version}`;
  }

  get(key: string, state: CollectionState | undefined): number | undefined {
    if (!state?.settled) return undefined;
    const entry = this.entries.get(key);
    return entry && entry.at === ListTotals.at(state) ? entry.total : undefined;
  }

  set(key: string, state: CollectionState | undefined, total: number): void {
    if (!state?.settled) return;
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(key, { at: ListTotals.at(state), total });
  }
}
