// The walking skeleton's proof: a partner registers an HTTPS endpoint, an employee is created through
// the gateway, and the signed POST that arrives is verified exactly as a partner would verify it.
import { createHmac } from 'node:crypto';
import { verify } from '@travel/webhook-verify';
import { EMPLOYEE_WEBHOOK_DTO_KEYS, eventually } from '@travel/testkit';
import { startE2eStack, type E2eStack } from './support/stack';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('signed webhook, end to end through the gateway', () => {
  let stack: E2eStack;
  beforeAll(async () => {
    stack = await startE2eStack('proof');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('delivers employee.created to a registered HTTPS receiver, signed, PII-free, and logs it', async () => {
    const { api } = await stack.tenant('HR');
    const receiver = await stack.receiver();

    const registered = await api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['employee.created', 'employee.updated'],
    });
    expect(registered.status).toBe(201);
    const secret: string = registered.body.signingSecret;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(registered.body).toMatchObject({
      url: receiver.url,
      IsActive: true,
      DisabledAt: null,
      DisabledReason: null,
    });

    const read = await api.get(`/api/v1/webhooks/${registered.body.id}`);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain('signingSecret');
    expect(read.text).not.toContain(secret);

    const startedAt = Date.now();
    const pii = {
      email: 'ana.horvat@example.hr',
      phone: '+385 91 555 0101',
      address: 'Ilica 1, Zagreb',
      taxId: '94577403194',
      bankAccount: 'HR1210010051863000160',
      bic: 'ZABAHR2X',
    };
    const created = await api.post('/api/v1/employees', {
      firstName: 'Ana',
      lastName: 'Horvat',
      position: 'Engineer',
      ...pii,
    });
    expect(created.status).toBe(201);

    const [request] = await receiver.waitForRequests(1);
    const raw = request!.body;
    const h = request!.headers;

    // All six headers, exactly as the spec lists them.
    expect(request!.method).toBe('POST');
    expect(h['content-type']).toBe('application/json; charset=utf-8');
    expect(h['user-agent']).toBe('Svc-Webhook/1.0');
    expect(h['svc-event']).toBe('employee.created');
    expect(h['svc-event-id']).toMatch(GUID);
    expect(h['svc-delivery-id']).toEqual(expect.any(String));
    const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(h['svc-signature']));
    expect(sig).not.toBeNull();

    // The HMAC, recomputed independently over "t." + the raw bytes, keyed with the secret.
    const [, t, v1] = sig!;
    const expected = createHmac('sha256', secret).update(`${t}.`).update(raw).digest('hex');
    expect(v1).toBe(expected);
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);

    // And with the receiver SDK, as a partner would.
    const verified = verify(raw, h as Record<string, string>, secret);
    expect(verified.eventId).toBe(h['svc-event-id']);

    const envelope = JSON.parse(raw.toString('utf8'));
    expect(Object.keys(envelope)).toEqual(['id', 'type', 'createdAt', 'data']);
    expect(envelope.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(envelope.id).toBe(`evt_${String(h['svc-event-id']).replace(/-/g, '')}`);
    expect(envelope.type).toBe('employee.created');
    const createdAt = Date.parse(envelope.createdAt);
    expect(new Date(createdAt).toISOString()).toBe(envelope.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(createdAt).toBeLessThanOrEqual(request!.at);

    // PII-free: exactly the DTO's keys, and no personal value anywhere in the bytes.
    expect(Object.keys(envelope.data).sort()).toEqual(EMPLOYEE_WEBHOOK_DTO_KEYS);
    expect(envelope.data).toMatchObject({
      id: created.body.id,
      firstName: 'Ana',
      lastName: 'Horvat',
      position: 'Engineer',
      status: 'Active',
      isAccountOwner: false,
      isArchived: false,
    });
    for (const value of Object.values(pii)) expect(raw.toString('utf8')).not.toContain(value);

    // The delivery log holds the exact signed bytes. A first attempt sent from the fan-out is logged
    // once it has ended, a few milliseconds after the receiver answered (docs/decisions/0095).
    const deliveries = await eventually(async () => {
      const page = await api.get(`/api/v1/webhooks/${registered.body.id}/deliveries`);
      return page.status !== 200 || page.body.total > 0 ? page : undefined;
    });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body).toMatchObject({ page: 1, pageSize: 20, total: 1, totalPages: 1 });
    const [row] = deliveries.body.items;
    expect(row).toMatchObject({
      deliveryId: h['svc-delivery-id'],
      eventId: h['svc-event-id'],
      eventType: 'employee.created',
    });
    const detail = await api.get(`/api/v1/webhooks/${registered.body.id}/deliveries/${row.deliveryId}`);
    expect(detail.body.payload).toBe(raw.toString('utf8'));
    expect(detail.body.status).toBe('Succeeded');
    expect(receiver.requests).toHaveLength(1);
  });

  it("keeps tenants apart: another tenant's subscription gets nothing and cannot read this one", async () => {
    const a = await stack.tenant('SK');
    const b = await stack.tenant('PL');
    const receiverA = await stack.receiver();
    const receiverB = await stack.receiver();
    const subA = await a.api.post('/api/v1/webhooks', { url: receiverA.url, eventTypes: ['employee.created'] });
    await b.api.post('/api/v1/webhooks', { url: receiverB.url, eventTypes: ['employee.created'] });

    expect((await b.api.get(`/api/v1/webhooks/${subA.body.id}`)).status).toBe(404);
    expect((await b.api.get(`/api/v1/webhooks/${subA.body.id}/deliveries`)).status).toBe(404);

    await a.api.post('/api/v1/employees', { firstName: 'Only', lastName: 'A' });
    const [got] = await receiverA.waitForRequests(1);
    expect(JSON.parse(got!.body.toString()).data.lastName).toBe('A');
    // B's receiver saw nothing of A's event (A's delivery already arrived, so B's would have too).
    await new Promise((r) => setTimeout(r, 300));
    expect(receiverB.requests).toHaveLength(0);
  });
});
