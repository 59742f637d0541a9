// Issue 37 §1 and §3 through the gateway, on real RabbitMQ and FerretDB: every image or PDF attachment gets
// a reading (Pending, then Read or Unreadable), with the attachment's visibility; an expense is created
// from it with the caller's confirmed values and records where it came from; a deleted attachment's
// reading is gone; an engine that keeps failing ends in Unreadable after a bounded number of attempts.
import sharp from 'sharp';
import type { RunningService } from '@travel/platform';
import type { ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

// Loaded by the suites that run it, so the Pending suite runs without loading the engine.
const startReceipts = async (env: NodeJS.ProcessEnv) => (await import('@travel/receipts/src/service')).start(env);

/** A receipt rendered with real fonts (sharp draws SVG text): a Croatian parking receipt. */
async function renderedReceipt(lines: string[]): Promise<Buffer> {
  const text = lines
    .map(
      (l, i) => `<text x="40" y="${70 + i * 44}" font-family="DejaVu Sans Mono, monospace" font-size="30">${l}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="760" height="${120 + lines.length * 44}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
const RECEIPT_LINES = [
  'GARAZA CENTAR d.o.o.',
  'Ilica 10, Zagreb',
  'OIB: 12345678903',
  'Racun br. 104/1/1',
  'Datum: 20.11.2026. 15:58',
  'Parkiranje 3h      10,00',
  'PDV 25%             2,50',
  'UKUPNO EUR         12,50',
];

/** Not a receipt: a photo-sized grey square with nothing on it. */
const BLANK = () =>
  sharp({ create: { width: 600, height: 600, channels: 3, background: { r: 128, g: 128, b: 128 } } })
    .png()
    .toBuffer();

async function upload(stack: EntriesStack, key: string, entryId: string, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append('files', new Blob([bytes], { type: 'image/png' }), name);
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
    const attachmentId = await upload(stack, key, entry.id, 'receipt.png', await renderedReceipt(RECEIPT_LINES));
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
    const attachmentId = await upload(stack, key, entry.id, 'parking.png', await renderedReceipt(RECEIPT_LINES));
    const reading = await readingDone(api, `/api/v1/travel-entries/${entry.id}/attachments/${attachmentId}/reading`);
    expect(reading.status).toBe(200);
    expect(reading.body.state).toBe('Read');
    expect(reading.body.fields.totalAmount.value).toBe('12.50');
    expect(reading.body.fields.totalAmount.confidence).toBeGreaterThan(0);
    expect(reading.body.lines.length).toBeGreaterThan(0);

    // The caller confirms the amount and currency as read and corrects the date.
    const created = await api.post(`/api/v1/travel-entries/${entry.id}/expenses`, {
      kind: 'Parking',
      date: '2026-11-19',
      amount: 12.5,
      currencyCode: 'EUR',
      fromReading: attachmentId,
    });
    expect(created.status).toBe(201);
    expect(created.body.amount).toBe(12.5);
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
    const attachmentId = await upload(stack, key, entry.id, 'blank.png', await BLANK());
    const reading = await readingDone(api, `/api/v1/travel-entries/${entry.id}/attachments/${attachmentId}/reading`);
    expect(reading.status).toBe(200);
    expect(reading.body.state).toBe('Unreadable');
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
    const attachmentId = await upload(stack, apiKey, entry.id, 'parking.png', await renderedReceipt(RECEIPT_LINES));
    const reading = await readingDone(api, `/api/v1/travel-entries/${entry.id}/attachments/${attachmentId}/reading`);
    expect(reading.body).toMatchObject({ state: 'Unreadable', reason: 'could not be read after 2 attempts' });
  });
});
