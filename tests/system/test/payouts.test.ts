// Payouts through the gateway (issue 15): the ready-for-payout list (paged envelope, most recently
// approved first, negative balances), batches that mark entries paid out and locked with entry.paidout
// at a real HTTPS receiver, refusals keyed entryIds[i] with nothing half-paid, the client contract of
// SPEC "Payouts" while entries are paid out concurrently, undo (entry.updated), the pain.001.001.09
// payment file validated against the schema, permissions and another company's batch (404).
import { randomUUID } from 'node:crypto';
import { DOMAIN_EXCHANGE, Inbox, parkingQueueOf } from '@travel/platform';
import { CONSUMERS } from '@travel/payouts/src/infra/topology';
import { verify } from '@travel/webhook-verify';
import { eventually, type HttpsReceiver } from '@travel/testkit';
import { VALID, employee } from '@travel/employees/test/support/org-fixtures';
import { pain001SchemaErrors } from '@travel/payouts/test/support/xsd';
import { announceUnknownAmountsDue } from '@travel/entries/src/app/entry-changed';
import { ENTRIES_COLLECTION, entriesRepositories } from '@travel/entries/src/infra/repositories';
import { BATCHES_COLLECTION } from '@travel/payouts/src/infra/repositories';
import { startPayoutsStack, stopsAt, type PayoutsStack } from './support/payouts-stack';
import { approvedEntry, readyIds, submit, untilReady } from './support/ready-entries';
import { StallingProxy } from './support/stalling-proxy';

