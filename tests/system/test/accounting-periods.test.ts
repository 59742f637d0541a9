// Closed accounting periods through the gateway (issue 39 §3, docs/decisions/0207, 0208): a closed month
// refuses every write dated in it with 409 PERIOD_CLOSED naming it, while the same write in an open month
// passes; request-changes of an entry lying in it is refused; a reopen is audited and lets the writes
// through; who may close; the payroll and journal exports of a closed month stay byte for byte the same
// across changes that would alter them; closing and reopening raise no entry event.
import { DOMAIN_EXCHANGE } from '@travel/platform';
import { eventually, type ApiClient } from '@travel/testkit';
import { allBut, limitedCaller } from '@travel/employees/test/support/org-fixtures';
import { startPayoutsStack, type PayoutsStack } from './support/payouts-stack';

const ENTRIES = '/api/v1/travel-entries';
const PERIODS = '/api/v1/accounting-periods';
const CLOSED = '2026-03';

/** Other expenses in EUR, the base currency of an HR company: no conversion. */
const other = (date: string, amount: number) => ({
  kind: 'Other',
  date,
  amount,
  currencyCode: 'EUR',
  description: 'Conference fee',
});
/** HR mileage: the statutory 0.50 € per km (200 km = 100.00 €, as the payroll export's HR case). */
const mileage = (date: string, distanceKm: number) => ({ kind: 'Mileage', date, distanceKm });
/** Zagreb from 06:00 to `back` (CET, UTC+1 before summer time on 29 March): one domestic day. */
const stopsOn = (day: string, back = '19:00') => [
  { time: `${day}T05:00:00Z`, countryCode: 'HR' },
  { time: `${day}T${back}:00Z`, countryCode: 'HR' },
];

/** A 409 PERIOD_CLOSED naming the period in its detail and in `errors.period`. */
function expectClosed(res: { status: number; body: any }, period = CLOSED): void {
  expect({ status: res.status, code: res.body?.code, period: res.body?.errors?.period }).toEqual({
    status: 409,
    code: 'PERIOD_CLOSED',
    period: [period],
  });
  expect(res.body.detail).toContain(`accounting period ${period} is closed`);
}

/** The month of an instant in Zagreb's calendar (the HR market's). */
const zagrebMonth = (at: string): string =>
  new Date(at).toLocaleString('sv-SE', { timeZone: 'Europe/Zagreb' }).slice(0, 7);

