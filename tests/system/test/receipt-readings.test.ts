// Issue 37 §1 and §3 through the gateway, on real RabbitMQ and FerretDB: every image or PDF attachment gets
// a reading (Pending, then Read or Unreadable), with the attachment's visibility; an expense is created
// from it with the caller's confirmed values and records where it came from; a deleted attachment's
// reading is gone; an engine that keeps failing ends in Unreadable after a bounded number of attempts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningService } from '@travel/platform';
import { repoRoot, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

// Loaded by the suites that run it, so the Pending suite runs without loading the engine.
const startReceipts = async (env: NodeJS.ProcessEnv) => (await import('@travel/receipts/src/service')).start(env);

// R's committed samples (packages/receipt-reading/test/fixtures) with their true fields beside them: the
// assertions are those truths, not whatever the engine answered.
const FIXTURES = join(repoRoot(), 'packages', 'receipt-reading', 'test', 'fixtures');
const sample = (name: string) => ({
  bytes: readFileSync(join(FIXTURES, `${name}.jpg`)),
  truth: JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as {
    state: string;
    fields: { totalAmount?: string; currencyCode?: string; date?: string };
  },
});
/** A Croatian receipt photo with a fiscal QR code (its total is exact from the code). */
const HR_FISCAL = sample('hr-002');
/** A photo that is no receipt. */
const NOT_A_RECEIPT = sample('none-000');

async function upload(stack: EntriesStack, key: string, entryId: string, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append('files', new Blob([bytes], { type: 'image/jpeg' }), name);
  const res = await fetch(`${stack.gateway.url}/api/v1/travel-entries/${entryId}/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { items: Array<{ id: string }> }).items[0]!.id;
}

/** Waits on the condition, never a fixed sleep: the reading leaves Pending. */
async function readingDone(api: ApiClient, path: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(path);
    if (res.status !== 200 || res.body.state !== 'Pending' || Date.now() > until) return res;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('receipt readings: without the reading service, an attachment stays Pending', () => {
  let stack: EntriesStack;
  let api: ApiClient;
  let key: string;
  beforeAll(async () => {
    stack = await startEntriesStack('receipts-pending');
    ({ api, apiKey: key } = await stack.tenant('HR'));
  });
  afterAll(() => stack?.stop());

  it('Pending with nothing proposed; an expense from it is 409; another company and a deleted attachment are 404', async () => {
    const entry = (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-19', returnDate: '2026-11-20' }))
      .body;
    const attachmentId = await upload(stack, key, entry.id, 'receipt.jpg', HR_FISCAL.bytes);
    const path = `/api/v1/travel-entries/${entry.id}/attachments/${attachmentId}/reading`;
    const pending = await api.get(path);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({
      attachmentId,
      state: 'Pending',
      reason: null,
      engine: null,
      readAt: null,
      fields: {},
      lines: [],
    });
    const early = await api.post(`/api/v1/travel-entries/${entry.id}/expenses`, {
      kind: 'Parking',
      date: '2026-11-20',
      amount: 12.5,
      currencyCode: 'EUR',
      fromReading: attachmentId,
    });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('INVALID_STATE');
    // An id that is no attachment of this entry is the caller's mistake, under the field.
    const wrong = await api.post(`/api/v1/travel-entries/${entry.id}/expenses`, {
      kind: 'Parking',
      date: '2026-11-20',
      amount: 12.5,
      currencyCode: 'EUR',
      fromReading: entry.id,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toHaveProperty('fromReading');

    const other = await stack.tenant('HR');
    expect((await other.api.get(path)).status).toBe(404);

    expect((await api.delete(`/api/v1/travel-entries/${entry.id}/attachments/${attachmentId}`)).status).toBe(204);
    expect((await api.get(path)).status).toBe(404);
  });
});

describe('receipt readings: read by the engine', () => {
  let stack: EntriesStack;
  let receipts: RunningService;
  let api: ApiClient;
  let key: string;
  beforeAll(async () => {
    stack = await startEntriesStack('receipts-read');
    receipts = await startReceipts({ ...process.env, ...stack.env.vars, ENTRIES_URL: stack.entries.url });
    ({ api, apiKey: key } = await stack.tenant('HR'));
  });
  afterAll(async () => {
    await receipts?.stop();
    await stack?.stop();
  });

  it('upload a receipt → its reading appears → an expense from it with confirmed values records where it came from', async () => {
    const entry = (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-19', returnDate: '2026-11-20' }))
      .body;
    const attachmentId = await upload(stack, key, entry.id, 'hotel.jpg', HR_FISCAL.bytes);
    const reading = await readingDone(api, `/api/v1/travel-entries/${entry.id}/attachments/${attachmentId}/reading`);
    expect(reading.status).toBe(200);
    expect(reading.body.state).toBe('Read');
    // The fiscal QR code's exact total, and where it came from.
    const truth = HR_FISCAL.truth.fields;
    expect(reading.body.fields.totalAmount).toMatchObject({ value: truth.totalAmount, source: 'fiscal-qr' });
    expect(reading.body.fields.date.value).toBe(truth.date);
    expect(reading.body.lines.length).toBeGreaterThan(0);

    // The caller confirms the amount and currency as read and corrects the date.
    const created = await api.post(`/api/v1/travel-entries/${entry.id}/expenses`, {
      kind: 'Accommodation',
      date: '2025-11-27',
      amount: Number(truth.totalAmount),
      currencyCode: truth.currencyCode,
      fromReading: attachmentId,
    });
    expect(created.status).toBe(201);
    expect(created.body.amount).toBe(Number(truth.totalAmount));
    expect(created.body.receiptReading).toMatchObject({ attachmentId, engine: reading.body.engine });
    expect(created.body.receiptReading.corrected).toContain('date');
    expect(created.body.receiptReading.corrected).not.toContain('amount');
    // A GET body is a valid PUT body; where it came from stays.
    const got = (await api.get(`/api/v1/travel-entries/${entry.id}/expenses/${created.body.id}`)).body;
    const put = await api.put(`/api/v1/travel-entries/${entry.id}/expenses/${created.body.id}`, got);
    expect(put.status).toBe(200);
    expect(put.body.receiptReading).toEqual(created.body.receiptReading);
  });

  it('a file that is not a receipt is Unreadable with a reason, never an API error', async () => {
    const entry = (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-19', returnDate: '2026-11-20' }))
      .body;
    const attachmentId = await upload(stack, key, entry.id, 'landscape.jpg', NOT_A_RECEIPT.bytes);
    const reading = await readingDone(api, `/api/v1/travel-entries/${entry.id}/attachments/${attachmentId}/reading`);
    expect(reading.status).toBe(200);
    expect(reading.body.state).toBe(NOT_A_RECEIPT.truth.state);
    expect(reading.body.reason).toEqual(expect.any(String));
  });
});

describe('receipt readings: an engine that keeps failing', () => {
  let stack: EntriesStack;
  let receipts: RunningService;
  beforeAll(async () => {
    stack = await startEntriesStack('receipts-fail');
    // A real failure: every run is stopped by a 1 ms time-out; two attempts, a short back-off.
    receipts = await startReceipts({
      ...process.env,
      ...stack.env.vars,
      ENTRIES_URL: stack.entries.url,
      READING_TIMEOUT_MS: '1',
      READING_MAX_ATTEMPTS: '2',
      READING_RETRY_BASE_MS: '100',
      READING_IDLE_POLL_MS: '50',
    });
  });
  afterAll(async () => {
    await receipts?.stop();
    await stack?.stop();
  });

  it('is retried a bounded number of times, then Unreadable ("could not be read after 2 attempts")', async () => {
    const { api, apiKey } = await stack.tenant('HR');
    const entry = (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-19', returnDate: '2026-11-20' }))
      .body;
    const attachmentId = await upload(stack, apiKey, entry.id, 'hotel.jpg', HR_FISCAL.bytes);
    const reading = await readingDone(api, `/api/v1/travel-entries/${entry.id}/attachments/${attachmentId}/reading`);
    expect(reading.body).toMatchObject({ state: 'Unreadable', reason: 'could not be read after 2 attempts' });
  });
});
