// The approval workflow and trip requests through the gateway, observed at a real HTTPS receiver
// subscribed to all four entry.* types: for each row of the SPEC's entry state table and each line of the
// event catalog, the exact events an entry raises and their summary fields (status, phase, isRequest,
// entryNumber, isLocked). Status integers: API-SURFACE.md, Values (0 Draft, 1 Submitted, 2
// ChangesRequested, 3 Approved, 4 Rejected, 5 Cancelled); phase 1 PreApproval, 0 Standard, null outside.
import { verify } from '@travel/webhook-verify';
import { eventually, type ApiClient, type HttpsReceiver } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const ENTRY_EVENTS = ['entry.created', 'entry.updated', 'entry.approved', 'entry.paidout'];
const YEAR = new Date().getUTCFullYear();
const number = (seq: number) => `${YEAR}-${String(seq).padStart(5, '0')}`;

interface Seen {
  type: string;
  status: number;
  phase: number | null;
  isRequest: boolean;
  entryNumber: string;
  isLocked: boolean;
}

/** The summary fields a scenario asserts, in the order the events were raised. */
const seen = (
  type: string,
  status: number,
  phase: number | null,
  isRequest: boolean,
  entryNumber: string,
  isLocked: boolean,
): Seen => ({
  type,
  status,
  phase,
  isRequest,
  entryNumber,
  isLocked,
});

describe('entries: approval workflow and trip requests', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-workflow');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A tenant with a receiver subscribed to every entry.* type. */
  async function company() {
    const t = await stack.tenant('CZ');
    const receiver = await stack.receiver();
    const sub = await t.api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ENTRY_EVENTS });
    expect(sub.status).toBe(201);
    return { ...t, receiver, secret: sub.body.signingSecret as string };
  }

  /**
   * Every event the receiver got for `entryId`, verified and in the order raised, once `count` of them and
   * a marker raised after them have arrived (so an extra event would be seen too).
   */
  async function eventsOf(
    c: { api: ApiClient; receiver: HttpsReceiver; secret: string },
    entryId: string,
    count: number,
  ): Promise<Seen[]> {
    const marker = await c.api.post('/api/v1/travel-entries', {
      departureDate: '2026-12-01',
      returnDate: '2026-12-01',
    });
    expect(marker.status).toBe(201);
    const parsed = () =>
      c.receiver.requests.map((r) => {
        verify(r.body, r.headers as Record<string, string>, c.secret);
        const envelope = JSON.parse(r.body.toString('utf8'));
        expect(r.headers['svc-event']).toBe(envelope.type);
        return envelope;
      });
    await eventually(async () => {
      const all = parsed();
      return all.some((e) => e.data.id === marker.body.id) && all.filter((e) => e.data.id === entryId).length >= count;
    }, 20_000).catch((err) => {
      throw new Error(
        `${err}: got ${JSON.stringify(parsed().map((e) => [e.type, e.data.id]))}, entry ${entryId}, marker ${marker.body.id}`,
      );
    });
    return parsed()
      .filter((e) => e.data.id === entryId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.data.editedAt.localeCompare(b.data.editedAt))
      .map((e) => seen(e.type, e.data.status, e.data.phase, e.data.isRequest, e.data.entryNumber, e.data.isLocked));
  }

  const order = { departureDate: '2026-11-02', returnDate: '2026-11-04', advancePayment: 1000 };
  const request = { ...order, isRequest: true };

  describe('a company without a workflow', () => {
    it('submit approves automatically: entry.updated only (Approved, locked), never entry.approved', async () => {
      const c = await company();
      expect((await c.api.get('/api/v1/approval-workflow')).body).toEqual({
        settlementSteps: [],
        tripApprovalSteps: [],
        editedAt: null,
      });
      const created = await c.api.post('/api/v1/travel-entries', order);
      expect(created.status).toBe(201);
      const id = created.body.id;
      const n = created.body.entryNumber;
      expect(n).toBe(number(1));

      const submitted = await c.api.post(`/api/v1/travel-entries/${id}/submit`, { comment: 'Trip done' });
      expect(submitted.status).toBe(200);
      expect(submitted.body).toMatchObject({ status: 3, phase: null, isRequest: false, locked: true, entryNumber: n });
      expect(submitted.body.approvedAt).toEqual(expect.any(String));
      expect(submitted.body.auditLog).toEqual([
        {
          action: 'Submitted',
          employeeId: c.employeeId,
          at: expect.any(String),
          comment: 'Trip done',
          status: 1,
          phase: null,
          step: null,
        },
        {
          action: 'AutoApproved',
          employeeId: c.employeeId,
          at: expect.any(String),
          comment: 'Trip done',
          status: 3,
          phase: null,
          step: null,
        },
      ]);
      // Approved is closed to writes and to the workflow.
      expect((await c.api.put(`/api/v1/travel-entries/${id}`, submitted.body)).status).toBe(409);
      const again = await c.api.post(`/api/v1/travel-entries/${id}/submit`);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('INVALID_STATE');
      expect((await c.api.post(`/api/v1/travel-entries/${id}/cancel`)).status).toBe(409);

      expect(await eventsOf(c, id, 2)).toEqual([
        seen('entry.created', 0, null, false, n, false),
        seen('entry.updated', 3, null, false, n, true),
      ]);
    });

    it('a submitted trip request is authorized at once: numbered, isRequest false, open for settlement, entry.updated only', async () => {
      const c = await company();
      const created = await c.api.post('/api/v1/travel-entries', request);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ entryNumber: '', isRequest: true, phase: 1, status: 0, locked: false });
      const id = created.body.id;
      const submitted = await c.api.post(`/api/v1/travel-entries/${id}/submit`);
      expect(submitted.status).toBe(200);
      expect(submitted.body).toMatchObject({
        status: 0,
        phase: 0,
        isRequest: false,
        locked: false,
        entryNumber: number(1),
      });
      expect(submitted.body.auditLog.map((r: any) => r.action)).toEqual(['Submitted', 'Authorized']);
      // Settled without a settlement workflow: approved automatically.
      const settled = await c.api.post(`/api/v1/travel-entries/${id}/submit`);
      expect(settled.body).toMatchObject({ status: 3, phase: 0, locked: true, entryNumber: number(1) });

      expect(await eventsOf(c, id, 3)).toEqual([
        seen('entry.created', 0, 1, true, '', false),
        seen('entry.updated', 0, 0, false, number(1), false),
        seen('entry.updated', 3, 0, false, number(1), true),
      ]);
    });
  });
});
