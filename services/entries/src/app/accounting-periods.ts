// Closing and reopening accounting periods (issue 39 §3, docs/decisions/0207, 0208): a close freezes the
// month's payroll and journal exports and refuses every later change dated in it; a reopen unfreezes. Both
// are audited on the period (who, when, why), never on an entry: no entry event is raised.
import {
  AppError,
  conflict,
  invalidField,
  invalidState,
  tenantOf,
  withRevisionRetry,
  type CallerContext,
} from '@travel/platform';
import {
  closeWhilePayingOut,
  isPeriod,
  liveHolds,
  periodDays,
  reasonProblem,
  refusalOf,
  type PeriodAction,
  type PeriodRecord,
  type PeriodState,
} from '../domain/accounting-period';
import type { AccountingPeriodDoc } from '../infra/accounting-period-store';
import type { EntriesRepositories } from '../infra/repositories';
import type { ExportsApp } from './exports';
import type { JournalApp } from './journal';

/** Who closes and reopens periods: those who pay people out or manage the company's data (as the exports). */
export const PERIOD_PERMISSIONS = ['ManageCompanyData', 'ManagePayouts'];

/** A period as answered: its state and its audit trail, oldest first. */
export interface PeriodView {
  period: string;
  state: PeriodState;
  /** When the exports answered now were frozen (the last close); null while open. */
  exportsFrozenAt: Date | null;
  history: PeriodRecord[];
}

const view = (period: string, doc: AccountingPeriodDoc | null): PeriodView => ({
  period,
  state: doc?.state ?? 'Open',
  exportsFrozenAt: doc?.state === 'Closed' ? (doc.frozen?.at ?? null) : null,
  history: doc?.history ?? [],
});

function checkPeriod(period: string): void {
  if (!isPeriod(period)) throw invalidField('period', 'must be a calendar month as YYYY-MM');
}

export class AccountingPeriodsApp {
  constructor(
    private readonly repos: Pick<EntriesRepositories, 'periods'>,
    private readonly exportsApp: Pick<ExportsApp, 'livePayroll'>,
    private readonly journal: Pick<JournalApp, 'liveJournal'>,
  ) {}

  /** Every period the company ever closed, newest first (a month never closed is open and not listed). */
  async list(caller: CallerContext): Promise<PeriodView[]> {
    return (await this.repos.periods.list(tenantOf(caller))).map((d) => view(d.period, d));
  }

  /** One month: its state and trail (open with an empty trail when it was never closed). */
  async get(caller: CallerContext, period: string): Promise<PeriodView> {
    checkPeriod(period);
    return view(period, await this.repos.periods.get(tenantOf(caller), period));
  }

  close(caller: CallerContext, period: string, reason: unknown): Promise<PeriodView> {
    return this.act(caller, period, reason, 'Closed');
  }

  reopen(caller: CallerContext, period: string, reason: unknown): Promise<PeriodView> {
    return this.act(caller, period, reason, 'Reopened');
  }

  private async act(caller: CallerContext, period: string, reason: unknown, action: PeriodAction) {
    if (!PERIOD_PERMISSIONS.some((p) => caller.permissions.includes(p)))
      throw new AppError(
        'FORBIDDEN',
        `This operation requires one of the ${PERIOD_PERMISSIONS.join(', ')} permissions.`,
      );
    checkPeriod(period);
    const problem = reasonProblem(reason);
    if (problem) throw invalidField('reason', problem);
    const tenant = tenantOf(caller);
    return withRevisionRetry('accounting period', async () => {
      const current = await this.repos.periods.get(tenant, period);
      const refusal = refusalOf(period, current?.state ?? 'Open', action);
      if (refusal) throw invalidState(refusal);
      const at = new Date();
      // A payout step writing in the month now would be missed by the freeze (0211): the close waits for
      // no one and refuses; a hold taken after this read makes the write below lose its race (revision).
      if (action === 'Closed' && liveHolds(current?.payoutHolds, at).length)
        throw conflict(closeWhilePayingOut(period));
      const record: PeriodRecord = {
        action,
        employeeId: caller.employeeId,
        keyIssuedByEmployeeId: caller.keyIssuedByEmployeeId ?? null,
        at,
        reason: (reason as string).trim(),
      };
      // The exports as they are at the close are the month's from now on (0208); a reopen drops them.
      const frozen = action === 'Closed' ? { at, ...(await this.freeze(caller, period)) } : null;
      const state: PeriodState = action === 'Closed' ? 'Closed' : 'Open';
      await this.repos.periods.write(tenant, period, current, { state, record, frozen });
      return { period, state, exportsFrozenAt: frozen?.at ?? null, history: [...(current?.history ?? []), record] };
    });
  }

  private async freeze(caller: CallerContext, period: string) {
    const { first, last } = periodDays(period);
    const [payroll, journal] = await Promise.all([
      this.exportsApp.livePayroll(caller, period),
      this.journal.liveJournal(caller, first, last),
    ]);
    return { payroll, journal };
  }
}