describe('closed accounting periods', () => {
  let stack: PayoutsStack;

  beforeAll(async () => {
    stack = await startPayoutsStack('accounting-periods');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const close = (api: ApiClient, period: string, reason = 'March booked') =>
    api.post(`${PERIODS}/${period}/close`, { reason });
  const reopen = (api: ApiClient, period: string, reason = 'A late invoice') =>
    api.post(`${PERIODS}/${period}/reopen`, { reason });

  it('refuses every write dated in a closed month (409 naming it) while the same write in April passes; a reopen lets it through', async () => {
    const t = await stack.tenant('HR');
    // Request-changes needs an approver whose key neither the entry's creator (the owner) issued (0194).
    const admin = await limitedCaller(t.api, ['ManageCompanyData', 'ManageEmployees']);
    const approver = await limitedCaller(admin.api, []);
    const workflow = { settlementSteps: [{ approverIds: [approver.employeeId] }], tripApprovalSteps: [] };
    expect((await t.api.put('/api/v1/approval-workflow', workflow)).status).toBe(200);

    // Before the close: a March entry with an expense, a mileage row and a per-diem row; one submitted.
    const march = await t.api.post(ENTRIES, {
      departureDate: '2026-03-10',
      returnDate: '2026-03-10',
      expenses: [other('2026-03-10', 12), mileage('2026-03-10', 10)],
    });
    expect(march.status).toBe(201);
    const a = march.body.id as string;
    const [taxi, miles] = march.body.expenses as { id: string }[];
    expect((await t.api.post(`${ENTRIES}/${a}/per-diems/from-itinerary`, { stops: stopsOn('2026-03-10') })).status).toBe(200);
    const submittedMarch = (await t.api.post(ENTRIES, { departureDate: '2026-03-20', returnDate: '2026-03-21' })).body.id;
    expect((await t.api.post(`${ENTRIES}/${submittedMarch}/submit`, {})).body.status).toBe(1);
    const april = await t.api.post(ENTRIES, {
      departureDate: '2026-04-14',
      returnDate: '2026-04-14',
      expenses: [other('2026-04-14', 30)],
    });
    const b = april.body.id as string;
    const aprilExpense = april.body.expenses[0].id as string;
    const submittedApril = (await t.api.post(ENTRIES, { departureDate: '2026-04-20', returnDate: '2026-04-21' })).body.id;
    expect((await t.api.post(`${ENTRIES}/${submittedApril}/submit`, {})).body.status).toBe(1);

    const closed = await close(t.api, CLOSED, 'March booked and reported');
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual({
      period: CLOSED,
      state: 'Closed',
      exportsFrozenAt: expect.any(String),
      history: [
        { action: 'Closed', employeeId: t.employeeId, keyIssuedByEmployeeId: null, at: closed.body.exportsFrozenAt, reason: 'March booked and reported' },
      ],
    });
    // A repeat is refused (each close is a line of the trail; a retry is answered by its Idempotency-Key).
    expect((await close(t.api, CLOSED)).body.code).toBe('INVALID_STATE');

    // The single-expense endpoints: create, update (amount; date moved out of March), delete.
    expectClosed(await t.api.post(`${ENTRIES}/${a}/expenses`, other('2026-03-11', 5)));
    expect((await t.api.post(`${ENTRIES}/${b}/expenses`, other('2026-04-15', 5))).status).toBe(201);
    expectClosed(await t.api.put(`${ENTRIES}/${a}/expenses/${taxi!.id}`, other('2026-03-10', 13)));
    expectClosed(await t.api.put(`${ENTRIES}/${a}/expenses/${taxi!.id}`, other('2026-04-10', 12)));
    expect((await t.api.put(`${ENTRIES}/${b}/expenses/${aprilExpense}`, other('2026-04-14', 31))).status).toBe(200);
    expectClosed(await t.api.delete(`${ENTRIES}/${a}/expenses/${taxi!.id}`));
    // Mileage is an expense kind: the same rule.
    expectClosed(await t.api.post(`${ENTRIES}/${a}/expenses`, mileage('2026-03-12', 20)));
    expectClosed(await t.api.delete(`${ENTRIES}/${a}/expenses/${miles!.id}`));
    expect((await t.api.post(`${ENTRIES}/${b}/expenses`, mileage('2026-04-14', 20))).status).toBe(201);
    // Per-diem rows: from the itinerary, and through the entry's PUT.
    // The same itinerary again changes no row (200); a later return would.
    expect((await t.api.post(`${ENTRIES}/${a}/per-diems/from-itinerary`, { stops: stopsOn('2026-03-10') })).status).toBe(200);
    expectClosed(await t.api.post(`${ENTRIES}/${a}/per-diems/from-itinerary`, { stops: stopsOn('2026-03-10', '21:00') }));
    expect((await t.api.post(`${ENTRIES}/${b}/per-diems/from-itinerary`, { stops: stopsOn('2026-04-14') })).status).toBe(200);
    const got = (await t.api.get(`${ENTRIES}/${a}`)).body;
    expectClosed(await t.api.put(`${ENTRIES}/${a}`, { ...got, perDiems: [] }));
    // The GET body sent back changes nothing dated: accepted; so is a change of the description alone.
    expect((await t.api.put(`${ENTRIES}/${a}`, got)).status).toBe(200);
    expect((await t.api.put(`${ENTRIES}/${a}`, { ...got, description: 'Client visit' })).status).toBe(200);
    // An entry created with nested rows dated in March; an entry deleted with its March rows.
    expectClosed(await t.api.post(ENTRIES, { departureDate: '2026-03-05', returnDate: '2026-03-05', expenses: [other('2026-03-05', 8)] }));
    expect((await t.api.post(ENTRIES, { departureDate: '2026-04-05', returnDate: '2026-04-05', expenses: [other('2026-04-05', 8)] })).status).toBe(201);
    expectClosed(await t.api.delete(`${ENTRIES}/${a}`));
    const emptyApril = (await t.api.post(ENTRIES, { departureDate: '2026-04-06', returnDate: '2026-04-06', expenses: [other('2026-04-06', 8)] })).body.id;
    expect((await t.api.delete(`${ENTRIES}/${emptyApril}`)).status).toBe(204);
    // Request-changes would make an entry lying in March editable again.
    expectClosed(await approver.api.post(`${ENTRIES}/${submittedMarch}/request-changes`, { comment: 'Hotel bill?' }));
    expect((await approver.api.post(`${ENTRIES}/${submittedApril}/request-changes`, {})).status).toBe(200);
    // Nothing of the refused writes was stored: the March entry has its two expenses, as before.
    const after = (await t.api.get(`${ENTRIES}/${a}`)).body;
    expect(after.expenses.map((x: { amount: number; date: string }) => [x.date, x.amount])).toEqual([
      ['2026-03-10', 12],
      ['2026-03-10', 5], // 10 km × 0.50 €
    ]);
    expect(after.perDiems).toHaveLength(got.perDiems.length);

    // Reopening needs a reason; it is audited; then the same writes pass.
    const bare = await t.api.post(`${PERIODS}/${CLOSED}/reopen`, {});
    expect([bare.status, bare.body.code, Object.keys(bare.body.errors ?? {})]).toEqual([400, 'VALIDATION_FAILED', ['reason']]);
    expect((await t.api.post(`${PERIODS}/${CLOSED}/reopen`, { reason: '   ' })).status).toBe(400);
    const reopened = await reopen(admin.api, CLOSED, 'Late taxi receipt');
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ period: CLOSED, state: 'Open', exportsFrozenAt: null });
    expect(reopened.body.history.map((r: any) => [r.action, r.employeeId, r.keyIssuedByEmployeeId, r.reason])).toEqual([
      ['Closed', t.employeeId, null, 'March booked and reported'],
      ['Reopened', admin.employeeId, t.employeeId, 'Late taxi receipt'],
    ]);
    expect((await reopen(t.api, CLOSED)).body.code).toBe('INVALID_STATE');
    expect((await t.api.get(`${PERIODS}/${CLOSED}`)).body).toEqual(reopened.body);
    expect((await t.api.get(PERIODS)).body.items).toEqual([reopened.body]);
    expect((await t.api.get(`${PERIODS}/2026-02`)).body).toEqual({ period: '2026-02', state: 'Open', exportsFrozenAt: null, history: [] });
    expect((await t.api.post(`${ENTRIES}/${a}/expenses`, other('2026-03-11', 5))).status).toBe(201);
    expect((await t.api.delete(`${ENTRIES}/${a}/expenses/${taxi!.id}`)).status).toBe(204);
    expect((await approver.api.post(`${ENTRIES}/${submittedMarch}/request-changes`, {})).status).toBe(200);
  });

  it('closing and reopening need ManageCompanyData or ManagePayouts (else 403); anyone of the company reads the periods', async () => {
    const t = await stack.tenant('HR');
    const payouts = await limitedCaller(t.api, ['ManagePayouts']);
    const company = await limitedCaller(t.api, ['ManageCompanyData']);
    const neither = await limitedCaller(t.api, allBut('ManageCompanyData', 'ManagePayouts'));
    const refused = await close(neither.api, '2026-05');
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await close(payouts.api, '2026-05')).status).toBe(200);
    expect((await reopen(neither.api, '2026-05')).status).toBe(403);
    expect((await reopen(company.api, '2026-05')).status).toBe(200);
    expect((await close(company.api, '2026-05')).status).toBe(200);
    const read = await neither.api.get(`${PERIODS}/2026-05`);
    expect(read.status).toBe(200);
    expect(read.body.history.map((r: any) => [r.action, r.employeeId])).toEqual([
      ['Closed', payouts.employeeId],
      ['Reopened', company.employeeId],
      ['Closed', company.employeeId],
    ]);
    // Another company's periods are its own: this month is open there.
    const other = await stack.tenant('HR');
    expect((await other.api.get(`${PERIODS}/2026-05`)).body.state).toBe('Open');
    // A month that is not one, a reason too long.
    expect((await close(t.api, '2026-13')).status).toBe(400);
    expect((await close(t.api, '2026-06', 'x'.repeat(501))).status).toBe(400);
  });

  it('the payroll and journal exports of a closed month stay byte for byte the same after an undone payout and new account numbers; a reopen recomputes them', async () => {
    const t = await stack.tenant('HR');
    const accounts = {
      ...Object.fromEntries(
        ['perDiems', 'Mileage', 'Fuel', 'Toll', 'Parking', 'Accommodation', 'PublicTransport', 'Meals', 'Other'].map(
          (k) => [k, '4611'],
        ),
      ),
      advancesToEmployees: '1350',
      payablesToEmployees: '2380',
      bank: '1000',
    };
    expect((await t.api.put('/api/v1/journal-accounts', { accounts })).status).toBe(200);
    // Paid out now: the export's month is the payout's (Zagreb calendar). Advance 20.00, conference fee
    // 120.50: paid 120.50 − 20.00 = 100.50.
    const today = new Date().toISOString().slice(0, 10);
    const created = await t.api.post(ENTRIES, {
      departureDate: today,
      returnDate: today,
      advancePayment: 20,
      currencyCode: 'EUR',
      expenses: [other(today, 120.5)],
    });
    const id = created.body.id as string;
    expect((await t.api.post(`${ENTRIES}/${id}/submit`, {})).body.status).toBe(3);
    let batch: any;
    await eventually(async () => {
      batch = await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [id] });
      return batch.status === 201;
    }, 15_000);
    const month = zagrebMonth((await t.api.get(`${ENTRIES}/${id}`)).body.paidOutAt);
    const payrollPath = `/api/v1/payroll-exports?month=${month}&format=csv`;
    const [y, m] = month.split('-').map(Number);
    const last = new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10);
    const journalPath = `/api/v1/journal-exports?from=${month}-01&to=${last}&format=csv`;

    expect((await close(t.api, month, 'Payroll of the month sent')).status).toBe(200);
    const payroll = (await t.api.get(payrollPath)).text;
    expect(payroll).toBe(
      'month,employeeId,currencyCode,perDiemPaid,perDiemTaxFree,perDiemTaxable,mileagePaid,mileageTaxFree,' +
        'mileageTaxable,otherExpenses,advance,amountPaid,entryIds\r\n' +
        `${month},${t.employeeId},EUR,0.00,0.00,0.00,0.00,0.00,0.00,120.50,20.00,100.50,${id}\r\n`,
    );
    const journal = (await t.api.get(journalPath)).text;
    const lines = journal.trimEnd().split('\r\n').slice(1).map((l) => l.split(',').slice(2, 6));
    // account, accountKey, debit, credit: advance paid, the fee, the advance set off, the rest paid out.
    expect(lines).toEqual([
      ['1350', 'advancesToEmployees', '20.00', '0.00'],
      ['1000', 'bank', '0.00', '20.00'],
      ['4611', 'Other', '120.50', '0.00'],
      ['2380', 'payablesToEmployees', '0.00', '120.50'],
      ['2380', 'payablesToEmployees', '20.00', '0.00'],
      ['1350', 'advancesToEmployees', '0.00', '20.00'],
      ['2380', 'payablesToEmployees', '100.50', '0.00'],
      ['1000', 'bank', '0.00', '100.50'],
    ]);

    // The batch undone (the entry is no longer paid out) and the bank account renumbered: both would
    // change the month's exports; the closed month answers the same bytes.
    expect((await t.api.delete(`/api/v1/payouts/${batch.body.id}`)).status).toBe(204);
    await eventually(async () => (await t.api.get(`${ENTRIES}/${id}`)).body.isPaidOut === false, 15_000);
    expect((await t.api.put('/api/v1/journal-accounts', { accounts: { ...accounts, bank: '1001' } })).status).toBe(200);
    expect((await t.api.get(payrollPath)).text).toBe(payroll);
    expect((await t.api.get(journalPath)).text).toBe(journal);

    // Reopened: the exports are read from the entries as they are (nothing paid out in the month now).
    expect((await reopen(t.api, month, 'The batch was undone')).status).toBe(200);
    expect((await t.api.get(payrollPath)).text.trimEnd().split('\r\n')).toHaveLength(1);
    expect((await t.api.get(journalPath)).text.trimEnd().split('\r\n')).toHaveLength(1);
  });

  it('closing and reopening a month record nothing in an entry’s audit log: no entry.updated (a later marker proves it)', async () => {
    const t = await stack.tenant('HR');
    // The entries' events as published on the bus (the webhooks' source), for this company only.
    const ch = await stack.entries.deps.amqp.channel();
    const queue = `accounting-periods-tap-${t.tenantId}`;
    await ch.assertQueue(queue, { durable: false, autoDelete: false });
    await ch.bindQueue(queue, DOMAIN_EXCHANGE, 'entries.entry.updated');
    const seen: [string, string][] = [];
    const drain = async () => {
      for (let m = await ch.get(queue, { noAck: true }); m; m = await ch.get(queue, { noAck: true })) {
        const body = JSON.parse(m.content.toString('utf8'));
        if (body.tenantId === t.tenantId) seen.push([body.type, body.data.id]);
      }
    };
    try {
      const id = (await t.api.post(ENTRIES, { departureDate: '2026-07-01', returnDate: '2026-07-02', expenses: [other('2026-07-01', 9)] })).body.id;
      expect((await close(t.api, '2026-07')).status).toBe(200);
      expect((await reopen(t.api, '2026-07')).status).toBe(200);
      // The marker: an entry.updated raised after the close and the reopen.
      const marker = (await t.api.post(ENTRIES, { departureDate: '2026-08-01', returnDate: '2026-08-01' })).body.id;
      expect((await t.api.post(`${ENTRIES}/${marker}/expenses`, other('2026-08-01', 4))).status).toBe(201);
      await eventually(async () => {
        await drain();
        return seen.some(([, entry]) => entry === marker);
      }, 20_000);
      expect(seen.filter(([, entry]) => entry === id)).toEqual([]);
      expect((await t.api.get(`${ENTRIES}/${id}`)).body.auditLog).toEqual([]);
    } finally {
      await ch.deleteQueue(queue);
      await ch.close();
    }
  });
});