describe('payouts', () => {
  let stack: PayoutsStack;

  beforeAll(async () => {
    stack = await startPayoutsStack('payouts');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const events = (receiver: HttpsReceiver, secret: string) =>
    receiver.requests.map((r) => {
      verify(r.body, r.headers as Record<string, string>, secret);
      return JSON.parse(r.body.toString('utf8')) as { type: string; data: Record<string, any> };
    });

  it('lists approved entries with something due, most recently approved first, in the paged envelope', async () => {
    const t = await stack.tenant('CZ');
    const first = await approvedEntry(t.client, 1200);
    const negative = await approvedEntry(t.client, 100, 350); // the employee owes 250 back
    const last = await approvedEntry(t.client, 99.5);
    await approvedEntry(t.client, 500, 500); // nothing due: never listed
    const draft = await t.api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-16',
      returnDate: '2026-11-16',
      expenses: [{ kind: 'Other', date: '2026-11-16', amount: 10, currencyCode: 'CZK', description: 'Bus' }],
    });
    expect(draft.status).toBe(201);

    expect(await untilReady(t.client, [first, negative, last])).toEqual([last, negative, first]);
    const page1 = await t.api.get('/api/v1/payouts/ready?pageSize=2');
    expect(page1.status).toBe(200);
    expect(Object.keys(page1.body).sort()).toEqual(['items', 'nextCursor', 'page', 'pageSize', 'total', 'totalPages']);
    expect(page1.body).toMatchObject({ page: 1, pageSize: 2, total: 3, totalPages: 2 });
    expect(page1.body.items[0]).toEqual({
      id: last,
      entryNumber: expect.stringMatching(/^\d{4}-\d{5}$/),
      employeeId: t.employeeId,
      approvedAt: expect.any(String),
      amountDue: 99.5,
      currencyCode: 'CZK',
      direction: 'ToEmployee',
    });
    expect(page1.body.items[1]).toMatchObject({ id: negative, amountDue: -250, direction: 'FromEmployee' });
    const page2 = await t.api.get('/api/v1/payouts/ready?page=2&pageSize=2');
    expect(page2.body).toMatchObject({ page: 2, total: 3, totalPages: 2, items: [{ id: first, amountDue: 1200 }] });
    // Defaults and bounds (SPEC Limits): pageSize 20 by default, at most 100.
    expect((await t.api.get('/api/v1/payouts/ready')).body).toMatchObject({ page: 1, pageSize: 20 });
    expect((await t.api.get('/api/v1/payouts/ready?pageSize=101')).status).toBe(400);
    expect((await t.api.get('/api/v1/payouts/ready?page=0')).status).toBe(400);
  });

  it('the amount due counts per-diem rows: expenses + per-diems − advance, in the base currency', async () => {
    const t = await stack.tenant('HR');
    const res = await t.api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-02',
      returnDate: '2026-11-02',
      advancePayment: 20,
      currencyCode: 'EUR',
      expenses: [{ kind: 'Other', date: '2026-11-02', amount: 50.4, currencyCode: 'EUR', description: 'Train' }],
      // A domestic day over 12 hours in HR: 30 € (Pravilnik, NN 143/2023).
      perDiems: [{ countryCode: 'HR', departureTime: '2026-11-02T05:00:00Z', arrivalTime: '2026-11-02T21:00:00Z' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.perDiems[0].amountInBaseCurrency).toBe(30);
    await submit(t.client, res.body.id);
    await untilReady(t.client, [res.body.id]);
    const row = (await t.api.get('/api/v1/payouts/ready')).body.items[0];
    expect(row).toMatchObject({ id: res.body.id, amountDue: 60.4, currencyCode: 'EUR', direction: 'ToEmployee' });
  });

  it('a batch marks its entries paid out and locked, with entry.paidout at an HTTPS receiver; undo brings them back with entry.updated', async () => {
    const t = await stack.tenant('CZ');
    const receiver = await stack.receiver();
    const sub = await t.api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['entry.paidout', 'entry.updated'],
    });
    expect(sub.status).toBe(201);
    const a = await approvedEntry(t.client, 1000);
    const b = await approvedEntry(t.client, 50, 80);
    await untilReady(t.client, [a, b]);
    const lockedBefore = (await t.api.get(`/api/v1/travel-entries/${a}`)).body.locked;

    const created = await t.api.post('/api/v1/payouts', { payoutMethod: 'BankTransfer', entryIds: [a, b] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      payoutMethod: 'BankTransfer',
      currencyCode: 'CZK',
      entryCount: 2,
      totalToEmployees: 1000,
      totalFromEmployees: 30,
      createdByEmployeeId: t.employeeId,
      paymentFileDownloadedAt: null,
      deletableUntil: expect.any(String),
    });
    expect(created.body.entries).toEqual([
      expect.objectContaining({ entryId: a, amountDue: 1000, direction: 'ToEmployee' }),
      expect.objectContaining({ entryId: b, amountDue: -30, direction: 'FromEmployee' }),
    ]);
    for (const id of [a, b]) {
      const e = (await t.api.get(`/api/v1/travel-entries/${id}`)).body;
      expect(e).toMatchObject({ isPaidOut: true, locked: true });
      expect(e.paidOutAt).toEqual(expect.any(String));
    }
    // Paid out: off the list at once, in the history, locked against changes.
    expect(await readyIds(t.client)).toEqual([]);
    const history = await t.api.get('/api/v1/payouts');
    expect(history.body).toMatchObject({ total: 1, items: [{ id: created.body.id }] });
    expect((await t.api.get(`/api/v1/payouts/${created.body.id}`)).body).toEqual(created.body);

    await eventually(
      async () => events(receiver, sub.body.signingSecret).filter((e) => e.type === 'entry.paidout').length === 2,
      15_000,
    );
    const paid = events(receiver, sub.body.signingSecret).filter((e) => e.type === 'entry.paidout');
    expect(paid.map((e) => e.data.id).sort()).toEqual([a, b].sort());
    for (const e of paid) expect(e.data).toMatchObject({ isPaidOut: true, isLocked: true, status: 3 });
    expect(paid[0]!.data.paidOutAt).toEqual(expect.any(String));

    // Undo: ready again, the payout lock gone, entry.updated for each.
    expect((await t.api.delete(`/api/v1/payouts/${created.body.id}`)).status).toBe(204);
    for (const id of [a, b]) {
      const e = (await t.api.get(`/api/v1/travel-entries/${id}`)).body;
      expect(e).toMatchObject({ isPaidOut: false, paidOutAt: null, locked: lockedBefore });
    }
    // Submission (auto-approval) raised entry.updated too; the undo's are the ones edited after the batch.
    await receiver.waitForRequests(6);
    const updated = events(receiver, sub.body.signingSecret).filter(
      (e) => e.type === 'entry.updated' && Date.parse(e.data.editedAt) >= Date.parse(created.body.createdAt),
    );
    expect(updated.map((e) => e.data.id).sort()).toEqual([a, b].sort());
    for (const e of updated) expect(e.data).toMatchObject({ isPaidOut: false, paidOutAt: null });
    expect((await t.api.get(`/api/v1/payouts/${created.body.id}`)).status).toBe(404);
    expect((await t.api.get('/api/v1/payouts')).body.total).toBe(0);
    expect((await readyIds(t.client)).sort()).toEqual([a, b].sort());
    // And they can be paid again.
    expect((await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [b, a] })).status).toBe(201);
  });

  it('refuses entries that are not ready, keyed entryIds[i], and pays nothing', async () => {
    const t = await stack.tenant('CZ');
    const other = await stack.tenant('CZ');
    const ready = await approvedEntry(t.client, 300);
    const paidElsewhere = await approvedEntry(t.client, 400);
    const theirs = await approvedEntry(other.client, 500);
    const draft = (
      await t.api.post('/api/v1/travel-entries', { departureDate: '2026-11-16', returnDate: '2026-11-16' })
    ).body.id;
    await untilReady(t.client, [ready, paidElsewhere]);
    expect((await t.api.post('/api/v1/payouts', { payoutMethod: 'Payroll', entryIds: [paidElsewhere] })).status).toBe(
      201,
    );

    const res = await t.api.post('/api/v1/payouts', {
      payoutMethod: 'BankTransfer',
      entryIds: [ready, paidElsewhere, draft, theirs, ready],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(res.body.errors).sort()).toEqual(['entryIds[4]']); // the repeated id first
    const refused = await t.api.post('/api/v1/payouts', {
      payoutMethod: 'BankTransfer',
      entryIds: [ready, paidElsewhere, draft, theirs],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      'entryIds[1]': ['is already in another payout batch'],
      'entryIds[2]': ['is not approved'],
      'entryIds[3]': ['does not exist'],
    });
    // Nothing half-paid: the ready entry is still ready and not paid out, and can be paid on its own.
    expect((await t.api.get(`/api/v1/travel-entries/${ready}`)).body.isPaidOut).toBe(false);
    expect(await readyIds(t.client)).toEqual([ready]);
    expect((await t.api.post('/api/v1/payouts', { payoutMethod: 'BankTransfer', entryIds: [ready] })).status).toBe(201);
    expect((await t.api.post('/api/v1/payouts', { payoutMethod: 'Bitcoin', entryIds: [ready] })).status).toBe(400);
    expect((await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [] })).status).toBe(400);
  });

  it('the client contract holds while entries are paid out concurrently: every entry is paid exactly once', async () => {
    const t = await stack.tenant('CZ');
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push(await approvedEntry(t.client, 100 + i));
    await untilReady(t.client, ids);
    // Another payer takes every third entry while this client pages through the list (pageSize 5).
    const theirs = ids.filter((_, i) => i % 3 === 0);
    const paidBy = new Map<string, string>();
    const concurrent = (async () => {
      for (const id of theirs) {
        const res = await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [id] });
        // 400 when this client's batch took the entry first.
        if (res.status === 201) paidBy.set(id, res.body.id);
        else
          expect(res.body.errors).toEqual({ 'entryIds[0]': [expect.stringMatching(/another payout batch|paid out/)] });
      }
    })();

    let rounds = 0;
    for (;;) {
      // SPEC: read every page until page >= totalPages, de-duplicate by id, then create the batch: the
      // client's payout procedure, which creates the batch again without entries refused meanwhile.
      const round = await t.client.payOutReadyEntries({ payoutMethod: 'BankTransfer', pageSize: 5 });
      if (round.readyEntryIds.length === 0) break;
      for (const batch of round.batches) for (const e of batch.entries) paidBy.set(e.entryId, batch.id);
      // Only entries the other payer took meanwhile are refused; the rest are paid without them.
      for (const id of Object.keys(round.refused)) expect(theirs).toContain(id);
      expect(++rounds).toBeLessThan(20);
    }
    await concurrent;
    // Every entry paid out exactly once: in one batch of the history, and marked paid out.
    const counts = new Map<string, number>();
    for await (const b of t.client.paginate('/api/v1/payouts'))
      for (const e of b.entries) counts.set(e.entryId, (counts.get(e.entryId) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...ids].sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    for (const id of ids) expect((await t.api.get(`/api/v1/travel-entries/${id}`)).body.isPaidOut).toBe(true);
  });

  it('pays by a pain.001.001.09 file valid against the schema; the download changes nothing', async () => {
    for (const [market, currency] of [
      ['HR', 'EUR'],
      ['CZ', 'CZK'],
      ['PL', 'PLN'],
    ] as const) {
      const t = await stack.tenant(market);
      const payee = await employee(t.api, { firstName: 'Ivo', lastName: 'Kovač', ...VALID[market] });
      const noBank = await employee(t.api, { firstName: 'Ana', lastName: 'Bez' });
      const make = async (employeeId: string, amount: number, advance = 0) => {
        const res = await t.api.post('/api/v1/travel-entries', {
          employeeId,
          departureDate: '2026-11-16',
          returnDate: '2026-11-18',
          advancePayment: advance,
          currencyCode: currency,
          expenses: [{ kind: 'Other', date: '2026-11-17', amount, currencyCode: currency, description: 'Hotel' }],
        });
        expect(res.status).toBe(201);
        await submit(t.client, res.body.id);
        return res.body.id as string;
      };
      const one = await make(payee.id, 250.25);
      const two = await make(payee.id, 99.75);
      const owes = await make(payee.id, 10, 60);
      const other = await make(noBank.id, 5);
      await untilReady(t.client, [one, two, owes, other]);

      const batch = (await t.api.post('/api/v1/payouts', { payoutMethod: 'BankTransfer', entryIds: [one, two, owes] }))
        .body;
      const debtor = VALID[market].bankAccount;
      const path = `/api/v1/payouts/${batch.id}/payment-file?debtorIban=${debtor}&executionDate=2026-11-24`;
      const file = await t.api.get(path);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.xml"$/);
      expect(await pain001SchemaErrors(file.text)).toEqual([]);
      // Two transfers (the negative entry is never in the file), to the payee's IBAN, summed exactly.
      expect(file.text.match(/<CdtTrfTxInf>/g)).toHaveLength(2);
      expect(file.text).toContain(`<CtrlSum>350.00</CtrlSum>`);
      expect(file.text).toContain(`<InstdAmt Ccy="${currency}">250.25</InstdAmt>`);
      expect(file.text).toContain(`<IBAN>${VALID[market].bankAccount}</IBAN>`);
      expect(file.text).toContain('<Nm>Ivo Kovac</Nm>');
      expect(file.text.includes('<Cd>SEPA</Cd>')).toBe(currency === 'EUR');
      // A read (docs/decisions/0191): the batch is as it was, still undoable; the file can be fetched again.
      expect((await t.api.get(`/api/v1/payouts/${batch.id}`)).body).toEqual(batch);
      expect((await t.api.get(path)).status).toBe(200);

      // A payee without bank data: 409 naming the entry, not the person's data.
      const noBankBatch = (await t.api.post('/api/v1/payouts', { payoutMethod: 'BankTransfer', entryIds: [other] }))
        .body;
      const missing = await t.api.get(`/api/v1/payouts/${noBankBatch.id}/payment-file?debtorIban=${debtor}`);
      expect(missing.status).toBe(409);
      expect(missing.body.errors).toEqual({ 'entries[0].employeeId': [expect.stringContaining('bank account')] });
      // The company's IBAN and BIC as the contract's patterns allow them (print format, either case,
      // spaces): accepted, and written in electronic format (issue 21, docs/decisions/0119).
      const printed = encodeURIComponent(
        debtor
          .toLowerCase()
          .replace(/(.{4})/g, '$1 ')
          .trim(),
      );
      const spaced = await t.api.get(
        `/api/v1/payouts/${batch.id}/payment-file?debtorIban=${printed}&debtorBic=zaba%20hr%202x`,
      );
      expect(spaced.status).toBe(200);
      expect(spaced.text).toContain(`<DbtrAcct><Id><IBAN>${debtor}</IBAN></Id></DbtrAcct>`);
      expect(spaced.text).toContain('<BICFI>ZABAHR2X</BICFI>');
      // Spaces as forms encode them (`+`), as clients such as Python's requests send them.
      const plus = await t.api.get(
        `/api/v1/payouts/${batch.id}/payment-file?debtorIban=${printed.replace(/%20/g, '+')}&debtorBic=zaba+hr+2x`,
      );
      expect(plus.status).toBe(200);
      // Bad input is 400; a Cash batch has no file.
      expect((await t.api.get(`/api/v1/payouts/${batch.id}/payment-file?debtorIban=HR00123`)).status).toBe(400);
      expect(
        (await t.api.get(`/api/v1/payouts/${batch.id}/payment-file?debtorIban=HR1210010051863000161`)).body.errors,
      ).toHaveProperty('debtorIban');
      // Beyond the pattern, the registry's rules: a Croatian IBAN of 22 characters (HR has 21).
      const long = await t.api.get(`/api/v1/payouts/${batch.id}/payment-file?debtorIban=HR12100100518630001601`);
      expect(long.body.errors).toEqual({ debtorIban: ['must have 21 characters for HR (has 22)'] });
    }
  });

  // Issue 35 §1: no GET changes state. A crafted link that fetches the file (with a signed-in console
  // session) must not make the batch final; only the explicit write does (docs/decisions/0191).
  const bankTransferBatch = async (t: Awaited<ReturnType<PayoutsStack['tenant']>>, amounts: number[]) => {
    const payee = await employee(t.api, { firstName: 'Jan', lastName: 'Novák', ...VALID.CZ });
    const ids: string[] = [];
    for (const amount of amounts) {
      const res = await t.api.post('/api/v1/travel-entries', {
        employeeId: payee.id,
        departureDate: '2026-11-16',
        returnDate: '2026-11-18',
        currencyCode: 'CZK',
        expenses: [{ kind: 'Other', date: '2026-11-17', amount, currencyCode: 'CZK', description: 'Hotel' }],
      });
      expect(res.status).toBe(201);
      await submit(t.client, res.body.id);
      ids.push(res.body.id);
    }
    await untilReady(t.client, ids);
    const batches = [];
    for (const id of ids) {
      const created = await t.api.post('/api/v1/payouts', { payoutMethod: 'BankTransfer', entryIds: [id] });
      expect(created.status).toBe(201);
      batches.push(created.body);
    }
    return batches;
  };

  it('downloading the payment file leaves the batch undoable: the undo succeeds afterwards', async () => {
    const t = await stack.tenant('CZ');
    const [batch] = await bankTransferBatch(t, [120]);
    expect(batch).toMatchObject({ paymentFileDownloadedAt: null, deletableUntil: expect.any(String) });
    const file = await t.api.get(
      `/api/v1/payouts/${batch.id}/payment-file?debtorIban=${VALID.CZ.bankAccount}&executionDate=2026-11-24`,
    );
    expect(file.status).toBe(200);
    expect(file.text).toContain('<CdtTrfTxInf>');
    // Nothing changed: the undo goes through, and the batch was as it was made until then.
    const read = (await t.api.get(`/api/v1/payouts/${batch.id}`)).body;
    expect((await t.api.delete(`/api/v1/payouts/${batch.id}`)).status).toBe(204);
    expect(read).toEqual(batch);
    expect((await t.api.get(`/api/v1/payouts/${batch.id}`)).status).toBe(404);
  });

  it('marking a batch sent to the bank is an explicit, audited write: after it the undo is refused; a repeat answers the same', async () => {
    const t = await stack.tenant('CZ');
    const [batch, undone] = await bankTransferBatch(t, [120, 80]);
    // A payer with ManagePayouts, through a key the account owner issued for them: both are recorded.
    const payer = await employee(t.api, { permissions: ['ManagePayouts'] });
    const key = await t.api.post('/api/v1/api-keys', { name: 'payer', employeeId: payer.id });
    expect(key.status).toBe(201);
    const api = t.api.withKey(key.body.key);

    const before = Date.now();
    const marked = await api.post(`/api/v1/payouts/${batch.id}/sent-to-bank`);
    expect(marked.status).toBe(200);
    expect(marked.body).toEqual({
      ...batch,
      sentToBank: { at: expect.any(String), employeeId: payer.id, keyIssuedByEmployeeId: t.employeeId },
      paymentFileDownloadedAt: marked.body.sentToBank.at,
      deletableUntil: null,
    });
    expect(Date.parse(marked.body.sentToBank.at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await t.api.get(`/api/v1/payouts/${batch.id}`)).body).toEqual(marked.body);

    // Again, by the payer or the owner: the same state, the first mark kept.
    for (const caller of [api, t.api]) {
      const again = await caller.post(`/api/v1/payouts/${batch.id}/sent-to-bank`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(marked.body);
    }
    // Final: the undo is refused as after a download before, and the file can still be fetched.
    const refused = await t.api.delete(`/api/v1/payouts/${batch.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INVALID_STATE', detail: expect.stringContaining('sent to the bank') });
    expect((await t.api.get(`/api/v1/payouts/${batch.id}`)).body).toEqual(marked.body);
    const file = await t.api.get(`/api/v1/payouts/${batch.id}/payment-file?debtorIban=${VALID.CZ.bankAccount}`);
    expect(file.status).toBe(200);

    // An undone batch is gone (404); a batch without a payment file cannot have been sent (409).
    expect((await t.api.delete(`/api/v1/payouts/${undone.id}`)).status).toBe(204);
    expect((await t.api.post(`/api/v1/payouts/${undone.id}/sent-to-bank`)).status).toBe(404);
    expect((await t.api.post(`/api/v1/payouts/${randomUUID()}/sent-to-bank`)).status).toBe(404);
    await untilReady(t.client, [undone.entries[0].entryId]);
    const cash = await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [undone.entries[0].entryId] });
    expect(cash.status).toBe(201);
    const notBank = await t.api.post(`/api/v1/payouts/${cash.body.id}/sent-to-bank`);
    expect(notBank.status).toBe(409);
    expect(notBank.body.code).toBe('INVALID_STATE');
    expect((await t.api.get(`/api/v1/payouts/${cash.body.id}`)).body.sentToBank).toBeNull();
    // Nor one whose payee has no IBAN (its file is refused the same way), and the batch stays undoable.
    const noIban = await approvedEntry(t.client, 10);
    await untilReady(t.client, [noIban]);
    const unpayable = await t.api.post('/api/v1/payouts', { payoutMethod: 'BankTransfer', entryIds: [noIban] });
    expect(unpayable.status).toBe(201);
    const refusedMark = await t.api.post(`/api/v1/payouts/${unpayable.body.id}/sent-to-bank`);
    expect(refusedMark.status).toBe(409);
    expect(refusedMark.body.errors).toEqual({ 'entries[0].employeeId': [expect.stringContaining('bank account')] });
    expect((await t.api.delete(`/api/v1/payouts/${unpayable.body.id}`)).status).toBe(204);
  });

  it('permissions: ManagePayouts to pay, delete, download and mark sent; ReadAllEntries to read; another company is 404', async () => {
    const t = await stack.tenant('CZ');
    const other = await stack.tenant('CZ');
    const id = await approvedEntry(t.client, 10);
    await untilReady(t.client, [id]);
    const batch = (await t.api.post('/api/v1/payouts', { payoutMethod: 'BankTransfer', entryIds: [id] })).body;

    const keyFor = async (permissions: string[]) => {
      const e = await employee(t.api, { permissions });
      const key = await t.api.post('/api/v1/api-keys', { name: 'payouts test', employeeId: e.id });
      expect(key.status).toBe(201);
      return t.api.withKey(key.body.key);
    };
    const reader = await keyFor(['ReadAllEntries']);
    const nobody = await keyFor([]);
    expect((await reader.get('/api/v1/payouts/ready')).status).toBe(200);
    expect((await reader.get(`/api/v1/payouts/${batch.id}`)).status).toBe(200);
    expect((await reader.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [id] })).status).toBe(403);
    expect((await reader.delete(`/api/v1/payouts/${batch.id}`)).status).toBe(403);
    expect(
      (await reader.get(`/api/v1/payouts/${batch.id}/payment-file?debtorIban=${VALID.CZ.bankAccount}`)).status,
    ).toBe(403);
    expect((await reader.post(`/api/v1/payouts/${batch.id}/sent-to-bank`)).status).toBe(403);
    expect((await nobody.post(`/api/v1/payouts/${batch.id}/sent-to-bank`)).status).toBe(403);
    for (const path of ['/api/v1/payouts/ready', '/api/v1/payouts', `/api/v1/payouts/${batch.id}`])
      expect((await nobody.get(path)).status).toBe(403);

    // Another company's batch does not exist for this one.
    expect((await other.api.get(`/api/v1/payouts/${batch.id}`)).status).toBe(404);
    expect((await other.api.delete(`/api/v1/payouts/${batch.id}`)).status).toBe(404);
    expect(
      (await other.api.get(`/api/v1/payouts/${batch.id}/payment-file?debtorIban=${VALID.CZ.bankAccount}`)).status,
    ).toBe(404);
    expect((await other.api.post(`/api/v1/payouts/${batch.id}/sent-to-bank`)).status).toBe(404);
    expect((await other.api.get('/api/v1/payouts')).body.total).toBe(0);
    expect((await t.api.delete(`/api/v1/payouts/${batch.id}`)).status).toBe(204);
  });

  it('the projection keeps the newest revision of each entry, whatever order the events arrive in', async () => {
    const t = await stack.tenant('CZ');
    const entryId = randomUUID();
    const publish = (rev: number, change: Record<string, unknown>, id = randomUUID()) =>
      stack.entries.deps.amqp.publish(
        DOMAIN_EXCHANGE,
        'entries.entry-state.changed',
        Buffer.from(
          JSON.stringify({
            id,
            type: 'entry-state.changed',
            tenantId: t.tenantId,
            occurredAt: new Date().toISOString(),
            data: {
              entryId,
              entryNumber: '2026-09999',
              employeeId: t.employeeId,
              status: 3,
              isPaidOut: false,
              deleted: false,
              approvedAt: '2026-11-21T10:00:00.000Z',
              baseCurrency: 'CZK',
              amountDue: '75.50',
              rev,
              ...change,
            },
          }),
        ),
        { messageId: id },
      );
    // rev 7 (paid out) arrives before rev 5 (approved, ready) and a repeat of rev 5; a malformed event is parked.
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await publish(7, { isPaidOut: true }, ids[0]);
    await publish(5, {}, ids[1]);
    await publish(5, {}, ids[1]);
    await publish(4, { status: 1, approvedAt: null }, ids[2]);
    await publish(6, { amountDue: 'a lot' });
    // Every valid one handled (the consumer's inbox has them), the malformed one parked.
    const inbox = new Inbox(stack.payouts.deps.mongo);
    await eventually(
      async () => (await Promise.all(ids.map((id) => inbox.seen(CONSUMERS.ready.name, id)))).every(Boolean),
      15_000,
    );
    const ch = await stack.payouts.deps.amqp.channel();
    await eventually(
      async () => (await ch.checkQueue(parkingQueueOf(CONSUMERS.ready.name))).messageCount === 1,
      15_000,
    );
    await ch.close();
    expect(await readyIds(t.client)).not.toContain(entryId);
    // A newer revision (undone, ready again with another amount) does apply.
    await publish(8, { amountDue: '80.00' });
    await eventually(async () => (await readyIds(t.client)).includes(entryId), 15_000);
    const row = (await t.api.get('/api/v1/payouts/ready')).body.items.find((r: { id: string }) => r.id === entryId);
    expect(row).toMatchObject({ amountDue: 80, approvedAt: '2026-11-21T10:00:00.000Z' });
  });

  it('a crash in the middle of a create is rolled back or finished by the recovery: nothing is half-paid', async () => {
    const t = await stack.tenant('CZ');
    const [a, b, c, d] = [
      await approvedEntry(t.client, 11),
      await approvedEntry(t.client, 12),
      await approvedEntry(t.client, 13),
      await approvedEntry(t.client, 14),
    ];
    await untilReady(t.client, [a, b, c, d]);
    const paid = async (id: string) => (await t.api.get(`/api/v1/travel-entries/${id}`)).body.isPaidOut as boolean;
    try {
      // 1. The process stops after entries reserved a and b (the answer lost: 503, as after a time-out): they
      //    are in no batch, paid by nobody, and another batch cannot take them; the recovery gives them back.
      await stack.restartPayouts(stopsAt('afterReserve'));
      expect((await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [a, b] })).status).toBe(503);
      expect([await paid(a), await paid(b)]).toEqual([false, false]);
      expect((await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [b] })).body.errors).toEqual({
        'entryIds[0]': ['is already in another payout batch'],
      });
      await stack.restartPayouts({}, { PAYOUT_RECOVERY_GRACE_MS: '0' });
      expect((await t.api.get('/api/v1/payouts')).body.total).toBe(0);
      expect([await paid(a), await paid(b)]).toEqual([false, false]);
      const retried = await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [a, b] });
      expect(retried.status).toBe(201);

      // 2. The process dies after c was marked paid out and before d was: the restart finishes the batch.
      await stack.restartPayouts(stopsAt('midCommit'));
      expect((await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [c, d] })).status).toBe(500);
      expect([await paid(c), await paid(d)]).toEqual([true, false]);
      await stack.restartPayouts({}, { PAYOUT_RECOVERY_GRACE_MS: '0' });
      expect([await paid(c), await paid(d)]).toEqual([true, true]);
      const history = (await t.api.get('/api/v1/payouts')).body;
      expect(history.total).toBe(2);
      expect(history.items.map((x: { entries: { entryId: string }[] }) => x.entries.map((e) => e.entryId))).toEqual(
        expect.arrayContaining([
          [c, d],
          [a, b],
        ]),
      );
      await eventually(async () => (await readyIds(t.client)).length === 0, 15_000);
    } finally {
      await stack.restartPayouts();
    }
  });

  // Issue 20, section 4: an unknown per-diem total is never paid as 0 (docs/decisions/0109).
  it('an entry whose per-diem total is unknown is never paid as 0: not ready, refused by a batch, and it says why', async () => {
    const t = await stack.tenant('CZ');
    // CZ: the research reads the foreign base rates of 2025 and 2026 only; a day in Slovenia in 2024 has no
    // amount (vyhl. 341/2023 Sb. is not read).
    const res = await t.api.post('/api/v1/travel-entries', {
      departureDate: '2024-11-04',
      returnDate: '2024-11-04',
      advancePayment: 0,
      currencyCode: 'CZK',
      expenses: [{ kind: 'Other', date: '2024-11-04', amount: 500, currencyCode: 'CZK', description: 'Train' }],
      perDiems: [{ countryCode: 'SI', departureTime: '2024-11-04T05:00:00Z', arrivalTime: '2024-11-04T19:00:00Z' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.perDiems[0].amountInBaseCurrency).toBeNull();
    expect(res.body).toMatchObject({
      expenseTotal: 500,
      perDiemTotal: null,
      amountDue: null,
      payoutBlockedReason: expect.stringContaining('perDiems[0]'),
    });
    const blocked = res.body.id as string;
    await submit(t.client, blocked);
    // A later marker entry reaches the list; the blocked one never does.
    const marker = await approvedEntry(t.client, 10);
    expect(await untilReady(t.client, [marker])).toEqual([marker]);

    // The start-up migration for entries announced before 0109 finds it on the real store, once.
    const repos = entriesRepositories(stack.entries.deps.mongo);
    expect((await repos.unknownDueNotAnnounced()).map((e) => e._id)).toEqual([blocked]);
    expect(await announceUnknownAmountsDue(repos)).toBe(1);
    expect(await announceUnknownAmountsDue(repos)).toBe(0);

    const refused = await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [marker, blocked] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ 'entryIds[1]': [expect.stringContaining('per-diem total is not known')] });
    const after = (await t.api.get(`/api/v1/travel-entries/${blocked}`)).body;
    expect(after).toMatchObject({ status: 3, isPaidOut: false, amountDue: null });
    expect(after.payoutBlockedReason).toMatch(/cannot be paid out/);
    // An entry with known figures says nothing blocks it, and is paid.
    expect((await t.api.get(`/api/v1/travel-entries/${marker}`)).body).toMatchObject({
      amountDue: 10,
      payoutBlockedReason: null,
    });
    expect((await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [marker] })).status).toBe(201);
  });

  // Issue 20, section 4: a reserve that times out never leaves entries locked to a rolled-back batch (0110).
  it('a reserve that stalls past the time-out is left to the recovery; its late reservations are released', async () => {
    const t = await stack.tenant('CZ');
    const [a, b] = [await approvedEntry(t.client, 21), await approvedEntry(t.client, 22)];
    await untilReady(t.client, [a, b]);
    const proxy = await new StallingProxy(stack.entries.url).start();
    const entries = stack.entries.deps.mongo.db!.collection(ENTRIES_COLLECTION);
    let restored = false;
    try {
      await stack.restartPayouts(
        {},
        {
          ENTRIES_URL: proxy.url,
          PAYOUT_ENTRIES_TIMEOUT_MS: '2000',
          PAYOUT_RECOVERY_GRACE_MS: '2500',
          PAYOUT_RECOVERY_INTERVAL_MS: '250',
        },
      );
      const batches = stack.payouts.deps.mongo.db!.collection(BATCHES_COLLECTION);
      // entries takes the reserve in, then stalls: the answer comes long after payouts stopped waiting.
      const stalled = proxy.holdNext(/\/reserve$/, 10_000);
      const res = await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [a, b] });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
      // The batch is left to the recovery job, which rolls it back while the reserve is still on its way…
      await eventually(async () => (await batches.findOne({ tenantId: t.tenantId }))?.state === 'rolledBack', 15_000);
      // …and then the stalled reserve reaches entries and reserves both entries for the dead batch.
      stalled.release();
      const late = JSON.parse((await stalled.forwarded).body) as { results: { ok: boolean }[] };
      expect(late.results.map((r) => r.ok)).toEqual([true, true]);
      // The recovery releases reservations of rolled-back batches: the entries are free again, and a new
      // batch pays each exactly once.
      await eventually(
        async () => (await entries.find({ _id: { $in: [a, b] } } as never).toArray()).every((e) => !e.payoutBatchId),
        15_000,
      );
      // (Paid through payouts as usual: straight to entries, the ordinary time-out.)
      await stack.restartPayouts();
      restored = true;
      const again = await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [a, b] });
      expect(again.status).toBe(201);
      const history = (await t.api.get('/api/v1/payouts')).body;
      expect(history.total).toBe(1);
      expect(history.items[0].entries.map((e: { entryId: string }) => e.entryId)).toEqual([a, b]);
      for (const id of [a, b]) expect((await t.api.get(`/api/v1/travel-entries/${id}`)).body.isPaidOut).toBe(true);
    } finally {
      if (!restored) await stack.restartPayouts();
      await proxy.stop();
    }
  });

  // Issue 20, section 3 "Bank data": the payment file pays the bank data kept with the batch (0111).
  it('a BankTransfer batch keeps the payees’ bank data: a later IBAN change does not reach its file or any read', async () => {
    const t = await stack.tenant('CZ');
    const payee = await employee(t.api, { firstName: 'Jan', lastName: 'Novák', ...VALID.CZ });
    const created = await t.api.post('/api/v1/travel-entries', {
      employeeId: payee.id,
      departureDate: '2026-11-16',
      returnDate: '2026-11-18',
      advancePayment: 0,
      currencyCode: 'CZK',
      expenses: [{ kind: 'Other', date: '2026-11-17', amount: 120, currencyCode: 'CZK', description: 'Hotel' }],
    });
    expect(created.status).toBe(201);
    await submit(t.client, created.body.id);
    await untilReady(t.client, [created.body.id]);
    const batch = await t.api.post('/api/v1/payouts', { payoutMethod: 'BankTransfer', entryIds: [created.body.id] });
    expect(batch.status).toBe(201);

    // The employee's bank data changes after the batch was made.
    const NEW_IBAN = 'CZ7301000000000000000019';
    const record = (await t.api.get(`/api/v1/employees/${payee.id}`)).body;
    const changed = await t.api.put(`/api/v1/employees/${payee.id}`, {
      ...record,
      bankAccount: NEW_IBAN,
      bic: 'KOMBCZPX',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.bankAccount).toBe(NEW_IBAN);

    const file = await t.api.get(`/api/v1/payouts/${batch.body.id}/payment-file?debtorIban=${VALID.CZ.bankAccount}`);
    expect(file.status).toBe(200);
    expect(await pain001SchemaErrors(file.text)).toEqual([]);
    expect(file.text).toContain(`<CdtrAcct><Id><IBAN>${VALID.CZ.bankAccount}</IBAN></Id></CdtrAcct>`);
    expect(file.text).toContain(`<BICFI>${VALID.CZ.bic}</BICFI>`);
    expect(file.text).not.toContain(NEW_IBAN);
    expect(file.text).toContain('<Nm>Jan Novak</Nm>');

    // Batch reads carry no bank data, to the payer nor to a reader without a right to personal data.
    const reader = await employee(t.api, { permissions: ['ReadAllEntries'] });
    const key = await t.api.post('/api/v1/api-keys', { name: 'payouts reader', employeeId: reader.id });
    expect(key.status).toBe(201);
    for (const api of [t.api, t.api.withKey(key.body.key)])
      for (const path of [`/api/v1/payouts/${batch.body.id}`, '/api/v1/payouts']) {
        const read = await api.get(path);
        expect(read.status).toBe(200);
        for (const secret of [VALID.CZ.bankAccount, VALID.CZ.bic, NEW_IBAN, 'Novák'])
          expect(JSON.stringify(read.body)).not.toContain(secret);
      }
  });
});
