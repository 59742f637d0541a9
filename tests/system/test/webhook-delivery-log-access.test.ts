// Issue 20, section 3 (docs/decisions/0103): the delivery log shows the exact bytes sent, and entry events
// carry entry data, so reading it needs ManageCompanyData (the webhook right), ReadAllEntries or
// EditAllEntries. Through the gateway; the dispatcher validates responses, so an undeclared 403 would be 500.
import { openApiDocument } from '@travel/contracts';
import { allBut, limitedCaller, MISSING_ID } from '@travel/employees/test/support/org-fixtures';
import { eventually } from '@travel/testkit';
import { startE2eStack, type E2eStack } from './support/stack';

const PROBLEM_KEYS = ['code', 'detail', 'status', 'title', 'traceId', 'type'];
const LOG_READERS = ['ManageCompanyData', 'ReadAllEntries', 'EditAllEntries'];

describe('the delivery log is read only by keys that may see what it carries', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack('delivery-log-access', { RATE_LIMIT_BURST: '5000' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function tenantWithDelivery() {
    const { api: owner } = await stack.tenant('CZ');
    const receiver = (await stack.receiver()).replyAlways({ status: 200 });
    const sub = await owner.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] });
    expect(sub.status).toBe(201);
    expect((await owner.post('/api/v1/employees', { firstName: 'Log', lastName: 'Reader' })).status).toBe(201);
    const [delivery] = await eventually(async () => {
      const items = (await owner.get(`/api/v1/webhooks/${sub.body.id}/deliveries`)).body.items;
      return items?.[0]?.status === 'Succeeded' ? items : undefined;
    });
    return { owner, subId: sub.body.id as string, deliveryId: delivery.deliveryId as string };
  }

  it('a key without ManageCompanyData, ReadAllEntries or EditAllEntries gets 403 on every read of the log', async () => {
    const { owner, subId, deliveryId } = await tenantWithDelivery();
    const { api: limited } = await limitedCaller(owner, allBut(...LOG_READERS));
    const reads = [
      `/api/v1/webhooks/${subId}/deliveries`,
      `/api/v1/webhooks/${subId}/deliveries?status=Succeeded&eventType=employee.created`,
      `/api/v1/webhooks/${subId}/deliveries/${deliveryId}`,
      // No hint whether a subscription exists.
      `/api/v1/webhooks/${MISSING_ID}/deliveries`,
      `/api/v1/webhooks/${MISSING_ID}/deliveries/${MISSING_ID}`,
    ];
    for (const path of reads) {
      const res = await limited.get(path);
      expect([path, res.status, res.body.code]).toEqual([path, 403, 'FORBIDDEN']);
      expect(Object.keys(res.body).sort()).toEqual(PROBLEM_KEYS);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.text).not.toContain('Reader');
    }
    // The subscription itself (no entry data, never the secret) stays readable.
    expect((await limited.get(`/api/v1/webhooks/${subId}`)).status).toBe(200);
  });

  it.each(LOG_READERS)('%s alone reads the list and one delivery with its payload', async (flag) => {
    const { owner, subId, deliveryId } = await tenantWithDelivery();
    const { api: reader } = await limitedCaller(owner, [flag]);
    const list = await reader.get(`/api/v1/webhooks/${subId}/deliveries`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((d: { deliveryId: string }) => d.deliveryId)).toContain(deliveryId);
    const one = await reader.get(`/api/v1/webhooks/${subId}/deliveries/${deliveryId}`);
    expect(one.status).toBe(200);
    expect(one.body.payload).toContain('Reader');
  });

  it('the contract declares the 403 of both reads', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    for (const path of ['/api/v1/webhooks/{id}/deliveries', '/api/v1/webhooks/{id}/deliveries/{deliveryId}'])
      expect(Object.keys(paths[path]!.get!.responses)).toContain('403');
  });
});
