// Payout batches and closed accounting periods (docs/decisions/0211): a batch is never dated in a closed
// month, and a batch paid out in a closed month is never undone, since the month's frozen exports (0208)
// report it. The payout steps ask here; the periods' states are read from the store on every step, and a
// step that marks or unmarks entries holds its months in the store while it does, so a close that would
// freeze the month meanwhile refuses instead of missing the step.
import { AppError, periodClosed, withRevisionRetry, type Market, type TenantId } from '@travel/platform';
import { closedForPayout, closedForUndo, payoutPeriod, type ClosedPeriodRefusal } from '../domain/accounting-period';
import type { EntriesRepositories } from '../infra/repositories';
import type { CompanyMarkets } from './reading-backfill';

/** How long a step may hold its months; past it the step stops writing and is repeated later. */
export const PAYOUT_HOLD_MS = 120_000;

/** A step's hold on its months: whether it still lasts (checked before every entry's write), and its end. */
export interface PayoutHold {
  lasts(): boolean;
  release(): Promise<void>;
}

const NO_HOLD: PayoutHold = { lasts: () => true, release: async () => undefined };

export class PayoutPeriods {
  constructor(
    private readonly repos: Pick<EntriesRepositories, 'periods'>,
    private readonly markets: CompanyMarkets,
    private readonly holdMs = PAYOUT_HOLD_MS,
  ) {}

  /** The company's market, whose calendar dates a payout; employees owns it (without it: 503, payouts retries). */
  private async marketOf(tenant: TenantId): Promise<Market> {
    const market = await this.markets.marketOf(tenant);
    if (!market)
      throw new AppError('SERVICE_UNAVAILABLE', 'The company’s market is not known to the employees service.');
    return market;
  }

  /** The month a payout made at `at` is counted in, in the company's market calendar. */
  async periodOf(tenant: TenantId, at: Date): Promise<string> {
    return payoutPeriod(await this.marketOf(tenant), at);
  }

  /** 409 `PERIOD_CLOSED` when a payout at `at` would be dated in a closed month (the reserve's early answer). */
  async refusePayout(tenant: TenantId, at: Date): Promise<void> {
    const period = await this.periodOf(tenant, at);
    refuse(closedForPayout(await this.repos.periods.closedAmong(tenant, [period])));
  }

  /** Holds the month of a payout at `at` for the commit of `batchId`, or 409 `PERIOD_CLOSED`. */
  async holdForCommit(tenant: TenantId, batchId: string, at: Date): Promise<PayoutHold> {
    return this.hold(tenant, batchId, [await this.periodOf(tenant, at)], closedForPayout);
  }

  /** Holds the months the batch's entries were paid out in for its undo, or 409 `PERIOD_CLOSED` (all of them). */
  async holdForUndo(tenant: TenantId, batchId: string, paidOutAt: readonly Date[]): Promise<PayoutHold> {
    if (paidOutAt.length === 0) return NO_HOLD;
    const market = await this.marketOf(tenant);
    const months = [...new Set(paidOutAt.map((at) => payoutPeriod(market, at)))].sort();
    return this.hold(tenant, batchId, months, closedForUndo);
  }

  /**
   * Every month held, or none: a closed one gives back those already held and refuses, naming every
   * closed month. A hold is a revision-checked write on the month's document (a close racing it decides again).
   */
  private async hold(
    tenant: TenantId,
    batchId: string,
    months: readonly string[],
    refusal: (closed: readonly string[]) => ClosedPeriodRefusal | undefined,
  ): Promise<PayoutHold> {
    const until = new Date(Date.now() + this.holdMs);
    const held: string[] = [];
    const closed: string[] = [];
    const release = () =>
      Promise.all(held.map((m) => this.repos.periods.releasePayoutHold(tenant, m, batchId))).then(() => undefined);
    try {
      for (const month of months) {
        // Batches of one month paid out at once race for its document: more tries than a user's write.
        const ok = await withRevisionRetry(
          'accounting period',
          async () => ((await this.repos.periods.holdForPayout(tenant, month, batchId, until)) ? 'held' : 'closed'),
          25,
        );
        (ok === 'held' ? held : closed).push(month);
      }
    } catch (err) {
      await release();
      throw err;
    }
    if (closed.length) {
      await release();
      refuse(refusal(closed));
    }
    // A little before the hold lapses: a write begun then still lands before a close can see it lapsed.
    const margin = Math.min(5_000, this.holdMs / 10);
    return { lasts: () => Date.now() < until.getTime() - margin, release };
  }
}

function refuse(refusal: ClosedPeriodRefusal | undefined): void {
  if (refusal) throw periodClosed(refusal.periods, refusal.detail);
}
