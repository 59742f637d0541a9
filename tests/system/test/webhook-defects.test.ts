// Smaller webhook defects of issue 9 (item 5), through the gateway: an Exhausted delivery shows its
// last attempt's answer (none, after a network error), not an older one; writes without
// ManageCompanyData are 403 and a retry that cannot be queued is 503, both as the contract declares
// (the dispatcher runs with VALIDATE_RESPONSES, which checks error bodies too: an undeclared status
// would be a 500 here).
import { openApiDocument } from '@travel/contracts';
import { allBut, limitedCaller } from '@travel/employees/test/support/org-fixtures';
import { eventually, type ApiClient, type ApiResponse } from '@travel/testkit';
import { ATTEMPT_EXCHANGE, ATTEMPT_KEY, ATTEMPT_QUEUE } from '@travel/webhook-dispatcher/src/infra/queues';
import { startE2eStack, type E2eStack } from './support/stack';

const PROBLEM_KEYS = ['code', 'detail', 'status', 'title', 'traceId', 'type'];

describe('webhooks: last answer, 403 and 503', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    // A second between attempts 1 and 2 lets the test take the receiver down after attempt 1.
    stack = await startE2eStack('hook-defects', {
      WEBHOOK_RETRY_SCHEDULE: '1s,50ms,50ms,50ms,50ms,50ms,50ms,50ms',
      RATE_LIMIT_BURST: '5000',
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const hire = (api: ApiClient, lastName: string) =>
    api.post('/api/v1/employees', { firstName: 'Hook', lastName }).then((r) => {
      expect(r.status).toBe(201);
      return r.body.id as string;
    });

  it("an Exhausted delivery whose last attempt was a network error shows that attempt's (empty) answer", async () => {
    const { api } = await stack.tenant('PL');
    const receiver = (await stack.receiver()).replyAlways({ status: 503, body: '{"maintenance":true}' });
    const sub = await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] });
    await hire(api, 'Unlucky');
    const logOf = async () => (await api.get(`/api/v1/webhooks/${sub.body.id}/deliveries`)).body.items;
    const [first] = await eventually(async () => {
      const items = await logOf();
      return items[0]?.attempts >= 1 ? items : undefined;
    });
    expect(first.lastStatusCode).toBe(503);
    // The endpoint goes away: attempts 2 to 9 are refused connections.
    await receiver.stop();
    const done = await eventually(async () => {
      const d = (await api.get(`/api/v1/webhooks/${sub.body.id}/deliveries/${first.deliveryId}`)).body;
      return d.status === 'Exhausted' ? d : undefined;
    }, 20_000);
    expect(done.attemptLog[0]).toMatchObject({ attempt: 1, statusCode: 503 });
    expect(done.attemptLog[8]).toMatchObject({ attempt: 9, outcome: 'exhausted', statusCode: null });
    expect(done.attemptLog[8].error).toMatch(/ECONNREFUSED/);
    expect(done.lastStatusCode).toBeNull();
    expect(done.responseBody).toBeNull();
    const [row] = await logOf();
    expect(row).toMatchObject({ status: 'Exhausted', lastStatusCode: null });
  });

  it('every webhook write needs ManageCompanyData: 403 FORBIDDEN, reads do not', async () => {
    const { api: owner } = await stack.tenant('HR');
    const receiver = (await stack.receiver()).replyAlways({ status: 410 });
    const sub = await owner.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] });
    const { api: limited } = await limitedCaller(owner, allBut('ManageCompanyData'));
    const [d] = await eventually(async () => {
      const items = (await owner.get(`/api/v1/webhooks/${sub.body.id}/deliveries`)).body.items;
      return items[0]?.status === 'Failed' ? items : undefined;
    });

    const writes: Array<[string, () => Promise<ApiResponse>]> = [
      ['register', () => limited.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] })],
      ['delete', () => limited.delete(`/api/v1/webhooks/${sub.body.id}`)],
      ['retry', () => limited.post(`/api/v1/webhooks/${sub.body.id}/deliveries/${d.deliveryId}/retry`)],
      ['recover', () => limited.post(`/api/v1/webhooks/${sub.body.id}/recover`, { since: new Date().toISOString() })],
    ];
    for (const [name, call] of writes) {
      const res = await call();
      expect([name, res.status, res.body.code]).toEqual([name, 403, 'FORBIDDEN']);
      expect(Object.keys(res.body).sort()).toEqual(PROBLEM_KEYS);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect((await limited.get(`/api/v1/webhooks/${sub.body.id}`)).status).toBe(200);
    expect((await limited.get(`/api/v1/webhooks/${sub.body.id}/deliveries/${d.deliveryId}`)).status).toBe(200);
    // Nothing changed.
    expect((await owner.get(`/api/v1/webhooks/${sub.body.id}`)).body.IsActive).toBe(true);
    expect((await owner.get('/api/v1/webhooks')).body.total).toBe(1);
  });

  it('a retry that cannot be queued is 503 SERVICE_UNAVAILABLE and leaves the delivery as it was', async () => {
    const { api } = await stack.tenant('SI');
    let accept = false;
    const receiver = (await stack.receiver()).replyWith(() => (accept ? { status: 200 } : { status: 422 }));
    const sub = await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] });
    await hire(api, 'Refused');
    const [d] = await eventually(async () => {
      const items = (await api.get(`/api/v1/webhooks/${sub.body.id}/deliveries`)).body.items;
      return items[0]?.status === 'Failed' ? items : undefined;
    });

    // The broker routes no attempt anywhere for a moment (nothing else is in flight in this vhost).
    const ch = await stack.dispatcher.deps.amqp.channel();
    try {
      await ch.unbindQueue(ATTEMPT_QUEUE, ATTEMPT_EXCHANGE, ATTEMPT_KEY);
      const res = await api.post(`/api/v1/webhooks/${sub.body.id}/deliveries/${d.deliveryId}/retry`);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(Object.keys(res.body).sort()).toEqual(PROBLEM_KEYS);
      const same = await api.get(`/api/v1/webhooks/${sub.body.id}/deliveries/${d.deliveryId}`);
      expect(same.body).toMatchObject({ status: 'Failed', attempts: 1 });
    } finally {
      await ch.bindQueue(ATTEMPT_QUEUE, ATTEMPT_EXCHANGE, ATTEMPT_KEY);
      await ch.close();
    }
    // As the answer says: try again.
    accept = true;
    expect((await api.post(`/api/v1/webhooks/${sub.body.id}/deliveries/${d.deliveryId}/retry`)).status).toBe(202);
    await eventually(async () => {
      const x = (await api.get(`/api/v1/webhooks/${sub.body.id}/deliveries/${d.deliveryId}`)).body;
      return x.status === 'Succeeded';
    });
  });

  it('the contract declares the 403 of every webhook write and the 503 of retry and recover', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    const writes = [
      ['/api/v1/webhooks', 'post'],
      ['/api/v1/webhooks/{id}', 'delete'],
      ['/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry', 'post'],
      ['/api/v1/webhooks/{id}/recover', 'post'],
    ] as const;
    for (const [path, method] of writes) expect(Object.keys(paths[path]![method]!.responses)).toContain('403');
    for (const path of ['/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry', '/api/v1/webhooks/{id}/recover'])
      expect(Object.keys(paths[path]!.post!.responses)).toContain('503');
  });
});
