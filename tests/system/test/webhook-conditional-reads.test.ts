// Conditional GETs and delta sync of webhook subscriptions and their delivery log through the gateway
// (issue 25; docs/decisions/0155, 0156, 0159): every read answers with an ETag and 304 while nothing
// changed, 200 with the new body after a write (a registration, a rotation, a deletion, a new delivery),
// never a stale 304 under racing registrations; both lists sync by updatedSince and nextCursor; a bad
// cursor is 400.
import type { ApiClient } from '@travel/testkit';
import { eventually } from '@travel/testkit';
import { startE2eStack, type E2eStack } from './support/stack';
import {
  deltaSync,
  expectBadCursorsRefused,
  expectChangedAfter,
  expectNoStaleNotModified,
  expectNotModifiedWhileUnchanged,
  RACING_READERS_ENV,
} from './support/conditional-checks';

describe('webhooks: conditional reads and delta sync', () => {
  let stack: E2eStack;
  let receiverUrl: string;

  beforeAll(async () => {
    stack = await startE2eStack('webhook-conditional', RACING_READERS_ENV);
    receiverUrl = (await stack.receiver()).replyAlways({ status: 200 }).url;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const register = async (api: ApiClient, eventTypes = ['employee.created']) => {
    const res = await api.post('/api/v1/webhooks', { url: receiverUrl, eventTypes });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
    return res.body as { id: string };
  };
  const rotate = async (api: ApiClient, id: string) =>
    expect((await api.post(`/api/v1/webhooks/${id}/rotate-secret`, { gracePeriodSeconds: 3600 })).status).toBe(200);
  /** Deliveries of `sub` once `n` rows have succeeded. */
  const delivered = (api: ApiClient, sub: string, n: number) =>
    eventually(async () => {
      const items = (await api.get(`/api/v1/webhooks/${sub}/deliveries?pageSize=100`)).body.items;
      return items?.length >= n && items.every((d: { status: string }) => d.status === 'Succeeded') ? items : undefined;
    });
  const hire = async (api: ApiClient, lastName: string) =>
    expect((await api.post('/api/v1/employees', { firstName: 'Hook', lastName })).status).toBe(201);

  it('answers the subscriptions, one subscription, the delivery log and one delivery with an ETag and 304', async () => {
    const { api } = await stack.tenant('CZ');
    const sub = await register(api);
    await hire(api, 'Etag');
    const [row] = await delivered(api, sub.id, 1);
    for (const path of [
      '/api/v1/webhooks?pageSize=5',
      `/api/v1/webhooks/${sub.id}`,
      `/api/v1/webhooks/${sub.id}/deliveries`,
      `/api/v1/webhooks/${sub.id}/deliveries/${row.deliveryId}`,
    ])
      await expectNotModifiedWhileUnchanged(api, path);
  });

  it('answers 200 with the new body after a registration, a rotation, a deletion and a new delivery', async () => {
    const { api } = await stack.tenant('HR');
    const sub = await register(api);
    const one = `/api/v1/webhooks/${sub.id}`;
    const rotated = await expectChangedAfter(api, one, () => rotate(api, sub.id));
    expect(rotated.previousSecretExpiresAt).toEqual(expect.any(String));
    let other = { id: '' };
    const listed = await expectChangedAfter(api, '/api/v1/webhooks', async () => {
      other = await register(api);
    });
    expect(listed.items.map((s: { id: string }) => s.id)).toContain(other.id);
    const afterDelete = await expectChangedAfter(api, '/api/v1/webhooks', async () =>
      expect((await api.delete(`/api/v1/webhooks/${other.id}`)).status).toBe(204),
    );
    expect(afterDelete.items.map((s: { id: string }) => s.id)).not.toContain(other.id);
    const log = `/api/v1/webhooks/${sub.id}/deliveries`;
    const withRow = await expectChangedAfter(api, log, async () => {
      await hire(api, 'Logged');
      await delivered(api, sub.id, 1);
    });
    expect(withRow.items).toHaveLength(1);
  });

  it('never answers 304 for a list older than a registration finished before the read began', async () => {
    const { api } = await stack.tenant('PL');
    await expectNoStaleNotModified(
      api,
      ['/api/v1/webhooks?pageSize=100'],
      async () => void (await register(api)),
      (body) => body.total,
    );
  });

  it('delta sync: the subscriptions and the delivery log changed since, oldest change first', async () => {
    const { api } = await stack.tenant('SK');
    const subs = [];
    for (let i = 0; i < 4; i++) subs.push(await register(api));
    await new Promise((resolve) => setTimeout(resolve, 5)); // editedAt has millisecond precision
    const since = new Date().toISOString();
    const changed = [subs[2]!, subs[0]!, subs[3]!];
    for (const s of changed) await rotate(api, s.id);
    expect(await deltaSync(api, '/api/v1/webhooks', since)).toEqual(changed.map((s) => s.id));

    const start = new Date(Date.now() - 1000).toISOString();
    for (const name of ['One', 'Two', 'Three']) await hire(api, name);
    const rows = await delivered(api, subs[1]!.id, 3);
    const synced = await deltaSync(api, `/api/v1/webhooks/${subs[1]!.id}/deliveries`, start, 2, {
      id: 'deliveryId',
      editedField: 'updatedAt',
    });
    expect([...synced].sort()).toEqual(rows.map((d: { deliveryId: string }) => d.deliveryId).sort());
  });

  it('refuses a malformed, altered or foreign cursor on both lists with 400 VALIDATION_FAILED under cursor', async () => {
    const { api } = await stack.tenant('SI');
    const sub = await register(api);
    await register(api);
    await expectBadCursorsRefused(api, '/api/v1/webhooks', 'pageSize=5');
    await hire(api, 'A');
    await hire(api, 'B');
    await delivered(api, sub.id, 2);
    await expectBadCursorsRefused(api, `/api/v1/webhooks/${sub.id}/deliveries`, 'status=Failed');
  });
});
