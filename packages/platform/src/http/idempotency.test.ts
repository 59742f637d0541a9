// Idempotency-Key on the API's POSTs (issue 35 §3, docs/decisions/0195), through a service's whole app
// with the store faked in memory: one claim per key, the first answer replayed, 422 for another request,
// 409 while running, a 5xx not kept, shown-once answers kept only sealed, the key's form checked.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTEXT_HEADER, mintContext, type CallerContext, type ContextTrust } from '../context';
import { generateSigningKey, keyringText, parseKeyring, privateKeyFromText } from '../context-keys';
import { AppError } from '../errors';
import { createLogger } from '../logger';
import type { IdempotencyClaim, IdempotencyKeys, IdempotencyScope, StoredAnswer } from '../mongo/idempotency-store';
import { Metrics } from '../observability/metrics';
import { SealedBox } from '../sealed-box';
import { wholeKey } from '../whole-key';
import { apiRouter, createHttpListener, listen, route } from './app';
import { closeServer } from './drain';
import { canonicalJson, requestFingerprint } from './request-fingerprint';

const gateway = generateSigningKey();
const GATEWAY_KEY = privateKeyFromText(gateway.privateKey);
const TRUST: ContextTrust = {
  audience: 'employees',
  keyring: parseKeyring(keyringText({ gateway: gateway.publicKey })),
};
const caller = (apiKeyId: string, tenantId = 't-1'): CallerContext => ({
  kind: 'caller',
  tenantId,
  market: 'CZ',
  baseCurrency: 'CZK',
  employeeId: 'e-1',
  apiKeyId,
  permissions: ['ManageCompanyData'],
  requestId: 'r-1',
});

/** The store's rules in memory: one row per whole key, claimed, completed or released. */
class MemoryKeys implements IdempotencyKeys {
  rows = new Map<string, { fingerprint: string; token?: string; answer?: StoredAnswer }>();
  async claim(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyClaim> {
    const id = wholeKey(scope.tenantId, scope.apiKeyId, scope.key);
    const row = this.rows.get(id);
    if (!row) {
      const token = `tok-${this.rows.size}`;
      this.rows.set(id, { fingerprint, token });
      return { kind: 'claimed', token };
    }
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (row.answer) return { kind: 'replay', answer: row.answer };
    return { kind: 'running', leaseUntil: new Date(Date.now() + 30_000) };
  }
  async complete(scope: IdempotencyScope, token: string, answer: StoredAnswer): Promise<boolean> {
    const row = this.rows.get(wholeKey(scope.tenantId, scope.apiKeyId, scope.key));
    if (row?.token !== token) return false;
    row.answer = answer;
    return true;
  }
  async release(scope: IdempotencyScope, token: string): Promise<void> {
    const id = wholeKey(scope.tenantId, scope.apiKeyId, scope.key);
    if (this.rows.get(id)?.token === token) this.rows.delete(id);
  }
}

describe('Idempotency-Key on POSTs', () => {
  let server: Server;
  let base: string;
  let keys: MemoryKeys;
  let made: number;
  let failNext: boolean;
  let hold: Promise<void> | undefined;

  beforeAll(async () => {
    keys = new MemoryKeys();
    const api = apiRouter();
    api.post(
      '/api/v1/departments',
      route(async (req, res) => {
        await hold;
        if (failNext) {
          failNext = false;
          throw new AppError('SERVICE_UNAVAILABLE');
        }
        made += 1;
        res.status(201).setHeader('etag', `W/"${made}"`);
        res.json({ id: `00000000-0000-4000-8000-${String(made).padStart(12, '0')}`, name: req.body.name });
      }),
    );
    api.post(
      '/api/v1/api-keys',
      route(async (_req, res) => {
        made += 1;
        res.status(201).json({ id: '11111111-1111-4111-8111-111111111111', apiKey: 'secret-shown-once' });
      }),
    );
    api.post(
      '/api/v1/travel-entries/:id/attachments',
      route(async (req, res) => {
        made += 1;
        const files = (req.files as { originalname: string }[]).map((f) => f.originalname);
        res.status(201).json({ made, files });
      }),
    );
    const app = createHttpListener({
      logger: createLogger('idem-test', 'silent'),
      metrics: new Metrics('idem-test'),
      api,
      contextTrust: TRUST,
      idempotency: keys,
      idempotentAnswerSeal: new SealedBox(privateKeyFromText(generateSigningKey().privateKey), 'test answers'),
    });
    server = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => closeServer(server));
  beforeEach(() => {
    made = 0;
    failNext = false;
    hold = undefined;
  });

  let n = 0;
  const newKey = () => `key-${++n}-${Date.now()}`;
  const post = (path: string, body: string | FormData, headers: Record<string, string>, as = caller('k-1')) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { [CONTEXT_HEADER]: mintContext(as, GATEWAY_KEY), ...headers },
      body,
    });
  const postJson = (body: unknown, key?: string, as?: CallerContext) =>
    post(
      '/api/v1/departments',
      JSON.stringify({ code: 'D-1', ...(body as object) }),
      { 'content-type': 'application/json', ...(key !== undefined ? { 'idempotency-key': key } : {}) },
      as,
    );

  it('answers a repeated key with the first answer, marked as a replay, and does the work once', async () => {
    const key = newKey();
    const first = await postJson({ name: 'Sales', code: 'S-1' }, key);
    const again = await postJson({ code: 'S-1', name: 'Sales' }, key); // keys in another order: the same body
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await again.json()).toEqual(await first.json());
    expect(made).toBe(1);
  });

  it('without the header a POST does its work every time', async () => {
    await postJson({ name: 'A' });
    await postJson({ name: 'A' });
    expect(made).toBe(2);
  });

