// The real engine (Tesseract, zbarimg, poppler: installed by scripts/bootstrap.sh) on the committed samples
// of the generated set. Expectations are the generator's truth (the JSON beside each sample), not the
// engine's output. The samples: packages/receipt-reading/scripts/generate.py, seed 37.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readReceipt, type ReceiptReading } from '../src';

const FIXTURES = join(__dirname, 'fixtures');

interface Truth {
  market: 'HR' | 'SI' | 'SK' | 'CZ' | 'PL';
  state: 'Read' | 'Unreadable';
  kind: string;
  file: string;
  fields: Record<string, unknown>;
}

const truth = (id: string) => JSON.parse(readFileSync(join(FIXTURES, `${id}.json`), 'utf8')) as Truth;

async function read(id: string): Promise<{ t: Truth; r: ReceiptReading }> {
  const t = truth(id);
  const bytes = readFileSync(join(FIXTURES, t.file));
  const r = await readReceipt({
    bytes,
    contentType: t.file.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg',
    market: t.market,
  });
  return { t, r };
}

const value = (r: ReceiptReading, field: keyof ReceiptReading['fields']) => r.fields[field]?.value;

describe('readReceipt on the committed samples', () => {
  it("a Croatian receipt photo: the fiscal QR's exact total, date and time, confidence 1", async () => {
    const { t, r } = await read('hr-002');
    expect(r.state).toBe('Read');
    expect(r.fields.totalAmount).toEqual({ value: t.fields.totalAmount, confidence: 1, source: 'fiscal-qr' });
    expect(value(r, 'date')).toBe(t.fields.date);
    expect(String(t.fields.time).startsWith(String(value(r, 'time')))).toBe(true); // the QR has minutes
    expect(value(r, 'currencyCode')).toBe(t.fields.currencyCode);
    expect(value(r, 'merchantTaxId')).toEqual(t.fields.merchantTaxId);
    expect(r.engine).toMatch(/^tesseract \d/);
  });

  it('an upside-down Croatian photo reads the right way up', async () => {
    const { t, r } = await read('hr-004');
    expect(t.kind).toBe('photo-upside-down');
    expect(r.state).toBe('Read');
    expect(value(r, 'totalAmount')).toBe(t.fields.totalAmount);
    expect(value(r, 'merchantTaxId')).toEqual(t.fields.merchantTaxId);
  });

  it.each(['si-004', 'pl-003'])('%s: total, date, currency and tax id from OCR', async (id) => {
    const { t, r } = await read(id);
    expect(r.state).toBe('Read');
    expect(value(r, 'totalAmount')).toBe(t.fields.totalAmount);
    expect(value(r, 'date')).toBe(t.fields.date);
    expect(value(r, 'currencyCode')).toBe(t.fields.currencyCode);
    expect(value(r, 'merchantTaxId')).toEqual(t.fields.merchantTaxId);
    expect(r.lines.length).toBeGreaterThan(5);
  });

  it('a text PDF is read from its text, every field exact', async () => {
    const { t, r } = await read('cz-000');
    expect(r.state).toBe('Read');
    expect(r.fields.totalAmount?.source).toBe('pdf-text');
    for (const field of [
      'totalAmount',
      'currencyCode',
      'date',
      'time',
      'merchantName',
      'merchantTaxId',
      'vat',
    ] as const) {
      expect([field, value(r, field)]).toEqual([field, t.fields[field]]);
    }
  });

  it('a scanned PDF is rendered and read like a photo', async () => {
    const { t, r } = await read('sk-001');
    expect(t.kind).toBe('scanned-pdf');
    expect(r.state).toBe('Read');
    expect(value(r, 'totalAmount')).toBe(t.fields.totalAmount);
    expect(value(r, 'merchantTaxId')).toEqual(t.fields.merchantTaxId);
  });

  it.each(['none-000', 'none-001'])('%s (not a receipt) is Unreadable with a reason', async (id) => {
    const { t, r } = await read(id);
    expect(t.state).toBe('Unreadable');
    expect(r.state).toBe('Unreadable');
    expect(r.reason).toMatch(/no text found|not a receipt/);
    expect(r.fields).toEqual({});
  });

  it('bad input is Unreadable, never an error: empty, not an image, a PDF that does not open', async () => {
    const cases: Array<[Buffer, string, RegExp]> = [
      [Buffer.alloc(0), 'image/jpeg', /empty/],
      [Buffer.from('hello, not a picture'), 'image/png', /not an image or PDF/],
      [Buffer.from('%PDF-1.4\ngarbage'), 'application/pdf', /PDF cannot be opened/],
      [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]), 'image/jpeg', /not an image or PDF|cannot be decoded/],
    ];
    for (const [bytes, contentType, reason] of cases) {
      const r = await readReceipt({ bytes, contentType });
      expect(r.state).toBe('Unreadable');
      expect(r.reason).toMatch(reason);
    }
  });

  it('a tiny image is Unreadable: image too small', async () => {
    const sharp = (await import('sharp')).default;
    const bytes = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await readReceipt({ bytes, contentType: 'image/png' })).toMatchObject({
      state: 'Unreadable',
      reason: 'image too small',
    });
  });

  it('an abort stops the engine and throws, so the caller can retry', async () => {
    const t = truth('si-004');
    const controller = new AbortController();
    const reading = readReceipt(
      { bytes: readFileSync(join(FIXTURES, t.file)), contentType: 'image/jpeg', market: 'SI' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(reading).rejects.toMatchObject({ name: 'ReadingEngineError' });
  });
});
