// The closed months' frozen exports on the real MongoDB-wire server (docs/decisions/0208): a large company's
// month — some 10,000 entries paid out, several journal lines each — outgrows one document (16 MB), so the
// rows are kept in chunks the period's document names. Read back whole and in order across chunks; a reopen
// drops them; a close that loses its race leaves none behind. (The month here has 1,500 entries: several
// chunks, seconds instead of half a minute on the stand-in store; the size of 10,000 is worked out below.)
import type { Connection } from 'mongoose';
import { connectMongo, ensureIndexes, parseTenantId, RevisionConflict } from '@travel/platform';
import { createTestEnv, type TestEnv } from '@travel/testkit';
import { AccountingPeriodStore, type FrozenExports } from '../src/infra/accounting-period-store';
import { FROZEN_EXPORTS_COLLECTION, ROWS_PER_CHUNK } from '../src/infra/frozen-exports-store';
import type { PeriodRecord } from '../src/domain/accounting-period';

const TENANT = parseTenantId('tenant-big');
const ENTRIES = 1_500;
const LARGE_COMPANY_ENTRIES = 10_000;
const LINES_PER_ENTRY = 6;

const column = (key: string) => ({ key, header: key });
const journalRow = (i: number): Record<string, string> => ({
  date: '2026-03-31',
  transaction: `2026-${String(Math.floor(i / LINES_PER_ENTRY)).padStart(5, '0')}/${i % LINES_PER_ENTRY}`,
  account: '2380',
  accountKey: 'payablesToEmployees',
  debit: '1234.56',
  credit: '0.00',
  currencyCode: 'EUR',
  text: `Settlement of travel entry 2026-${String(Math.floor(i / LINES_PER_ENTRY)).padStart(5, '0')}`,
  entryId: `5f0e7c1a-3b2d-4e8f-9a61-${String(i).padStart(12, '0')}`,
  entryNumber: `2026-${String(Math.floor(i / LINES_PER_ENTRY)).padStart(5, '0')}`,
  employeeId: `0b6f4c1e-5d7a-4c59-9a77-${String(i % 500).padStart(12, '0')}`,
  payoutDate: '2026-03-31',
});

function month(entries = ENTRIES): FrozenExports {
  const journal = Array.from({ length: entries * LINES_PER_ENTRY }, (_, i) => journalRow(i));
  return {
    at: new Date('2026-04-02T08:00:00Z'),
    payroll: {
      summary: { name: 'Payroll', columns: [column('employeeId')], rows: [{ employeeId: 'e-1' }] },
      entries: {
        name: 'Entries',
        columns: [column('entryId'), column('amountPaid')],
        rows: Array.from({ length: entries }, (_, i) => ({ entryId: `entry-${i}`, amountPaid: '100.50' })),
      },
    },
    journal: {
      sheet: { name: 'Journal', columns: Object.keys(journalRow(0)).map(column), rows: journal },
      refusal: null,
    },
  };
}

const record = (action: PeriodRecord['action']): PeriodRecord => ({
  action,
  employeeId: 'e-1',
  keyIssuedByEmployeeId: null,
  at: new Date(),
  reason: 'month end',
});

describe('accounting periods: frozen exports in chunks', () => {
  let env: TestEnv;
  let conn: Connection;
  let store: AccountingPeriodStore;
  const chunks = () => conn.db!.collection(FROZEN_EXPORTS_COLLECTION).countDocuments({ tenantId: TENANT });

  beforeAll(async () => {
    env = await createTestEnv('period-store');
    conn = await connectMongo(env.infra.mongoUrl, `${env.dbPrefix}entries`);
    store = new AccountingPeriodStore(conn);
    await ensureIndexes(conn);
  });
  afterAll(async () => {
    await conn?.close();
    await env?.cleanup();
  });

  it("a large company's month would not fit one document", () => {
    expect(Buffer.byteLength(JSON.stringify(month(LARGE_COMPANY_ENTRIES)))).toBeGreaterThan(16 * 1024 * 1024);
  });

  it('keeps the rows in several chunks, reads them back whole and in order, and drops them on reopen', async () => {
    const frozenMonth = month();

    await store.write(TENANT, '2026-03', null, { state: 'Closed', record: record('Closed'), frozen: frozenMonth });
    const closed = (await store.get(TENANT, '2026-03'))!;
    expect(closed.state).toBe('Closed');
    expect(closed.frozen?.at).toEqual(frozenMonth.at);
    const frozen = { ...closed, frozen: closed.frozen! };
    expect(await store.frozenPayroll(TENANT, frozen)).toEqual(frozenMonth.payroll);
    const rows = await store.frozenJournalRows(TENANT, frozen);
    expect(rows).toHaveLength(ENTRIES * LINES_PER_ENTRY);
    expect(rows).toEqual(frozenMonth.journal.sheet!.rows);
    expect(await chunks()).toBeGreaterThanOrEqual(1 + 1 + Math.ceil((ENTRIES * LINES_PER_ENTRY) / ROWS_PER_CHUNK));

    await store.write(TENANT, '2026-03', closed, { state: 'Open', record: record('Reopened'), frozen: null });
    expect((await store.get(TENANT, '2026-03'))?.frozen).toBeNull();
    expect(await chunks()).toBe(0);
  });

  it('a close that loses its race to another write leaves no rows behind', async () => {
    const small: FrozenExports = {
      ...month(10),
      journal: { sheet: null, refusal: 'no account number for bank' },
    };
    await store.write(TENANT, '2026-05', null, { state: 'Closed', record: record('Closed'), frozen: small });
    const first = (await store.get(TENANT, '2026-05'))!;
    await store.write(TENANT, '2026-05', first, { state: 'Open', record: record('Reopened'), frozen: null });
    // A second close decided on the revision before the reopen: it must lose, and its rows must go.
    await expect(
      store.write(TENANT, '2026-05', first, { state: 'Closed', record: record('Closed'), frozen: small }),
    ).rejects.toBeInstanceOf(RevisionConflict);
    expect(await chunks()).toBe(0);
  });
});