  it('refuses the key with another body: 422 IDEMPOTENCY_KEY_REUSED in the error body', async () => {
    const key = newKey();
    expect((await postJson({ name: 'One' }, key)).status).toBe(201);
    const other = await postJson({ name: 'Two' }, key);
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await other.json()).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(made).toBe(1);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE with Retry-After while the first request runs', async () => {
    const key = newKey();
    let go!: () => void;
    hold = new Promise((resolve) => (go = resolve));
    const first = postJson({ name: 'Slow' }, key);
    // The first has claimed the key once its claim is in the store.
    while (![...keys.rows.keys()].some((k) => k.endsWith(key))) await new Promise((r) => setImmediate(r));
    const second = await postJson({ name: 'Slow' }, key);
    expect(second.status).toBe(409);
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await second.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    go();
    expect((await first).status).toBe(201);
    expect(made).toBe(1);
  });

  it('keeps no 5xx: the retry does the work', async () => {
    const key = newKey();
    failNext = true;
    expect((await postJson({ name: 'Flaky' }, key)).status).toBe(503);
    const retry = await postJson({ name: 'Flaky' }, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(made).toBe(1);
  });

  it('keeps keys per API key and per tenant', async () => {
    const key = newKey();
    await postJson({ name: 'Mine' }, key, caller('k-1'));
    const otherKey = await postJson({ name: 'Mine' }, key, caller('k-2'));
    const otherTenant = await postJson({ name: 'Mine' }, key, caller('k-1', 't-2'));
    expect(otherKey.headers.get('idempotent-replayed')).toBeNull();
    expect(otherTenant.headers.get('idempotent-replayed')).toBeNull();
    expect(made).toBe(3);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['a space', 'two words'],
  ])('refuses a key that is %s with 400 VALIDATION_FAILED under idempotency-key', async (_label, key) => {
    const res = await postJson({ name: 'X' }, key);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(body.errors)).toEqual(['idempotency-key']);
    expect(made).toBe(0);
  });

  it('keeps an answer that shows a secret once only sealed, and replays it whole', async () => {
    const key = newKey();
    const create = () =>
      post('/api/v1/api-keys', JSON.stringify({ name: 'partner' }), {
        'content-type': 'application/json',
        'idempotency-key': key,
      });
    const first = await create();
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    const stored = [...keys.rows.values()].find((r) => r.answer?.sealed);
    expect(stored?.answer?.body.length).toBeGreaterThan(0);
    expect(stored?.answer?.body.toString('latin1')).not.toContain('secret-shown-once');
    expect(JSON.stringify(stored)).not.toContain('secret-shown-once');
    const again = await create();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstBody);
    expect(JSON.parse(firstBody)).toMatchObject({ apiKey: 'secret-shown-once' });
    expect(made).toBe(1);
  });

  it('answers 409 naming the record when a sealed answer can no longer be opened', async () => {
    const key = newKey();
    const create = () =>
      post('/api/v1/api-keys', JSON.stringify({ name: 'partner' }), {
        'content-type': 'application/json',
        'idempotency-key': key,
      });
    expect((await create()).status).toBe(201);
    const stored = [...keys.rows.values()].find((r) => r.answer?.sealed && r.token?.length);
    // As if sealed under a signing key rotated since: the bytes no longer open.
    for (const row of keys.rows.values()) if (row.answer?.sealed) row.answer.body[row.answer.body.length - 1] ^= 1;
    expect(stored).toBeDefined();
    const again = await create();
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const body = (await again.json()) as { code: string; detail: string };
    expect(body.code).toBe('CONFLICT');
    expect(body.detail).toContain('11111111-1111-4111-8111-111111111111');
    expect(made).toBe(1);
  });

  it('fingerprints an upload by its files, not its multipart boundary', async () => {
    const key = newKey();
    const form = () => {
      const f = new FormData();
      f.append('files', new Blob([Buffer.from('%PDF-1.4 receipt')], { type: 'application/pdf' }), 'r.pdf');
      return f;
    };
    const path = '/api/v1/travel-entries/22222222-2222-4222-8222-222222222222/attachments';
    const first = await post(path, form(), { 'idempotency-key': key });
    const again = await post(path, form(), { 'idempotency-key': key }); // fetch picks a new boundary
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    const other = new FormData();
    other.append('files', new Blob([Buffer.from('%PDF-1.4 other')], { type: 'application/pdf' }), 'r.pdf');
    expect((await post(path, other, { 'idempotency-key': key })).status).toBe(422);
    expect(made).toBe(1);
  });
});

describe('request fingerprints', () => {
  const of = (body: unknown, url = '/api/v1/x', files = undefined) =>
    requestFingerprint({ method: 'POST', url, body, files });

  it('ignore the order of object keys, not of array items', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(of({ a: 1, b: 2 })).toBe(of({ b: 2, a: 1 }));
    expect(of({ a: [1, 2] })).not.toBe(of({ a: [2, 1] }));
  });

  it('differ by path, query, body and file bytes', () => {
    expect(of({ a: 1 })).not.toBe(of({ a: 1 }, '/api/v1/y'));
    expect(of({ a: 1 })).not.toBe(of({ a: 1 }, '/api/v1/x?q=1'));
    expect(of({ a: 1 })).not.toBe(of({ a: '1' }));
    const file = (bytes: string) => ({
      fieldname: 'files',
      originalname: 'a.pdf',
      mimetype: 'application/pdf',
      buffer: Buffer.from(bytes),
    });
    expect(requestFingerprint({ method: 'POST', url: '/u', body: {}, files: [file('x')] })).not.toBe(
      requestFingerprint({ method: 'POST', url: '/u', body: {}, files: [file('y')] }),
    );
  });
});
