// Issue 40 §3 through the gateway at a real HTTPS receiver: every entry.* envelope carries the entry's
// `data.sequence` (docs/decisions/0228), its revision at the change. Rule: an entry is stored at revision 0
// and every write of it adds one, so created 0, then 1, 2, … per write; a payout reserves the entry first (a
// write partners do not see), so entry.paidout comes after a gap. A manual retry sends the stored bytes, so
// the same sequence; employee.* envelopes are unchanged.
import { verify } from '@travel/webhook-verify';
import { eventually } from '@travel/testkit';
import { limitedCaller } from '@travel/employees/test/support/org-fixtures';
import { startPayoutsStack, type PayoutsStack } from './support/payouts-stack';
import { untilReady } from './support/ready-entries';

interface Envelope {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, any>;
}

describe('entries: the sequence of an entry’s changes in entry.* webhooks', () => {
  let stack: PayoutsStack;

  beforeAll(async () => {
    stack = await startPayoutsStack('entry-sequence');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('created, edited twice, submitted, approved and paid out: sequences 0–4 in the order of the changes, then higher; a manual retry carries the same; employee.* has none', async () => {
    const t = await stack.tenant('CZ');
    const receiver = await stack.receiver();
    // The first entry.approved delivery is refused (422: Failed, no retry) to retry it by hand later.
    let refusedApproval = false;
    receiver.replyWith((req) => {
      const e = JSON.parse(req.body.toString('utf8')) as Envelope;
      if (e.type !== 'entry.approved' || refusedApproval) return undefined;
      refusedApproval = true;
      return { status: 422 };
    });
    const sub = await t.api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['entry.created', 'entry.updated', 'entry.approved', 'entry.paidout', 'employee.created'],
    });
    expect(sub.status).toBe(201);
    const secret: string = sub.body.signingSecret;
    const received = () =>
      receiver.requests.map((r) => {
        verify(r.body, r.headers as Record<string, string>, secret);
        return { bytes: r.body.toString('utf8'), envelope: JSON.parse(r.body.toString('utf8')) as Envelope };
      });

    // One settlement step; the approver (an employee.created) decides, on a key an administrator issued
    // (nobody decides through a key issued by the entry's owner: docs/decisions/0194).
    const admin = await limitedCaller(t.api, ['ManageCompanyData', 'ManageEmployees']);
    const approver = await limitedCaller(admin.api, []);
    const workflow = await t.api.put('/api/v1/approval-workflow', {
      settlementSteps: [{ approverIds: [approver.employeeId] }],
      tripApprovalSteps: [],
    });
    expect(workflow.status).toBe(200);

    const created = await t.api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-16',
      returnDate: '2026-11-18',
      currencyCode: 'CZK',
      expenses: [{ kind: 'Other', date: '2026-11-17', amount: 500, currencyCode: 'CZK', description: 'Taxi' }],
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const edit1 = await t.api.put(`/api/v1/travel-entries/${id}`, { ...created.body, advancePayment: 10 });
    expect(edit1.status).toBe(200);
    const edit2 = await t.api.put(`/api/v1/travel-entries/${id}`, { ...edit1.body, advancePayment: 20 });
    expect(edit2.status).toBe(200);
    expect((await t.api.post(`/api/v1/travel-entries/${id}/submit`, {})).body.status).toBe(1);
    expect((await approver.api.post(`/api/v1/travel-entries/${id}/approve`, {})).body.status).toBe(3);
    await untilReady(t.client, [id]);
    expect((await t.api.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [id] })).status).toBe(201);

    // The refused entry.approved, retried by hand.
    const failed = await eventually(async () => {
      const items = (await t.api.get(`/api/v1/webhooks/${sub.body.id}/deliveries`)).body.items as any[];
      return items.find((d) => d.eventType === 'entry.approved' && d.status === 'Failed');
    }, 20_000);
    const retry = await t.api.post(`/api/v1/webhooks/${sub.body.id}/deliveries/${failed.deliveryId}/retry`);
    expect(retry.status).toBe(202);

    // A marker entry created last: once it and the retry arrived, every earlier delivery has too.
    const marker = await t.api.post('/api/v1/travel-entries', {
      departureDate: '2026-12-01',
      returnDate: '2026-12-01',
    });
    expect(marker.status).toBe(201);
    await eventually(async () => {
      const all = received().map((r) => r.envelope);
      return (
        all.some((e) => e.data.id === marker.body.id) &&
        all.filter((e) => e.type === 'entry.approved').length === 2 &&
        all.some((e) => e.type === 'entry.paidout') &&
        all.some((e) => e.type === 'employee.created')
      );
    }, 20_000);

    const all = received();
    const ofEntry = all.filter((r) => r.envelope.type.startsWith('entry.') && r.envelope.data.id === id);
    // Each change once (by envelope id), the approval twice: the refused attempt and the manual retry.
    const byId = new Map(ofEntry.map((r) => [r.envelope.id, r.envelope]));
    const change = (type: string, match: (d: Record<string, any>) => boolean) => {
      const found = [...byId.values()].filter((e) => e.type === type && match(e.data));
      expect([type, found.length]).toEqual([type, 1]);
      return found[0]!.data.sequence as number;
    };
    const sequences = [
      change('entry.created', () => true),
      change('entry.updated', (d) => d.advancePayment === 10),
      change('entry.updated', (d) => d.advancePayment === 20 && d.status === 0),
      change('entry.updated', (d) => d.status === 1),
      change('entry.approved', (d) => d.status === 3),
    ];
    expect(byId.size).toBe(6);
    expect(sequences).toEqual([0, 1, 2, 3, 4]);
    const paidOut = change('entry.paidout', (d) => d.isPaidOut === true);
    expect(paidOut).toBeGreaterThan(4);
    for (const e of byId.values()) expect(Number.isInteger(e.data.sequence)).toBe(true);

    // The manual retry sends the stored bytes: the same sequence.
    const approvals = ofEntry.filter((r) => r.envelope.type === 'entry.approved');
    expect(approvals).toHaveLength(2);
    expect(approvals[1]!.bytes).toBe(approvals[0]!.bytes);
    expect(approvals.map((r) => r.envelope.data.sequence)).toEqual([4, 4]);

    // employee.* envelopes: the spec's four keys, and no sequence in data.
    const hired = all.find((r) => r.envelope.type === 'employee.created')!.envelope;
    expect(Object.keys(hired)).toEqual(['id', 'type', 'createdAt', 'data']);
    expect(hired.data).not.toHaveProperty('sequence');
    // entry.* envelopes keep the same four keys: the sequence is in data (0228).
    expect(Object.keys(byId.values().next().value!)).toEqual(['id', 'type', 'createdAt', 'data']);
  });
});
