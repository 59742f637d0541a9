// The entries side of a batch's reservations and their deadline (docs/decisions/0110), on an in-memory
// stand-in for the entries repository (one document, conditional on its revision like the store).
import { parseTenantId, RevisionConflict } from '@travel/platform';
import type { EntriesRepositories, EntryDoc } from '../infra/repositories';
import { PayoutMarks } from './payout-marks';

const TENANT = parseTenantId('tenant-1');
const ID = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const B1 = '11111111-1111-4111-8111-111111111111';
const B2 = '22222222-2222-4222-8222-222222222222';

function store(over: Partial<EntryDoc> = {}) {
  let doc = {
    _id: ID,
    tenantId: 'tenant-1',
    employeeId: '0b8e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c',
    entryNumber: '2026-00042',
    status: 3,
    isPaidOut: false,
    deletedAt: null,
    baseCurrency: 'CZK',
    advancePaymentInBaseCurrency: '0.00',
    expenses: [{ amountInBaseCurrency: '120.50' }],
    perDiems: [],
    payoutBatchId: null,
    payoutReservedUntil: null,
    currencyCode: 'CZK',
    advancePayment: '0.00',
    departureDate: '2026-11-16',
    returnDate: '2026-11-18',
    createdAt: new Date('2026-11-16T08:00:00Z'),
    editedAt: new Date('2026-11-16T08:00:00Z'),
    rev: 3,
    ...over,
  } as unknown as EntryDoc;
  const scope = {
    get: async (id: string) => (id === doc._id ? { ...doc } : null),
    commit: async (current: { rev: number }, change: { $set: Record<string, unknown> }) => {
      if (current.rev !== doc.rev) throw new RevisionConflict();
      doc = { ...doc, ...change.$set, rev: doc.rev + 1 } as EntryDoc;
      return doc.rev;
    },
  };
  const repos = { entries: { of: () => scope } } as unknown as Pick<EntriesRepositories, 'entries'>;
  return { marks: new PayoutMarks(repos), doc: () => doc };
}

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

describe('payout reservations with a deadline', () => {
  it('a reserve stores the batch’s deadline with the reservation; another batch is refused while it holds', async () => {
    const { marks, doc } = store();
    const until = inMinutes(10);
    expect(await marks.run('reserve', TENANT, B1, [ID], until)).toEqual([
      expect.objectContaining({ entryId: ID, ok: true, amountDue: '120.50' }),
    ]);
    expect(doc()).toMatchObject({ payoutBatchId: B1, payoutReservedUntil: until });
    expect(await marks.run('reserve', TENANT, B2, [ID], inMinutes(10))).toEqual([
      { entryId: ID, ok: false, reason: 'is already in another payout batch' },
    ]);
  });

  it('a reserve that arrives after its deadline reserves nothing', async () => {
    const { marks, doc } = store();
    const [mark] = await marks.run('reserve', TENANT, B1, [ID], inMinutes(-1));
    expect(mark).toMatchObject({ ok: false, reason: expect.stringContaining('deadline has passed') });
    expect(doc().payoutBatchId).toBeNull();
  });

  it('a lapsed reservation of a dead batch does not lock the entry: another batch takes it', async () => {
    const { marks, doc } = store({ payoutBatchId: B1, payoutReservedUntil: inMinutes(-1) } as Partial<EntryDoc>);
    expect((await marks.run('reserve', TENANT, B2, [ID], inMinutes(10)))[0]!.ok).toBe(true);
    expect(doc().payoutBatchId).toBe(B2);
    // The dead batch can no longer commit it; its release leaves the new reservation alone.
    expect((await marks.run('commit', TENANT, B1, [ID]))[0]).toMatchObject({ ok: false });
    await marks.run('release', TENANT, B1, [ID]);
    expect(doc().payoutBatchId).toBe(B2);
  });

  it('release gives a late reservation back, and a commit clears the deadline (paid out holds for good)', async () => {
    const late = store({ payoutBatchId: B1, payoutReservedUntil: inMinutes(5) } as Partial<EntryDoc>);
    await late.marks.run('release', TENANT, B1, [ID]);
    expect(late.doc()).toMatchObject({ payoutBatchId: null, payoutReservedUntil: null });

    const paid = store({ payoutBatchId: B1, payoutReservedUntil: inMinutes(5) } as Partial<EntryDoc>);
    expect((await paid.marks.run('commit', TENANT, B1, [ID]))[0]).toMatchObject({ ok: true, isPaidOut: true });
    expect(paid.doc()).toMatchObject({ isPaidOut: true, payoutBatchId: B1, payoutReservedUntil: null });
  });

  it('an entry whose per-diem total is unknown is refused with the reason (docs/decisions/0109)', async () => {
    const { marks } = store({ perDiems: [{ amountInBaseCurrency: null }] } as unknown as Partial<EntryDoc>);
    const [mark] = await marks.run('reserve', TENANT, B1, [ID], inMinutes(10));
    expect(mark).toMatchObject({ ok: false, reason: expect.stringContaining('per-diem total is not known') });
  });
});
