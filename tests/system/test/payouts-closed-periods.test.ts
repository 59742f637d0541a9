// Payouts and closed accounting periods through the gateway (issue 39 §3, docs/decisions/0211): a batch
// paid out in a closed month cannot be undone (409 PERIOD_CLOSED naming it; the entry stays paid out, the
// frozen payroll CSV is the same bytes, no entry.updated), and after a reopen it can; a batch made while
// today's month is closed is 409 and reserves nothing (after the reopen a batch takes the same entry).
import { DOMAIN_EXCHANGE } from '@travel/platform';
import { eventually, type ApiClient } from '@travel/testkit';
import { startPayoutsStack, type PayoutsStack } from './support/payouts-stack';

const ENTRIES = '/api/v1/travel-entries';
const PERIODS = '/api/v1/accounting-periods';
const PAYOUTS = '/api/v1/payouts';

/** The month of an instant in Zagreb's calendar (the HR market's, as the exports date a payout). */
const zagrebMonth = (at: Date | string): string =>
  new Date(at).toLocaleString('sv-SE', { timeZone: 'Europe/Zagreb' }).slice(0, 7);

/** The month after `YYYY-MM`. */
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** A 409 PERIOD_CLOSED naming one period (one of `periods`) in `errors.period` and in its detail. */
function expectClosed(res: { status: number; body: any }, periods: string[]): string {
  expect([res.status, res.body?.code]).toEqual([409, 'PERIOD_CLOSED']);
  const named = res.body.errors?.period as string[];
  expect(named).toHaveLength(1);
  expect(periods).toContain(named[0]);
  expect(res.body.detail).toContain(`accounting period ${named[0]} is closed`);
  return named[0]!;
}

