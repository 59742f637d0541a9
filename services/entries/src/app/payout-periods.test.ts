// Payout steps and closed accounting periods (docs/decisions/0211), on in-memory stand-ins for the entry and
// the periods' store (revision-checked like the store): a commit in a closed month and an undo of a batch
// paid out in one are refused whole and write nothing; a close refuses while a step holds its month; the
// month of a payout is its day in the market's calendar.
import { parseTenantId, RevisionConflict } from '@travel/platform';
import { testCaller } from '@travel/testkit/src/doubles';
import { liveHolds, payoutPeriod } from '../domain/accounting-period';
import type { AccountingPeriodDoc, PeriodChange } from '../infra/accounting-period-store';
import type { EntriesRepositories, EntryDoc } from '../infra/repositories';
import { AccountingPeriodsApp } from './accounting-periods';
import { PayoutMarks } from './payout-marks';
import { PayoutPeriods } from './payout-periods';

const TENANT = parseTenantId('tenant-1');
const ID = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const B1 = '11111111-1111-4111-8111-111111111111';

/** The periods' store: one document per month, holds and closes written at the revision read. */
function periodStore(closed: string[] = []) {
  const docs = new Map<string, AccountingPeriodDoc>();
  for (const period of closed)
    docs.set(period, {
      _id: period,
      tenantId: TENANT,
      period,
      state: 'Closed',
      history: [],
      frozen: null,
      editedAt: new Date(),
      rev: 1,
    });
  const store = {
    docs,
    get: async (_t: unknown, period: string) => (docs.has(period) ? structuredClone(docs.get(period)!) : null),
    closedAmong: async (_t: unknown, periods: readonly string[]) =>
      periods.filter((p) => docs.get(p)?.state === 'Closed').sort(),
    async holdForPayout(_t: unknown, period: string, holder: string, until: Date) {
      const doc = docs.get(period);
      if (doc?.state === 'Closed') return false;
      const base = doc ?? {
        _id: period,
        tenantId: TENANT,
        period,
        state: 'Open' as const,
        history: [],
        frozen: null,
        editedAt: new Date(),
        rev: 0,
      };
      docs.set(period, { ...base, payoutHolds: { ...base.payoutHolds, [holder]: until }, rev: base.rev + 1 });
      return true;
    },
    async releasePayoutHold(_t: unknown, period: string, holder: string) {
      const doc = docs.get(period);
      if (doc?.payoutHolds) delete doc.payoutHolds[holder];
    },
    async write(_t: unknown, period: string, current: AccountingPeriodDoc | null, change: PeriodChange) {
      const now = docs.get(period);
      if ((now?.rev ?? 0) !== (current?.rev ?? 0)) throw new RevisionConflict();
      docs.set(period, {
        ...(now ?? current ?? ({} as AccountingPeriodDoc)),
        period,
        state: change.state,
        rev: (now?.rev ?? 0) + 1,
      });
    },
  };
  return store;
}

/** One HR entry (EUR, 100.50 due), reserved or paid out by B1. */
function entryStore(over: Partial<EntryDoc> & Record<string, unknown>) {
  let doc = {
    _id: ID,
    tenantId: 'tenant-1',
    employeeId: '0b8e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c',
    entryNumber: '2026-00042',
    status: 3,
    isPaidOut: false,
    paidOutAt: null,
    deletedAt: null,
    baseCurrency: 'EUR',
    advancePaymentInBaseCurrency: '20.00',
    expenses: [{ amountInBaseCurrency: '120.50' }],
    perDiems: [],
    payoutBatchId: B1,
    payoutReservedUntil: new Date(Date.now() + 600_000),
    currencyCode: 'EUR',
    advancePayment: '20.00',
    departureDate: '2026-11-16',
    returnDate: '2026-11-18',
    createdAt: new Date('2026-11-16T08:00:00Z'),
    editedAt: new Date('2026-11-16T08:00:00Z'),
    rev: 3,
    ...over,
  } as unknown as EntryDoc;
  const scope = {
    get: async (id: string) => (id === doc._id ? { ...doc } : null),
    find: () => ({ lean: async () => [{ ...doc }] }),
    commit: async (current: { rev: number }, change: { $set: Record<string, unknown> }) => {
      if (current.rev !== doc.rev) throw new RevisionConflict();
      doc = { ...doc, ...change.$set, rev: doc.rev + 1 } as EntryDoc;
      return doc.rev;
    },
  };
  return { repos: { entries: { of: () => scope } } as unknown as Pick<EntriesRepositories, 'entries'>, doc: () => doc };
}

const hr = { marketOf: async () => 'HR' as const };
const thisMonth = () => payoutPeriod('HR', new Date());

