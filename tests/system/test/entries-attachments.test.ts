// Attachments through the gateway: multipart upload of up to 5 files (more, or a file over 10 MiB: 413),
// images decoded for real (undecodable bytes: 400 under errors.File, never 500), PDF by its signature,
// bytes kept in GridFS and streamed back with their content type, delete; entry.updated on each change.
import { crossTenant } from '@travel/platform';
import { registerModels } from '@travel/entries/src/infra/models';
import type { ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

// Direct store probes of the test look across tenants on purpose (docs/decisions/0081).
const TEST_PROBE = crossTenant('test probe');

// A valid 1×1 PNG, and the same file cut short.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const TRUNCATED_PNG = PNG.subarray(0, 40);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('entries: attachments', () => {
  let stack: EntriesStack;
  let api: ApiClient;
  let key: string;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-attach');
    const t = await stack.tenant('SI');
    api = t.api;
    key = t.apiKey;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const entry = async () =>
    (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-19', returnDate: '2026-11-20' })).body;

  async function upload(entryId: string, files: { name: string; type: string; bytes: Buffer }[], field = 'files') {
    const form = new FormData();
    for (const f of files) form.append(field, new Blob([f.bytes], { type: f.type }), f.name);
    const res = await fetch(`${stack.gateway.url}/api/v1/travel-entries/${entryId}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  it('stores images and PDFs, lists them on the entry, streams them back with their type, deletes them', async () => {
    const e = await entry();
    const res = await upload(e.id, [
      { name: 'receipt.png', type: 'image/png', bytes: PNG },
      { name: 'invoice.pdf', type: 'application/pdf', bytes: PDF },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.items).toHaveLength(2);
    expect(res.body.items[0]).toMatchObject({ fileName: 'receipt.png', contentType: 'image/png', size: PNG.length });
    const detail = (await api.get(`/api/v1/travel-entries/${e.id}`)).body;
    expect(detail.attachments).toEqual(res.body.items);

    const download = await fetch(
      `${stack.gateway.url}/api/v1/travel-entries/${e.id}/attachments/${res.body.items[0].id}`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);

    // A GET body PUT back keeps the attachments (read-only on the entry).
    expect((await api.put(`/api/v1/travel-entries/${e.id}`, detail)).body.attachments).toEqual(res.body.items);

    expect((await api.delete(`/api/v1/travel-entries/${e.id}/attachments/${res.body.items[0].id}`)).status).toBe(204);
    expect((await api.get(`/api/v1/travel-entries/${e.id}/attachments/${res.body.items[0].id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/travel-entries/${e.id}`)).body.attachments).toEqual([res.body.items[1]]);
  });

  it('an image whose bytes do not decode is 400 VALIDATION_FAILED under errors.File, and nothing is stored', async () => {
    const e = await entry();
    const res = await upload(e.id, [
      { name: 'ok.png', type: 'image/png', bytes: PNG },
      { name: 'broken.png', type: 'image/png', bytes: TRUNCATED_PNG },
      { name: 'fake.jpg', type: 'image/jpeg', bytes: Buffer.from('not an image at all') },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(res.body.errors)).toEqual(['File']);
    expect(res.body.errors.File).toHaveLength(2);
    expect((await api.get(`/api/v1/travel-entries/${e.id}`)).body.attachments).toEqual([]);
    const files = await stack.entries.deps.mongo
      .db!.collection('attachments.files')
      .countDocuments({ 'metadata.entryId': e.id });
    expect(files).toBe(0);
  });

  it('a multipart body whose part has no headers is 400 VALIDATION_FAILED, not 500 (found by the API fuzz)', async () => {
    const e = await entry();
    const res = await fetch(`${stack.gateway.url}/api/v1/travel-entries/${e.id}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'multipart/form-data; boundary=b0undary' },
      body: '--b0undary\r\n[1, {"a": {}}]--b0undary--\r\n',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('other types, a fake PDF and an empty upload are 400 under errors.File', async () => {
    const e = await entry();
    for (const files of [
      [{ name: 'a.exe', type: 'application/octet-stream', bytes: Buffer.from('MZ') }],
      [{ name: 'b.pdf', type: 'application/pdf', bytes: Buffer.from('hello') }],
      [],
    ]) {
      const res = await upload(e.id, files);
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty('File');
    }
  });

  it('a multipart body whose part header cannot be read is 400 VALIDATION_FAILED, never 500 (issue 21)', async () => {
    const e = await entry();
    // What schemathesis sent: a part whose name is not valid UTF-8 (lone surrogates written as bytes).
    const boundary = 'b0f3a9c1d2e4';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`),
      Buffer.from([0xc3, 0x81, 0xf4, 0x80, 0x99, 0xbb]),
      Buffer.from(`"\r\n\r\n{"a":1}\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${stack.gateway.url}/api/v1/travel-entries/${e.id}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
  });

  it('more than 5 files in one request, or a file over 10 MiB, is 413 PAYLOAD_TOO_LARGE', async () => {
    const e = await entry();
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `r${i}.png`, type: 'image/png', bytes: PNG }));
    const res = await upload(e.id, six);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    const big = await upload(e.id, [{ name: 'big.png', type: 'image/png', bytes: Buffer.alloc(10 * 1024 * 1024 + 1) }]);
    expect(big.status).toBe(413);
    const five = await upload(e.id, six.slice(0, 5));
    expect(five.status).toBe(201);
  });

  describe('multipart entry create (an `entry` JSON part and `attachments` files)', () => {
    async function createMultipart(entry: unknown, files: { name: string; type: string; bytes: Buffer }[]) {
      const form = new FormData();
      form.append('entry', typeof entry === 'string' ? entry : JSON.stringify(entry));
      for (const f of files) form.append('attachments', new Blob([f.bytes], { type: f.type }), f.name);
      const res = await fetch(`${stack.gateway.url}/api/v1/travel-entries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as any };
    }

    it('creates the entry with its attachments in one call', async () => {
      const res = await createMultipart(
        { departureDate: '2026-11-19', returnDate: '2026-11-20', destination: 'Koper' },
        [
          { name: 'r.png', type: 'image/png', bytes: PNG },
          { name: 'i.pdf', type: 'application/pdf', bytes: PDF },
        ],
      );
      expect(res.status).toBe(201);
      expect(res.body.destination).toBe('Koper');
      expect(res.body.attachments.map((a: { fileName: string }) => a.fileName)).toEqual(['r.png', 'i.pdf']);
      expect((await api.get(`/api/v1/travel-entries/${res.body.id}`)).body.attachments).toEqual(res.body.attachments);
    });

    it('an undecodable image is 400 under errors.attachments, and nothing is stored (no entry, no bytes)', async () => {
      const { Entry } = registerModels(stack.entries.deps.mongo);
      const files = stack.entries.deps.mongo.db!.collection('attachments.files');
      const [entriesBefore, filesBefore] = [await Entry.countDocuments({}, TEST_PROBE), await files.countDocuments({})];
      const res = await createMultipart({ departureDate: '2026-11-19', returnDate: '2026-11-20' }, [
        { name: 'ok.png', type: 'image/png', bytes: PNG },
        { name: 'broken.png', type: 'image/png', bytes: TRUNCATED_PNG },
      ]);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.body.errors)).toEqual(['attachments']);
      expect([await Entry.countDocuments({}, TEST_PROBE), await files.countDocuments({})]).toEqual([
        entriesBefore,
        filesBefore,
      ]);
    });

    it('the entry part is checked like the JSON body, with the same field keys', async () => {
      const bad = await createMultipart(
        { departureDate: '2026-11-19', returnDate: '2026-11-20', extra: 1, advancePayment: 'x' },
        [],
      );
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['advancePayment', 'extra']);
      const notJson = await createMultipart('{nope', []);
      expect(notJson.status).toBe(400);
      expect(notJson.body.errors).toHaveProperty('entry');
      const invalidRule = await createMultipart({ departureDate: '2026-11-19', returnDate: '2026-11-18' }, [
        { name: 'r.png', type: 'image/png', bytes: PNG },
      ]);
      expect(invalidRule.status).toBe(400);
      expect(invalidRule.body.errors).toHaveProperty('returnDate');
    });
  });

  it("a locked entry is 409, another tenant's entry 404", async () => {
    const e = await entry();
    await registerModels(stack.entries.deps.mongo).Entry.updateOne({ _id: e.id }, { $set: { status: 1 } }, TEST_PROBE);
    expect((await upload(e.id, [{ name: 'r.png', type: 'image/png', bytes: PNG }])).status).toBe(409);
    const other = await stack.tenant('SI');
    const res = await fetch(`${stack.gateway.url}/api/v1/travel-entries/${e.id}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.apiKey}` },
      body: (() => {
        const f = new FormData();
        f.append('files', new Blob([PNG], { type: 'image/png' }), 'r.png');
        return f;
      })(),
    });
    expect(res.status).toBe(404);
  });
});