describe('payouts in closed accounting periods', () => {
  let stack: PayoutsStack;

  beforeAll(async () => {
    stack = await startPayoutsStack('payouts-closed-periods');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const close = (api: ApiClient, period: string) => api.post(`${PERIODS}/${period}/close`, { reason: 'Payroll sent' });
  const reopen = (api: ApiClient, period: string) => api.post(`${PERIODS}/${period}/reopen`, { reason: 'Correction' });

  /** An approved HR entry (EUR) with an advance of 20.00 and a conference fee of 120.50: 100.50 due. */
  async function approvedEntry(api: ApiClient): Promise<string> {
    const today = new Date().toISOString().slice(0, 10);
    const created = await api.post(ENTRIES, {
      departureDate: today,
      returnDate: today,
      advancePayment: 20,
      currencyCode: 'EUR',
      expenses: [{ kind: 'Other', date: today, amount: 120.5, currencyCode: 'EUR', description: 'Conference fee' }],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await api.post(`${ENTRIES}/${id}/submit`, {})).body.status).toBe(3);
    return id;
  }

  async function payOut(api: ApiClient, id: string) {
    let batch: any;
    await eventually(async () => {
      batch = await api.post(PAYOUTS, { payoutMethod: 'Cash', entryIds: [id] });
      return batch.status === 201;
    }, 15_000);
    return batch.body;
  }

  it('refuses to undo a batch paid out in a closed month (entry still paid out, frozen payroll unchanged, no entry.updated); after a reopen the undo works', async () => {
    const t = await stack.tenant('HR');
    // The entries' events on the bus (the webhooks' source), for this company only.
    const ch = await stack.entries.deps.amqp.channel();
    const queue = `payouts-closed-periods-tap-${t.tenantId}`;
    await ch.assertQueue(queue, { durable: false, autoDelete: false });
    await ch.bindQueue(queue, DOMAIN_EXCHANGE, 'entries.entry.updated');
    const seen: { id: string; isPaidOut: boolean; editedAt: string }[] = [];
    const drain = async () => {
      for (let m = await ch.get(queue, { noAck: true }); m; m = await ch.get(queue, { noAck: true })) {
        const body = JSON.parse(m.content.toString('utf8'));
        if (body.tenantId === t.tenantId) seen.push(body.data);
      }
    };
    try {
      const id = await approvedEntry(t.api);
      const batch = await payOut(t.api, id);
      const paid = (await t.api.get(`${ENTRIES}/${id}`)).body;
      expect(paid.isPaidOut).toBe(true);
      // The month the exports count the payout in: its day in Zagreb.
      const month = zagrebMonth(paid.paidOutAt);
      const payrollPath = `/api/v1/payroll-exports?month=${month}&format=csv`;
      expect((await close(t.api, month)).status).toBe(200);
      const payroll = (await t.api.get(payrollPath)).text;
      // 120.50 fee − 20.00 advance = 100.50 paid.
      expect(payroll).toBe(
        'month,employeeId,currencyCode,perDiemPaid,perDiemTaxFree,perDiemTaxable,mileagePaid,mileageTaxFree,' +
          'mileageTaxable,otherExpenses,advance,amountPaid,entryIds\r\n' +
          `${month},${t.employeeId},EUR,0.00,0.00,0.00,0.00,0.00,0.00,120.50,20.00,100.50,${id}\r\n`,
      );

      expectClosed(await t.api.delete(`${PAYOUTS}/${batch.id}`), [month]);
      // Nothing changed: the entry is paid out as before, the batch is in the history, the CSV the same bytes.
      const after = (await t.api.get(`${ENTRIES}/${id}`)).body;
      expect([after.isPaidOut, after.paidOutAt, after.editedAt]).toEqual([true, paid.paidOutAt, paid.editedAt]);
      expect((await t.api.get(`${PAYOUTS}/${batch.id}`)).status).toBe(200);
      expect((await t.api.get(payrollPath)).text).toBe(payroll);
      // No entry.updated after the payout for the refused undo: a later entry.updated (the marker) has arrived.
      const marker = (await t.api.post(ENTRIES, { departureDate: '2026-08-01', returnDate: '2026-08-01' })).body.id;
      const fee = { kind: 'Other', date: '2026-08-01', amount: 4, currencyCode: 'EUR', description: 'Parking' };
      expect((await t.api.post(`${ENTRIES}/${marker}/expenses`, fee)).status).toBe(201);
      await eventually(async () => {
        await drain();
        return seen.some((e) => e.id === marker);
      }, 20_000);
      const undone = () => seen.filter((e) => e.id === id && e.editedAt > paid.paidOutAt);
      expect(undone()).toEqual([]);

      // Reopened: the undo goes through, the entry is ready again (entry.updated), the month recomputed.
      expect((await reopen(t.api, month)).status).toBe(200);
      expect((await t.api.delete(`${PAYOUTS}/${batch.id}`)).status).toBe(204);
      expect((await t.api.get(`${ENTRIES}/${id}`)).body.isPaidOut).toBe(false);
      expect((await t.api.get(payrollPath)).text.trimEnd().split('\r\n')).toHaveLength(1);
      await eventually(async () => {
        await drain();
        return undone().length > 0;
      }, 20_000);
      expect(undone().map((e) => e.isPaidOut)).toEqual([false]);
    } finally {
      await ch.deleteQueue(queue);
      await ch.close();
    }
  });

  it('refuses a batch while today’s month is closed (409 naming it) and reserves nothing: after the reopen a batch takes the same entry', async () => {
    const t = await stack.tenant('HR');
    const id = await approvedEntry(t.api);
    // Today's month in Zagreb and the next one: a request that crosses midnight at the month's end still
    // lands in a closed month.
    const month = zagrebMonth(new Date());
    const months = [month, nextMonth(month)];
    for (const m of months) expect((await close(t.api, m)).status).toBe(200);

    const refused = await t.api.post(PAYOUTS, { payoutMethod: 'Cash', entryIds: [id] });
    expectClosed(refused, months);
    expect((await t.api.get(PAYOUTS)).body.items).toEqual([]);
    const entry = (await t.api.get(`${ENTRIES}/${id}`)).body;
    expect([entry.isPaidOut, entry.paidOutAt]).toEqual([false, null]);

    for (const m of months) expect((await reopen(t.api, m)).status).toBe(200);
    // A reservation would hold the entry for 10 minutes ("is already in another payout batch"): none was made.
    const batch = await payOut(t.api, id);
    expect(batch.entries.map((e: { entryId: string; amountDue: number }) => [e.entryId, e.amountDue])).toEqual([[id, 100.5]]);
    expect(batch.totalToEmployees).toBe(100.5);
  });
});
