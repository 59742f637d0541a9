// The write paths' check against closed accounting periods (docs/decisions/0207): the pure rules decide
// (domain/accounting-period), the periods' states are read from the store on every write, so a close is
// seen at once by every replica. Asked by every use case that changes an entry's expenses, per-diem rows
// or workflow state, through EntryAccess.
import { periodClosed, tenantOf, type CallerContext } from '@travel/platform';
import {
  closedForChanges,
  closedForReopening,
  entryMonths,
  monthsChanged,
  type DatedChildren,
} from '../domain/accounting-period';
import type { EntriesRepositories } from '../infra/repositories';

export class ClosedPeriodGuard {
  /** Without a store (unit tests of other use cases), no period is closed. */
  constructor(private readonly repos: Partial<Pick<EntriesRepositories, 'periods'>>) {}

  private async closed(caller: Pick<CallerContext, 'tenantId'>, months: string[]): Promise<string[]> {
    if (!this.repos.periods || months.length === 0) return [];
    return this.repos.periods.closedAmong(tenantOf(caller), months);
  }

  /** 409 `PERIOD_CLOSED` when the write creates, changes or removes an expense or per-diem row dated in a closed period. */
  async refuseChanges(
    caller: Pick<CallerContext, 'tenantId'>,
    before: DatedChildren,
    after: DatedChildren,
  ): Promise<void> {
    const refusal = closedForChanges(await this.closed(caller, monthsChanged(before, after)));
    if (refusal) throw periodClosed(refusal.periods, refusal.detail);
  }

  /** 409 `PERIOD_CLOSED` when the entry lies in a closed period and the transition would make it editable. */
  async refuseReopening(
    caller: Pick<CallerContext, 'tenantId'>,
    entry: DatedChildren & { departureDate: string; returnDate: string },
  ): Promise<void> {
    const refusal = closedForReopening(await this.closed(caller, entryMonths(entry)));
    if (refusal) throw periodClosed(refusal.periods, refusal.detail);
  }
}
