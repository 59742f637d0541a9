// Issue 35 §3: a partner can retry any write safely. Through the gateway, a POST retried with the same
// Idempotency-Key makes one record and answers the first answer again (Idempotent-Replayed: true);
// another body under the key is 422; two at once are one 201 and one 409 (or the replay); keys belong to
// the API key; an answer that shows a secret once is replayed whole but stored only sealed; the stored answer is read from the owning service's store by another replica behind
// another gateway; a 5xx is not kept (docs/decisions/0195).
import { randomUUID } from 'node:crypto';
import { urlEnv } from '@travel/contracts';
import type { RunningService } from '@travel/platform';
import { start as startEntries } from '@travel/entries/src/service';
import { start as startGateway } from '@travel/gateway/src/service';
import { ApiClient, freePort } from '@travel/testkit';
import { startFullStack, type FullStack } from './support/full-stack';
import { approvedEntry, untilReady } from './support/ready-entries';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('Idempotency-Key on every POST, through the gateway', () => {
  let stack: FullStack;

  beforeAll(async () => {
    stack = await startFullStack('idempotency');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const keyed = (key: string) => ({ 'idempotency-key': key });
  const entryBody = (purpose = 'Client visit') => ({
    departureDate: '2026-11-16',
    returnDate: '2026-11-17',
    purpose,
  });

  it('a retried travel entry create makes one entry and answers the same body, marked as a replay', async () => {
    const { api } = await stack.tenant('CZ');
    const key = randomUUID();
    const first = await api.post('/api/v1/travel-entries', entryBody(), keyed(key));
    const retry = await api.post('/api/v1/travel-entries', entryBody(), keyed(key));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(retry.body).toEqual(first.body);
    expect((await api.get('/api/v1/travel-entries')).body.total).toBe(1);
  });

  it('a retried expense, employee and payout batch are each made once', async () => {
    const t = await stack.tenant('CZ');
    const { api } = t;
    const entry = (await api.post('/api/v1/travel-entries', entryBody())).body;
    const expense = { kind: 'Other', date: '2026-11-16', amount: 120, currencyCode: 'CZK', description: 'Taxi' };
    const expenseKey = randomUUID();
    const e1 = await api.post(`/api/v1/travel-entries/${entry.id}/expenses`, expense, keyed(expenseKey));
    const e2 = await api.post(`/api/v1/travel-entries/${entry.id}/expenses`, expense, keyed(expenseKey));
    expect(e1.status).toBe(201);
    expect(e2.status).toBe(201);
    expect(e2.body).toEqual(e1.body);
    expect((await api.get(`/api/v1/travel-entries/${entry.id}`)).body.expenses).toHaveLength(1);

    const employee = { firstName: 'Ivo', lastName: `Retried ${randomUUID().slice(0, 8)}` };
    const employeeKey = randomUUID();
    const m1 = await api.post('/api/v1/employees', employee, keyed(employeeKey));
    const m2 = await api.post('/api/v1/employees', employee, keyed(employeeKey));
    expect(m1.status).toBe(201);
    expect(m2.body).toEqual(m1.body);
    expect(m2.headers.get('idempotent-replayed')).toBe('true');
    expect((await api.get(`/api/v1/employees?q=${encodeURIComponent(employee.lastName)}`)).body.total).toBe(1);

    const ready = await approvedEntry(t.client, 800);
    await untilReady(t.client, [ready]);
    const batch = { payoutMethod: 'BankTransfer', entryIds: [ready] };
    const batchKey = randomUUID();
    const b1 = await api.post('/api/v1/payouts', batch, keyed(batchKey));
    const b2 = await api.post('/api/v1/payouts', batch, keyed(batchKey));
    expect(b1.status).toBe(201);
    expect(b2.status).toBe(201);
    expect(b2.body).toEqual(b1.body);
    expect((await api.get('/api/v1/payouts')).body.total).toBe(1);
  });

  it('a retried attachment upload (a new multipart boundary) stores the files once', async () => {
    const t = await stack.tenant('CZ');
    const entry = (await t.api.post('/api/v1/travel-entries', entryBody())).body;
    const key = randomUUID();
    const upload = async (bytes = PDF) => {
      const form = new FormData();
      form.append('files', new Blob([bytes], { type: 'application/pdf' }), 'invoice.pdf');
      const res = await fetch(`${stack.gateway.url}/api/v1/travel-entries/${entry.id}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.apiKey}`, 'idempotency-key': key },
        body: form,
      });
      return {
        status: res.status,
        replayed: res.headers.get('idempotent-replayed'),
        body: (await res.json()) as { code?: string },
      };
    };
    const first = await upload();
    const retry = await upload();
    expect(first.status).toBe(201);
    expect(retry).toEqual({ status: 201, replayed: 'true', body: first.body });
    expect((await t.api.get(`/api/v1/travel-entries/${entry.id}`)).body.attachments).toHaveLength(1);
    // Other bytes under the same key: another request.
    const other = await upload(Buffer.concat([PDF, Buffer.from('% another file\n')]));
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED in the error body, and nothing is made', async () => {
    const { api } = await stack.tenant('CZ');
    const key = randomUUID();
    expect((await api.post('/api/v1/travel-entries', entryBody('First'), keyed(key))).status).toBe(201);
    const other = await api.post('/api/v1/travel-entries', entryBody('Second'), keyed(key));
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(other.body).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED', traceId: expect.any(String) });
    expect((await api.get('/api/v1/travel-entries')).body.total).toBe(1);
  });

  it('two requests at once with one key: one does the work, the other is 409 IDEMPOTENCY_KEY_IN_USE or its replay', async () => {
    const { api } = await stack.tenant('CZ');
    const key = randomUUID();
    const both = await Promise.all([
      api.post('/api/v1/travel-entries', entryBody(), keyed(key)),
      api.post('/api/v1/travel-entries', entryBody(), keyed(key)),
    ]);
    const worked = both.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    const other = both.filter((r) => !worked.includes(r));
    expect(worked).toHaveLength(1);
    expect(other).toHaveLength(1);
    if (other[0]!.status === 409) {
      expect(other[0]!.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(other[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
    } else {
      expect(other[0]!.status).toBe(201);
      expect(other[0]!.headers.get('idempotent-replayed')).toBe('true');
      expect(other[0]!.body).toEqual(worked[0]!.body);
    }
    expect((await api.get('/api/v1/travel-entries')).body.total).toBe(1);
  });

  it('a key belongs to its API key: another key of the company with the same value does its own work', async () => {
    const t = await stack.tenant('CZ');
    const second = await t.api.post('/api/v1/api-keys', { name: 'second integration' });
    expect(second.status).toBe(201);
    const other = t.api.withKey(second.body.key);
    const key = randomUUID();
    const mine = await t.api.post('/api/v1/travel-entries', entryBody(), keyed(key));
    const theirs = await other.post('/api/v1/travel-entries', entryBody(), keyed(key));
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect((await t.api.get('/api/v1/travel-entries')).body.total).toBe(2);
  });

  it('a retried API key create answers the same key once more, and the store never holds it in plain text', async () => {
    const { api } = await stack.tenant('CZ');
    const before = (await api.get('/api/v1/api-keys')).body.total;
    const key = randomUUID();
    const first = await api.post('/api/v1/api-keys', { name: 'retried integration' }, keyed(key));
    expect(first.status).toBe(201);
    const retry = await api.post('/api/v1/api-keys', { name: 'retried integration' }, keyed(key));
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(typeof first.body.key).toBe('string');
    expect((await api.get('/api/v1/api-keys')).body.total).toBe(before + 1);
    // The employees service's own store: the answer is there, sealed.
    const rows = await stack.employees.deps.mongo.db!.collection('idempotency_keys').find({}).toArray();
    expect(rows.length).toBeGreaterThan(0);
    const raw = JSON.stringify(rows) + rows.map((r) => Buffer.from(r.answer?.body?.buffer ?? []).toString('latin1')).join('');
    expect(raw).not.toContain(first.body.key);
    expect(raw).not.toContain(first.body.key.slice(-20));
  });

  it('a retried webhook subscription answers the same signing secret once, with one subscription made', async () => {
    const { api } = await stack.tenant('CZ');
    const receiver = await stack.receiver();
    const key = randomUUID();
    const body = { url: receiver.url, eventTypes: ['employee.created'] };
    const first = await api.post('/api/v1/webhooks', body, keyed(key));
    expect(first.status).toBe(201);
    const retry = await api.post('/api/v1/webhooks', body, keyed(key));
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await api.get('/api/v1/webhooks')).body.total).toBe(1);
  });

  describe('with a second entries replica behind a second gateway', () => {
    let entries2: RunningService;
    let gateway2: { url: string; stop(): Promise<void> };

    /** Another entries process on the same database; `fxUrl` lets it lose reference-fx. */
    async function replica(fxUrl: string) {
      const service = await startEntries({
        ...stack.vars,
        ...urlEnv({ employees: stack.upstreams.employees, fleet: stack.upstreams.fleet, 'reference-fx': fxUrl }),
      });
      const gateway = await startGateway({ ...stack.vars, ...urlEnv({ ...stack.upstreams, entries: service.url }) });
      return { service, gateway };
    }
    afterEach(async () => {
      await gateway2?.stop();
      await entries2?.stop();
    });

    it('the stored answer is read from the store: another replica replays it and makes nothing', async () => {
      ({ service: entries2, gateway: gateway2 } = await replica(stack.upstreams['reference-fx']!));
      const t = await stack.tenant('CZ');
      const key = randomUUID();
      const first = await t.api.post('/api/v1/travel-entries', entryBody(), keyed(key));
      expect(first.status).toBe(201);
      const elsewhere = new ApiClient(gateway2.url, t.apiKey);
      const retry = await elsewhere.post('/api/v1/travel-entries', entryBody(), keyed(key));
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect((await t.api.get('/api/v1/travel-entries')).body.total).toBe(1);
    });

    it('a 5xx is not kept: the retry with the same key does the work', async () => {
      // This replica's reference-fx is a closed port: an expense in euros cannot be converted (503).
      ({ service: entries2, gateway: gateway2 } = await replica(`http://127.0.0.1:${await freePort()}`));
      const t = await stack.tenant('CZ');
      const entry = (await t.api.post('/api/v1/travel-entries', entryBody())).body;
      const expense = { kind: 'Other', date: '2026-11-16', amount: 20, currencyCode: 'EUR', description: 'Taxi' };
      const key = randomUUID();
      const path = `/api/v1/travel-entries/${entry.id}/expenses`;
      const failed = await new ApiClient(gateway2.url, t.apiKey).post(path, expense, keyed(key));
      expect(failed.status).toBe(503);
      expect(failed.body.code).toBe('SERVICE_UNAVAILABLE');
      const retry = await t.api.post(path, expense, keyed(key));
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect((await t.api.get(`/api/v1/travel-entries/${entry.id}`)).body.expenses).toHaveLength(1);
    });
  });
});