function marks(entry: ReturnType<typeof entryStore>, periods: ReturnType<typeof periodStore>) {
  const repos = { ...entry.repos, periods } as unknown as Pick<EntriesRepositories, 'entries' | 'periods'>;
  return new PayoutMarks(repos, new PayoutPeriods(repos, hr));
}

describe('payout steps in closed accounting periods', () => {
  it('dates a payout by its day in the market’s calendar, as the exports do: 23:30 UTC on 30 November is December in Zagreb', () => {
    // Zagreb is UTC+1 in winter: 23:30 UTC is 00:30 the next day; 22:59 UTC is 23:59 the same day.
    expect(payoutPeriod('HR', new Date('2026-11-30T23:30:00Z'))).toBe('2026-12');
    expect(payoutPeriod('HR', new Date('2026-11-30T22:59:00Z'))).toBe('2026-11');
  });

  it('counts only holds that have not lapsed', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    expect(liveHolds({ a: new Date('2026-11-30T12:00:01Z'), b: '2026-11-30T11:59:59Z', c: now }, now)).toEqual(['a']);
    expect(liveHolds(undefined, now)).toEqual([]);
  });

  it('a reserve on a day of a closed month is refused whole (409 naming it) and reserves nothing', async () => {
    const entry = entryStore({ payoutBatchId: null, payoutReservedUntil: null });
    const periods = periodStore([thisMonth()]);
    await expect(
      marks(entry, periods).run('reserve', TENANT, B1, [ID], new Date(Date.now() + 600_000)),
    ).rejects.toMatchObject({
      code: 'PERIOD_CLOSED',
      errors: { period: [thisMonth()] },
    });
    expect(entry.doc()).toMatchObject({ payoutBatchId: null, rev: 3 });
  });

  it('a commit whose month was closed after the reserve marks nothing; in an open month it pays out and gives its hold back', async () => {
    const closed = entryStore({});
    await expect(marks(closed, periodStore([thisMonth()])).run('commit', TENANT, B1, [ID])).rejects.toMatchObject({
      code: 'PERIOD_CLOSED',
    });
    expect(closed.doc()).toMatchObject({ isPaidOut: false, rev: 3 });

    const open = entryStore({});
    const periods = periodStore();
    expect((await marks(open, periods).run('commit', TENANT, B1, [ID]))[0]).toMatchObject({
      ok: true,
      amountDue: '100.50',
    });
    expect(open.doc()).toMatchObject({ isPaidOut: true });
    expect(payoutPeriod('HR', open.doc().paidOutAt!)).toBe(thisMonth());
    expect(liveHolds(periods.docs.get(thisMonth())!.payoutHolds, new Date())).toEqual([]);
  });

  it('an undo of a batch paid out in a closed month is refused whole and unmarks nothing; once reopened it unmarks', async () => {
    const paid = { isPaidOut: true, paidOutAt: new Date('2026-10-15T10:00:00Z'), payoutReservedUntil: null };
    const entry = entryStore(paid);
    const periods = periodStore(['2026-10']);
    await expect(marks(entry, periods).run('undo', TENANT, B1, [ID])).rejects.toMatchObject({
      code: 'PERIOD_CLOSED',
      errors: { period: ['2026-10'] },
    });
    expect(entry.doc()).toMatchObject({ isPaidOut: true, payoutBatchId: B1, rev: 3 });

    periods.docs.get('2026-10')!.state = 'Open';
    expect((await marks(entry, periods).run('undo', TENANT, B1, [ID]))[0]).toMatchObject({ ok: true });
    expect(entry.doc()).toMatchObject({ isPaidOut: false, payoutBatchId: null });
  });

  it('a close refuses (409 CONFLICT) while a payout step holds the month, and closes once the hold is given back', async () => {
    const periods = periodStore();
    const app = new AccountingPeriodsApp(
      { periods } as unknown as Pick<EntriesRepositories, 'periods'>,
      {
        livePayroll: async () => ({
          summary: { name: 'Payroll', columns: [], rows: [] },
          entries: { name: 'Entries', columns: [], rows: [] },
        }),
      },
      { liveJournal: async () => ({ sheet: null, refusal: null }) },
    );
    const caller = testCaller({ market: 'HR', permissions: ['ManagePayouts'] });
    const hold = await new PayoutPeriods(
      { periods } as unknown as Pick<EntriesRepositories, 'periods'>,
      hr,
    ).holdForCommit(TENANT, B1, new Date('2026-11-10T10:00:00Z'));
    await expect(app.close(caller, '2026-11', 'Payroll sent')).rejects.toMatchObject({ code: 'CONFLICT' });
    await hold.release();
    expect((await app.close(caller, '2026-11', 'Payroll sent')).state).toBe('Closed');
  });
});
