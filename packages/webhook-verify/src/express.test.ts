import express, { type Express } from 'express';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryDedupeStore } from './dedupe';
import { webhookMiddleware, type WebhookEventMeta, type WebhookMiddlewareOptions } from './express';
import { SECRET, delivery, entryEnvelope } from './test-fixtures';
import type { WebhookEnvelope } from './types';

const MiB = 1024 * 1024;
const nowS = () => Math.floor(Date.now() / 1000);

interface Harness {
  url: string;
  events: Array<{ envelope: WebhookEnvelope; meta: WebhookEventMeta }>;
  errors: unknown[];
}

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(
    servers.map((s) => {
      s.closeAllConnections(); // fetch keeps connections alive
      return new Promise((resolve) => s.close(resolve));
    }),
  );
});

async function start(
  options: Partial<WebhookMiddlewareOptions> = {},
  mount: (app: Express, handler: ReturnType<typeof webhookMiddleware>) => void = (app, h) => app.post('/hooks', h),
): Promise<Harness> {
  const harness: Harness = { url: '', events: [], errors: [] };
  const handler = webhookMiddleware({
    secret: SECRET,
    onEvent: (envelope, meta) => {
      harness.events.push({ envelope, meta });
    },
    onError: (error) => harness.errors.push(error),
    ...options,
  });
  const app = express();
  mount(app, handler);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  harness.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return harness;
}

