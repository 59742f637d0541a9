// Payload filters (issue 40 §4, docs/decisions/0230, 0231), through the gateway with real HTTPS receivers:
// a filtered subscription receives exactly the events whose data passes its filter and its delivery log
// lists only those; a failing endpoint whose filter passes over every event is neither attempted nor
// disabled, while an unfiltered failing one beside it is disabled by the same events; `recover` sends only
// the stored events the filter takes; a bad filter is 400
// under the part it is about, and the filter a read shows registers again as it is.
import { envelopeIdFromEventId, verify } from '@travel/webhook-verify';
import { eventually, type HttpsReceiver } from '@travel/testkit';
import { department } from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

describe('webhooks: payload filters', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    // Nine attempts in well under a second: a failing delivery exhausts quickly.
    const settings = { WEBHOOK_RETRY_SCHEDULE: '20ms,20ms,20ms,20ms,20ms,20ms,20ms,20ms', RATE_LIMIT_BURST: '5000' };
    stack = await startE2eStack('hook-filters', settings);
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  const envelopes = (receiver: HttpsReceiver, secret: string) =>
    receiver.requests.map((r) => {
      verify(r.body, r.headers as Record<string, string>, secret);
      return JSON.parse(r.body.toString('utf8')) as { id: string; data: { id: string; departmentId: string | null } };
    });

  it('the filtered subscription gets only the matching events; skipped ones neither log nor count', async () => {
    const { api } = await stack.tenant('HR');
    const [sales, finance] = [await department(api), await department(api)];

    const all = await stack.receiver();
    const filtered = await stack.receiver();
    const down = (await stack.receiver()).replyWith(() => ({ status: 503 }));
    const register = (url: string, filter?: unknown) =>
      api.post('/api/v1/webhooks', { url, eventTypes: ['employee.created'], ...(filter ? { filter } : {}) });
    const allSub = await register(all.url);
    const filter = { 'data.departmentId': { $in: [sales] }, 'data.isArchived': false };
    const filteredSub = await register(filtered.url, filter);
    // Fails every attempt, but no new employee is archived: its filter passes over every event.
    const quietSub = await register(`${down.url}/quiet`, { 'data.isArchived': true });
    // Fails every attempt with no filter: ten events in a row disable it (the marker for the quiet one).
    const loudSub = await register(`${down.url}/loud`);
    for (const s of [allSub, filteredSub, quietSub, loudSub]) expect(s.status).toBe(201);
    expect(filteredSub.body.filter).toEqual(filter);
    expect(allSub.body.filter).toBeNull();

    // Eleven hires: sales at 1, 5 and 11 (the last one is the marker), finance or no department otherwise.
    const departments = [sales, finance, null, finance, sales, null, finance, finance, null, finance, sales];
    const hired: string[] = [];
    for (const [i, departmentId] of departments.entries()) {
      const res = await api.post('/api/v1/employees', { firstName: 'Filter', lastName: `Check${i}`, departmentId });
      expect(res.status).toBe(201);
      hired.push(res.body.id);
    }
    const inSales = hired.filter((_, i) => departments[i] === sales);
    expect(inSales).toHaveLength(3);

    // The marker: the last hire (in sales) reached the filtered receiver, so every earlier event was
    // fanned out; a copy sent twice (at least once) carries the same id, hence the sets.
    const marker = hired[hired.length - 1]!;
    await eventually(
      async () =>
        envelopes(filtered, filteredSub.body.signingSecret).some((e) => e.data.id === marker) ? true : undefined,
      30_000,
    );
    await all.waitForRequests(departments.length, 30_000);
    const got = envelopes(filtered, filteredSub.body.signingSecret);
    expect(new Set(got.map((e) => e.data.id))).toEqual(new Set(inSales));
    expect(got.every((e) => e.data.departmentId === sales)).toBe(true);
    expect(new Set(envelopes(all, allSub.body.signingSecret).map((e) => e.data.id))).toEqual(new Set(hired));

    // The delivery log lists the three matching events only.
    const log = (id: string) => api.get(`/api/v1/webhooks/${id}/deliveries?pageSize=100`);
    const filteredLog = (await log(filteredSub.body.id)).body.items as Array<{ eventId: string }>;
    expect(filteredLog.map((d) => envelopeIdFromEventId(d.eventId)).sort()).toEqual(
      [...new Set(got.map((e) => e.id))].sort(),
    );

    // The unfiltered failing subscription is disabled by the ten events in a row; the quiet one saw the
    // same eleven events in the same fan-outs, and has nothing: no row, no attempt, no streak.
    await eventually(
      async () => ((await api.get(`/api/v1/webhooks/${loudSub.body.id}`)).body.IsActive === false ? true : undefined),
      60_000,
    );
    const quiet = (await api.get(`/api/v1/webhooks/${quietSub.body.id}`)).body;
    expect(quiet).toMatchObject({ IsActive: true, consecutiveExhausted: 0, health: { status: 'healthy' } });
    expect((await log(quietSub.body.id)).body.items).toEqual([]);
    expect(down.requests.every((r) => r.path === '/hooks/loud')).toBe(true);

    // `recover` applies the filter too: a new URL with the same filter, asking for everything since before
    // the hires, is sent the three sales hires of the eleven stored events.
    const late = await stack.receiver();
    const lateSub = await register(late.url, filter);
    const since = new Date(Date.now() - 10 * 60_000).toISOString();
    const recovered = await api.post(`/api/v1/webhooks/${lateSub.body.id}/recover`, { since });
    expect(recovered.status).toBe(202);
    expect(recovered.body.count).toBe(3);
    await late.waitForRequests(3, 30_000);
    const recoveredIds = envelopes(late, lateSub.body.signingSecret).map((e) => e.data.id);
    expect(new Set(recoveredIds)).toEqual(new Set(inSales));
  }, 120_000);

  it('a bad filter is 400 under the part it is about; the filter a read shows registers again', async () => {
    const { api } = await stack.tenant('SI');
    const receiver = await stack.receiver();
    const bad = await api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['entry.approved', 'employee.updated'],
      filter: { 'data.isRequest': false, $or: [{ 'data.id': { $gt: 3 } }, { 'data.id': { $like: 3 } }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: {
        'filter["data.isRequest"]': ["is not a field of employee.updated's data"],
        'filter.$or[0]["data.id"].$gt': ['must be string, as the field is'],
        'filter.$or[1]["data.id"]': ['"$like" is not an operator ($eq, $neq, $in, $nin, $exist, $gt, $gte, $lt, $lte)'],
      },
    });
    expect(
      (
        await api.post('/api/v1/webhooks', {
          url: receiver.url,
          eventTypes: ['entry.approved'],
          filter: 'isRequest=false',
        })
      ).status,
    ).toBe(400);

    const filter = { $or: [{ 'data.isRequest': false }, { 'data.status': { $gte: 1, $lte: 3 } }] };
    const created = await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['entry.approved'], filter });
    expect(created.status).toBe(201);
    const read = (await api.get(`/api/v1/webhooks/${created.body.id}`)).body;
    expect(read.filter).toEqual(filter);
    const listed = (await api.get('/api/v1/webhooks')).body.items.find((s: { id: string }) => s.id === read.id);
    expect(listed.filter).toEqual(filter);
    const { url, eventTypes, signatureScheme } = read;
    const again = await api.post('/api/v1/webhooks', { url, eventTypes, signatureScheme, filter: read.filter });
    expect(again.status).toBe(201);
    expect(again.body.filter).toEqual(filter);
  }, 60_000);
});
