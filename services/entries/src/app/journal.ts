// The journal export and the company's account numbers (issue 23 §3, docs/decisions/0143, 0144).
import { MARKET_PROFILES } from '@travel/per-diem';
import { localDate } from '@travel/per-diem/src/time';
import { AppError, tenantOf, type CallerContext } from '@travel/platform';
import { minorDigitsOf } from '../domain/amounts';
import {
  accountErrors,
  DEFAULT_JOURNAL_ACCOUNTS,
  effectiveAccounts,
  entryJournal,
  inPeriod,
  missingAccounts,
  type JournalAccounts,
} from '../domain/journal';
import type { EntriesRepositories } from '../infra/repositories';
import type { FrozenJournal } from '../infra/accounting-period-store';
import type { JournalAccountsStore, OwnAccounts } from '../infra/journal-accounts-store';
import type { Sheet } from '../infra/spreadsheet';
import { paidOutBetween, requireExporter } from './exports';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** A calendar date as YYYY-MM-DD that exists (2026-02-31 does not). */
const isDate = (text: string): boolean =>
  DATE.test(text) && !Number.isNaN(Date.parse(text)) && new Date(text).toISOString().slice(0, 10) === text;

export interface AccountsView {
  /** The accounts the journal uses: the company's, else the market's verified default, else null. */
  accounts: JournalAccounts;
  /** The market's verified defaults (read-only; null where none was verified). */
  defaults: JournalAccounts;
  editedAt: Date | null;
}

export class JournalApp {
  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries'> & Partial<Pick<EntriesRepositories, 'periods'>>,
    private readonly store: JournalAccountsStore,
  ) {}

  async accounts(caller: CallerContext): Promise<AccountsView> {
    requireExporter(caller);
    const doc = await this.store.get(tenantOf(caller));
    return {
      accounts: effectiveAccounts(caller.market, doc?.accounts ?? null),
      defaults: DEFAULT_JOURNAL_ACCOUNTS[caller.market],
      editedAt: doc ? new Date(doc.editedAt) : null,
    };
  }

  /** Replaces the company's account numbers (the route requires `ManageCompanyData`); null or absent: the default. */
  async putAccounts(caller: CallerContext, body: unknown): Promise<AccountsView> {
    const accounts = (body as { accounts?: unknown } | null)?.accounts;
    const errors = accountErrors(accounts);
    // `defaults` and `editedAt` are read-only (a GET body is a valid PUT body); anything else is unknown.
    for (const key of Object.keys(body ?? {}))
      if (!['accounts', 'defaults', 'editedAt'].includes(key)) errors[key] = ['is not a field of the journal accounts'];
    if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
    const own = Object.fromEntries(
      Object.entries(accounts as Record<string, string | null>).filter(([, v]) => v !== null),
    ) as OwnAccounts;
    await this.store.put(tenantOf(caller), own, caller.employeeId);
    return this.accounts(caller);
  }

  /**
   * The journal of the entries paid out in the period, as one sheet of lines. The lines of entries paid out
   * in a closed month are those frozen at its close; the rest are read now (docs/decisions/0208).
   */
  async journal(caller: CallerContext, from: string, to: string): Promise<Sheet> {
    requireExporter(caller);
    const errors: Record<string, string[]> = {};
    if (!isDate(from)) errors.from = ['must be a date, YYYY-MM-DD'];
    if (!isDate(to)) errors.to = ['must be a date, YYYY-MM-DD'];
    if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
    const closed = (await this.repos.periods?.closedBetween(tenantOf(caller), from.slice(0, 7), to.slice(0, 7))) ?? [];
    // A closed month's journal answers what it answered at the close, a refusal included.
    const refused = closed.find((p) => p.frozen?.journal.refusal);
    if (refused) throw new AppError('CONFLICT', `${refused.frozen!.journal.refusal} (closed period ${refused.period})`);
    const live = await this.liveRows(caller, from, to, new Set(closed.map((p) => p.period)));
    if (live.refusal) throw new AppError('CONFLICT', live.refusal);
    const frozenRows = await Promise.all(
      closed.map((p) =>
        p.frozen ? this.repos.periods!.frozenJournalRows(tenantOf(caller), { ...p, frozen: p.frozen }) : [],
      ),
    );
    const frozen = frozenRows.flat().filter((r) => inPeriod(r.payoutDate!, from, to));
    // Entries in payout order: every month's lines together, months ascending (a month is live or frozen).
    const rows = [...frozen, ...live.rows];
    const months = [...new Set(rows.map((r) => r.payoutDate!.slice(0, 7)))].sort();
    return journalSheet(months.flatMap((m) => rows.filter((r) => r.payoutDate!.slice(0, 7) === m)));
  }

  /** The month's journal as the entries are now: its sheet, or the refusal it answers (what a close freezes). */
  async liveJournal(caller: CallerContext, from: string, to: string): Promise<FrozenJournal> {
    const live = await this.liveRows(caller, from, to, new Set());
    return live.refusal ? { sheet: null, refusal: live.refusal } : { sheet: journalSheet(live.rows), refusal: null };
  }

  /** Lines of the entries paid out from `from` to `to` outside the `closed` months, each with its payout date. */
  private async liveRows(
    caller: CallerContext,
    from: string,
    to: string,
    closed: ReadonlySet<string>,
  ): Promise<{ rows: Record<string, string>[]; refusal?: string }> {
    const { accounts } = await this.accounts(caller);
    const digits = minorDigitsOf(caller.baseCurrency);
    const zone = MARKET_PROFILES[caller.market].zone;
    const entries = (await paidOutBetween(this.repos, caller, from, to))
      .map((e) => ({ e, payoutDate: localDate(zone, new Date(e.paidOutAt!).getTime()) }))
      .filter(({ payoutDate }) => !closed.has(payoutDate.slice(0, 7)));
    const lines = entries.flatMap(({ e, payoutDate }) =>
      entryJournal(e, caller.market, accounts, digits).map((l) => ({ ...l, payoutDate })),
    );
    const missing = missingAccounts(lines);
    if (missing.length)
      return {
        rows: [],
        refusal: `No account number for ${missing.join(', ')}: no default for ${caller.market} was verified; set them with PUT /api/v1/journal-accounts.`,
      };
    return { rows: lines.map((l) => ({ ...l })) };
  }
}

/** The journal's sheet of lines; a row's `payoutDate` is kept with it but is not a column. */
function journalSheet(rows: Record<string, string>[]): Sheet {
  return {
    name: 'Journal',
    columns: [
      { key: 'date', header: 'date' },
      { key: 'transaction', header: 'transaction' },
      { key: 'account', header: 'account' },
      { key: 'accountKey', header: 'accountKey' },
      { key: 'debit', header: 'debit', money: true },
      { key: 'credit', header: 'credit', money: true },
      { key: 'currencyCode', header: 'currencyCode' },
      { key: 'text', header: 'text' },
      { key: 'entryId', header: 'entryId' },
      { key: 'entryNumber', header: 'entryNumber' },
      { key: 'employeeId', header: 'employeeId' },
    ],
    rows,
  };
}
