// The payroll export's use case (issue 23 §2, docs/decisions/0141): the company's entries paid out in a
// month, as per-employee rows and a sheet of the entries each figure comes from.
import { MARKET_PROFILES } from '@travel/per-diem';
import { localDate } from '@travel/per-diem/src/time';
import { AppError, tenantOf, type CallerContext } from '@travel/platform';
import { minorDigitsOf } from '../domain/amounts';
import { EntryStatus } from '../domain/entry';
import type { PayableEntry } from '../domain/payout';
import {
  countsForMonth,
  entryPayrollFigures,
  isMonth,
  MONEY_COLUMNS,
  payrollRows,
  type PayrollEntryFigures,
} from '../domain/payroll-export';
import type { Sheet } from '../infra/spreadsheet';
import type { EntriesRepositories } from '../infra/repositories';

/** Who may export payroll: those who pay people out or manage the company's data (decision 0141). */
export const PAYROLL_EXPORT_PERMISSIONS = ['ManagePayouts', 'ManageCompanyData'];

const DAY_MS = 24 * 60 * 60 * 1000;

/** The payroll and journal exports (and their account numbers) are for these permissions; else 403. */
export function requireExporter(caller: CallerContext): void {
  if (!PAYROLL_EXPORT_PERMISSIONS.some((p) => caller.permissions.includes(p)))
    throw new AppError(
      'FORBIDDEN',
      `This operation requires one of the ${PAYROLL_EXPORT_PERMISSIONS.join(', ')} permissions.`,
    );
}

const moneyColumns = MONEY_COLUMNS.map((key) => ({ key, header: key, money: true }));

/** The payroll export's two sheets. */
export interface PayrollSheets {
  summary: Sheet;
  entries: Sheet;
}

export class ExportsApp {
  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries'> & Partial<Pick<EntriesRepositories, 'periods'>>,
  ) {}

  /**
   * The month's payroll sheets: `Payroll` (one row per employee) and `Entries` (one row per entry). A closed
   * month answers the sheets frozen at its close, whatever changed since (docs/decisions/0208).
   */
  async payroll(caller: CallerContext, month: string): Promise<PayrollSheets> {
    requireExporter(caller);
    if (!isMonth(month))
      throw new AppError('VALIDATION_FAILED', undefined, { month: ['must be a calendar month as YYYY-MM'] });
    const periods = this.repos.periods;
    const closed = await periods?.get(tenantOf(caller), month);
    if (periods && closed?.state === 'Closed' && closed.frozen)
      return periods.frozenPayroll(tenantOf(caller), { ...closed, frozen: closed.frozen });
    return this.livePayroll(caller, month);
  }

  /** The month's payroll from the entries as they are now (what a close freezes). */
  async livePayroll(caller: CallerContext, month: string): Promise<PayrollSheets> {
    const digits = minorDigitsOf(caller.baseCurrency);
    const [y, m] = month.split('-').map(Number);
    const last = new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10);
    const paid = await paidOutBetween(this.repos, caller, `${month}-01`, last);
    const figures = paid
      .filter((e) => countsForMonth(e, caller.market, month))
      .map((e) => entryPayrollFigures(e, digits));
    const rows = payrollRows(month, caller.baseCurrency, figures, digits);
    return {
      summary: {
        name: 'Payroll',
        columns: [
          { key: 'month', header: 'month' },
          { key: 'employeeId', header: 'employeeId' },
          { key: 'currencyCode', header: 'currencyCode' },
          ...moneyColumns,
          { key: 'entryIds', header: 'entryIds' },
        ],
        rows: rows.map((r) => ({ ...r, entryIds: r.entryIds.join(' ') })),
      },
      entries: {
        name: 'Entries',
        columns: [
          { key: 'entryId', header: 'entryId' },
          { key: 'entryNumber', header: 'entryNumber' },
          { key: 'employeeId', header: 'employeeId' },
          { key: 'paidOutAt', header: 'paidOutAt' },
          ...moneyColumns,
        ],
        rows: figures.map((f: PayrollEntryFigures) => ({ ...f })),
      },
    };
  }
}

/** The company's entries paid out from `from` to `to` (dates, inclusive, market calendar), oldest payout first. */
export async function paidOutBetween(
  repos: Pick<EntriesRepositories, 'entries'>,
  caller: CallerContext,
  from: string,
  to: string,
): Promise<PayableEntry[]> {
  // A day either side of the UTC dates bounds the query; the market's calendar decides exactly.
  const docs = (await repos.entries
    .of(tenantOf(caller))
    .find({
      status: EntryStatus.Approved,
      isPaidOut: true,
      deletedAt: null,
      paidOutAt: { $gte: new Date(Date.parse(from) - DAY_MS), $lt: new Date(Date.parse(to) + 2 * DAY_MS) },
    })
    .sort({ paidOutAt: 1, _id: 1 })
    .lean()) as unknown as PayableEntry[];
  const zone = MARKET_PROFILES[caller.market].zone;
  return docs.filter((e) => {
    const day = localDate(zone, new Date(e.paidOutAt!).getTime());
    return day >= from && day <= to;
  });
}