async function post(url: string, body: string | Buffer, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', body, headers });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Chunked upload (no Content-Length), to exercise the streaming limit. */
function postChunked(url: string, chunks: Buffer[], headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'Transfer-Encoding': 'chunked' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('webhookMiddleware over a real express app', () => {
  it('accepts a signed delivery, then answers a repeat as a duplicate without calling onEvent', async () => {
    const h = await start({ dedupe: new MemoryDedupeStore() });
    const { body, headers, eventId } = delivery({ t: nowS() });

    expect(await post(h.url, body, headers)).toEqual({ status: 200, json: { received: true, duplicate: false } });
    expect(h.events).toHaveLength(1);
    expect(h.events[0]!.envelope).toEqual(JSON.parse(body));
    expect(h.events[0]!.meta).toMatchObject({ eventId, deliveryId: 'dlv_0001' });

    // A retry: same event id and bytes, fresh timestamp.
    const retry = { ...headers, 'Svc-Signature': delivery({ eventId, body, t: nowS() }).headers['Svc-Signature']! };
    expect(await post(h.url, body, retry)).toEqual({ status: 200, json: { received: true, duplicate: true } });
    expect(h.events).toHaveLength(1);
  });

  it('without a dedupe store every delivery reaches onEvent', async () => {
    const h = await start();
    const { body, headers } = delivery({ t: nowS() });
    await post(h.url, body, headers);
    expect(await post(h.url, body, headers)).toEqual({ status: 200, json: { received: true, duplicate: false } });
    expect(h.events).toHaveLength(2);
  });

  it('answers only after onEvent resolves', async () => {
    let finished = false;
    const h = await start({
      onEvent: async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        finished = true;
      },
    });
    const { body, headers } = delivery({ t: nowS() });
    expect((await post(h.url, body, headers)).status).toBe(200);
    expect(finished).toBe(true);
  });

  it('answers 400 with the reason code and does not call onEvent', async () => {
    const h = await start({ dedupe: new MemoryDedupeStore() });
    const { body, headers } = delivery({ t: nowS(), secret: 'whsec_someone_else' });
    const res = await post(h.url, body, headers);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('SIGNATURE_MISMATCH');
    expect(typeof res.json.message).toBe('string');

    const { 'Svc-Signature': _sig, ...unsigned } = delivery({ t: nowS() }).headers;
    expect((await post(h.url, body, unsigned)).json.error).toBe('MISSING_HEADER');

    const stale = delivery({ t: nowS() - 301 });
    expect((await post(h.url, stale.body, stale.headers)).json.error).toBe('TIMESTAMP_TOO_OLD');

    expect(h.events).toHaveLength(0);
    expect(h.errors).toHaveLength(3);
  });

  it('a forged request cannot mark a real event as seen', async () => {
    const h = await start({ dedupe: new MemoryDedupeStore() });
    const real = delivery({ t: nowS() });
    const forged = delivery({ eventId: real.eventId, t: nowS(), secret: 'whsec_attacker' });
    expect((await post(h.url, forged.body, forged.headers)).status).toBe(400);
    expect((await post(h.url, real.body, real.headers)).json).toEqual({ received: true, duplicate: false });
  });

  it('answers 500 when onEvent throws, and processes the retry of the same event', async () => {
    let attempts = 0;
    const h = await start({
      dedupe: new MemoryDedupeStore(),
      onEvent: async () => {
        attempts++;
        if (attempts === 1) throw new Error('database down');
      },
    });
    const { body, headers } = delivery({ t: nowS() });
    expect(await post(h.url, body, headers)).toEqual({ status: 500, json: { error: 'HANDLER_FAILED' } });
    expect(await post(h.url, body, headers)).toEqual({ status: 200, json: { received: true, duplicate: false } });
    expect(attempts).toBe(2);
    expect((h.errors[0] as Error).message).toBe('database down');
  });

  it('answers 500 when the dedupe store fails (so we retry later)', async () => {
    const h = await start({ dedupe: { seen: () => Promise.reject(new Error('redis down')) } });
    const { body, headers } = delivery({ t: nowS() });
    expect((await post(h.url, body, headers)).status).toBe(500);
    expect(h.events).toHaveLength(0);
  });

  it('accepts a body of exactly 1 MiB and answers 413 beyond it', async () => {
    const h = await start();
    const eventId = '3f2b8c1e-9a4d-4b7c-8e1f-0a2b3c4d5e6f';
    const env = entryEnvelope(eventId);
    const skeleton = JSON.stringify({ ...env, data: { ...env.data, pad: '' } });
    const exact = JSON.stringify({ ...env, data: { ...env.data, pad: 'x'.repeat(MiB - skeleton.length) } });
    expect(Buffer.byteLength(exact)).toBe(MiB);
    const ok = delivery({ eventId, body: exact, t: nowS() });
    expect((await post(h.url, ok.body, ok.headers)).status).toBe(200);

    const big = `${exact} `;
    const tooBig = delivery({ eventId, body: big, t: nowS() });
    expect(await post(h.url, big, tooBig.headers)).toEqual({ status: 413, json: { error: 'PAYLOAD_TOO_LARGE' } });

    // Same limit without a Content-Length to trust.
    const chunks = [Buffer.alloc(MiB / 2, 0x20), Buffer.alloc(MiB / 2, 0x20), Buffer.from('{}')];
    expect(await postChunked(h.url, chunks, tooBig.headers)).toBe(413);
    expect(h.events).toHaveLength(1);
  });

  it('streams a chunked body within the limit', async () => {
    const h = await start();
    const { body, headers } = delivery({ t: nowS() });
    const bytes = Buffer.from(body);
    expect(await postChunked(h.url, [bytes.subarray(0, 10), bytes.subarray(10)], headers)).toBe(200);
    expect(h.events).toHaveLength(1);
  });

  it('uses req.body when express.raw() already read it', async () => {
    const h = await start({}, (app, handler) => app.post('/hooks', express.raw({ type: '*/*' }), handler));
    const { body, headers } = delivery({ t: nowS() });
    expect((await post(h.url, body, headers)).status).toBe(200);
    expect(h.events).toHaveLength(1);
  });

  it('reports a 500 misconfiguration when express.json() consumed the body first', async () => {
    const h = await start({}, (app, handler) => app.post('/hooks', express.json(), handler));
    const { body, headers } = delivery({ t: nowS() });
    const res = await post(h.url, body, headers);
    expect(res.status).toBe(500);
    expect(res.json.error).toBe('RAW_BODY_UNAVAILABLE');
  });

  it('answers 405 to other methods', async () => {
    const h = await start({}, (app, handler) => app.all('/hooks', handler));
    const res = await fetch(h.url);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual({ error: 'METHOD_NOT_ALLOWED' });
  });

  it('fails at construction on an empty secret', () => {
    expect(() => webhookMiddleware({ secret: '', onEvent: () => undefined })).toThrow(TypeError);
  });
});
