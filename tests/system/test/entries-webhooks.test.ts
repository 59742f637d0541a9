// entry.created and entry.updated as a partner's HTTPS receiver gets them: raised through the outbox,
// signed, with EXACTLY the TravelEntryWebhookDto keys (SPEC: TravelEntryWebhookDto, plus the paid-out
// state of API-SURFACE.md) and never nested detail, destination or free text. A PUT that changes nothing,
// a refused create and a refused update raise nothing.
import { verify } from '@travel/webhook-verify';
import { eventually, type HttpsReceiver } from '@travel/testkit';
import { costCenter } from '@travel/employees/test/support/org-fixtures';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

/** SPEC.md "TravelEntryWebhookDto (fields carried)", with the paid-out state named in API-SURFACE.md. */
const ENTRY_WEBHOOK_DTO_KEYS = [
  'advancePayment',
  'advancePaymentInBaseCurrency',
  'createdAt',
  'currencyCode',
  'departureDate',
  'editedAt',
  'employeeId',
  'entryNumber',
  'id',
  'isLocked',
  'isPaidOut',
  'isRequest',
  'paidOutAt',
  'phase',
  'returnDate',
  'sequence', // issue 40 §3: the entry's revision at the change (docs/decisions/0228)
  'status',
];

describe('entries: webhooks', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-hooks');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const events = (receiver: HttpsReceiver, secret: string) =>
    receiver.requests.map((r) => {
      verify(r.body, r.headers as Record<string, string>, secret);
      return {
        header: r.headers['svc-event'],
        raw: r.body.toString('utf8'),
        envelope: JSON.parse(r.body.toString('utf8')),
      };
    });

  it('create and a changing update raise entry.created / entry.updated with exactly the summary; no-op and refused writes raise nothing', async () => {
    const { api, employeeId } = await stack.tenant('CZ');
    const receiver = await stack.receiver();
    const sub = await api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['entry.created', 'entry.updated'],
    });
    expect(sub.status).toBe(201);
    const cc = await costCenter(api);

    const free = {
      destination: 'FREE-DESTINATION-Vienna',
      purpose: 'FREE-PURPOSE',
      description: 'FREE-DESCRIPTION',
      report: 'FREE-REPORT',
      destinationPlaceId: 'PLACE-ID-1',
    };
    // Refused create (a bad allocation): nothing stored, nothing raised.
    const refused = await api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-02',
      returnDate: '2026-11-04',
      costCenterAllocations: [{ costCenterId: cc, percentage: 90 }],
    });
    expect(refused.status).toBe(400);

    const created = await api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-02',
      returnDate: '2026-11-04',
      advancePayment: 2500,
      costCenterAllocations: [{ costCenterId: cc, percentage: 100 }],
      ...free,
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    // Unchanged PUT: nothing. Refused PUT: nothing.
    expect((await api.put(`/api/v1/travel-entries/${id}`, created.body)).status).toBe(200);
    expect((await api.put(`/api/v1/travel-entries/${id}`, { ...created.body, returnDate: '2026-11-01' })).status).toBe(
      400,
    );
    const updated = await api.put(`/api/v1/travel-entries/${id}`, { ...created.body, returnDate: '2026-11-05' });
    expect(updated.status).toBe(200);
    // A marker after everything else: when it has arrived, every earlier event would have too.
    const marker = await api.post('/api/v1/travel-entries', { departureDate: '2026-12-01', returnDate: '2026-12-01' });

    await receiver.waitForRequests(3);
    await eventually(async () => receiver.requests.some((r) => r.body.toString('utf8').includes(marker.body.id)));
    const got = events(receiver, sub.body.signingSecret);
    // Deliveries run concurrently: compare as a set (exactly these three, nothing else).
    const seen = got.map((e) => `${e.envelope.type} ${e.envelope.data.id}`).sort();
    expect(seen).toEqual([`entry.created ${id}`, `entry.created ${marker.body.id}`, `entry.updated ${id}`].sort());
    const createdEvent = got.find((e) => e.envelope.type === 'entry.created' && e.envelope.data.id === id)!;
    const updatedEvent = got.find((e) => e.envelope.type === 'entry.updated')!;
    for (const e of got) {
      expect(e.header).toBe(e.envelope.type);
      expect(Object.keys(e.envelope)).toEqual(['id', 'type', 'createdAt', 'data']);
      expect(Object.keys(e.envelope.data).sort()).toEqual(ENTRY_WEBHOOK_DTO_KEYS);
      for (const value of [...Object.values(free), cc]) expect(e.raw).not.toContain(value);
      for (const key of ['destination', 'costCenterAllocations', 'expenses', 'description', 'tenantId'])
        expect(e.raw).not.toContain(`"${key}"`);
    }
    expect(createdEvent.envelope.data).toEqual({
      id,
      entryNumber: created.body.entryNumber,
      employeeId,
      departureDate: '2026-11-02',
      returnDate: '2026-11-04',
      status: 0,
      phase: null,
      isRequest: false,
      isLocked: false,
      isPaidOut: false,
      paidOutAt: null,
      advancePayment: 2500,
      currencyCode: 'CZK',
      advancePaymentInBaseCurrency: 2500,
      createdAt: created.body.createdAt,
      editedAt: created.body.createdAt,
      sequence: 0, // stored at revision 0
    });
    // The no-op and the refused PUT stored nothing: the update is the entry's first write after the create.
    expect(updatedEvent.envelope.data).toMatchObject({
      id,
      returnDate: '2026-11-05',
      editedAt: updated.body.editedAt,
      sequence: 1,
    });
  });
});
