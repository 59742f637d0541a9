// The readings' pure rules, from docs/decisions/0200: a run that throws is retried with the platform's
// doubling back-off until READING_MAX_ATTEMPTS runs were made, then Unreadable "could not be read after N
// attempts"; a finished reading always fits `receipts.reading.made` (cut, never refused); a new reading
// waits at its company's turn.
import { randomUUID } from 'node:crypto';
import { backoffDelayMs, eventProblems, raiseEvent, toMessage } from '@travel/platform';
import {
  afterFailure,
  bounded,
  carriable,
  parseAttachmentEvent,
  queued,
  reasonText,
  type EngineAnswer,
  type StoredEvent,
} from './reading';

const NOW = new Date('2026-11-20T10:00:00Z');
// READING_RETRY_BASE_MS 10 s, doubled, at most 300 s; 3 runs (the defaults of docs/configuration.md).
const policy = { baseMs: 10_000, maxDelayMs: 300_000, maxAttempts: 3 };
const delay = (n: number) => backoffDelayMs(policy, n);

describe('afterFailure: bounded retries with back-off (0200, issue 37 §3)', () => {
  it('the first failed run waits the base back-off, the second twice that', () => {
    expect(afterFailure(1, 3, delay, NOW)).toEqual({ retryAt: new Date(NOW.getTime() + 10_000) });
    expect(afterFailure(2, 3, delay, NOW)).toEqual({ retryAt: new Date(NOW.getTime() + 20_000) });
  });

  it('the last allowed run failing is Unreadable, naming how many runs were made', () => {
    expect(afterFailure(3, 3, delay, NOW)).toEqual({ unreadable: 'could not be read after 3 attempts' });
    expect(afterFailure(1, 1, delay, NOW)).toEqual({ unreadable: 'could not be read after 1 attempts' });
  });

  it('never waits longer than the cap, however many runs are allowed', () => {
    const next = afterFailure(19, 20, delay, NOW);
    expect(next).toEqual({ retryAt: new Date(NOW.getTime() + 300_000) });
  });
});

const answer = (over: Partial<EngineAnswer> = {}): EngineAnswer => ({
  state: 'Read',
  engine: 'tesseract 5.3.0 / receipt-rules 1',
  fields: {},
  lines: ['KONZUM d.d.', 'UKUPNO 12,50 EUR'],
  ...over,
});

/** The message a finished reading publishes, as ReadingsApp raises it. */
const madeEvent = (a: EngineAnswer) =>
  toMessage(
    raiseEvent(
      'receipts',
      'reading.made',
      randomUUID(),
      {
        entryId: randomUUID(),
        attachmentId: randomUUID(),
        state: a.state,
        reason: a.state === 'Unreadable' ? reasonText(a.reason ?? '') : null,
        engine: a.engine,
        readAt: NOW.toISOString(),
        attempts: 1,
        fields: a.fields,
        lines: a.lines,
      },
      NOW,
    ),
  );

describe('bounded: whatever the engine answers fits receipts.reading.made (0200)', () => {
  it('an answer within the bounds is kept as it is', () => {
    const a = answer({
      fields: {
        totalAmount: { value: '12.50', confidence: 1, source: 'fiscal-qr' },
        merchantName: { value: 'KONZUM d.d.', confidence: 0.8, source: 'ocr' },
      },
    });
    expect(bounded(a)).toEqual(a);
  });

  it('too many lines, too long lines, a long merchant name and a long engine name are cut, never refused', () => {
    const a = answer({
      engine: 'e'.repeat(1000),
      fields: { merchantName: { value: 'M'.repeat(2000), confidence: 0.5, source: 'ocr' } },
      lines: Array.from({ length: 1200 }, (_, i) => `${i} ${'x'.repeat(900)}`),
    });
    const b = bounded(a);
    // The schema is the bound: the event validates.
    expect(eventProblems('receipts.reading.made', madeEvent(b))).toEqual([]);
    expect(eventProblems('receipts.reading.made', madeEvent(a))).not.toEqual([]);
    // Cut from the end: the first lines (the top of the receipt) and the start of each text stay.
    expect(b.lines).toHaveLength(500);
    expect(b.lines[0]).toBe(a.lines[0]!.slice(0, 500));
    expect(b.fields.merchantName?.value).toBe('M'.repeat(500));
    expect(b.fields.merchantName?.confidence).toBe(0.5);
  });
});

describe('reasonText: the Unreadable reason shown', () => {
  it('is one line, at most 500 characters, never empty', () => {
    expect(reasonText('  no text\nfound \t on the page ')).toBe('no text found on the page');
    expect(reasonText('r'.repeat(600))).toHaveLength(500);
    expect(reasonText('')).toBe('unreadable');
    expect(reasonText(' \n ')).toBe('unreadable');
  });
});

const stored = (over: Partial<StoredEvent['data']> = {}): StoredEvent =>
  raiseEvent(
    'entries',
    'attachment.stored',
    randomUUID(),
    {
      entryId: randomUUID().toUpperCase(),
      attachmentId: randomUUID().toUpperCase(),
      contentType: 'image/jpeg',
      size: 1234,
      market: 'HR',
      ...over,
    },
    NOW,
  ) as StoredEvent;

describe('queued: a stored attachment becomes a Pending reading at its company turn (0200)', () => {
  it('is Pending, due now, unleased, no attempt made, at the turn given, keyed by the attachment', () => {
    const e = stored();
    const r = queued(e, 4, NOW);
    expect(r).toMatchObject({
      _id: e.data.attachmentId.toLowerCase(),
      entryId: e.data.entryId.toLowerCase(),
      tenantId: e.tenantId,
      market: 'HR',
      contentType: 'image/jpeg',
      state: 'Pending',
      turn: 4,
      queuedAt: NOW,
      notBefore: NOW,
      leaseUntil: null,
      attempts: 0,
      fields: {},
      lines: [],
    });
  });
});

describe('parseAttachmentEvent', () => {
  it('takes the two attachment events and refuses anything else as poison', () => {
    const e = stored();
    expect(parseAttachmentEvent(e)).toBe(e);
    expect(() => parseAttachmentEvent({ ...e, type: 'entry.updated' })).toThrow();
    expect(() => parseAttachmentEvent({ ...e, tenantId: 7 })).toThrow();
    expect(() => parseAttachmentEvent(null)).toThrow();
  });
});

describe('carriable: a proposal the event cannot carry is dropped, never the reading (0200)', () => {
  const problemsOf = (a: EngineAnswer) => eventProblems('receipts.reading.made', madeEvent(a));

  it('drops a total of 13 digits and an over-long tax id, keeps the other proposals, and the event is valid', () => {
    const a = answer({
      fields: {
        totalAmount: { value: '1234567890123.00', confidence: 0.4, source: 'ocr' },
        currencyCode: { value: 'EUR', confidence: 0.9, source: 'ocr' },
        merchantTaxId: { value: { scheme: 'HR-OIB', value: '9'.repeat(300) }, confidence: 0.5, source: 'ocr' },
        merchantName: { value: 'KONZUM d.d.', confidence: 0.8, source: 'ocr' },
      },
    });
    expect(problemsOf(a).length).toBeGreaterThan(0);
    const kept = carriable(bounded(a), problemsOf);
    expect(Object.keys(kept.fields).sort()).toEqual(['currencyCode', 'merchantName']);
    expect(kept.lines).toEqual(a.lines);
    expect(problemsOf(kept)).toEqual([]);
  });

  it('keeps an answer the event carries as it is', () => {
    const a = answer({ fields: { totalAmount: { value: '12.50', confidence: 1, source: 'fiscal-qr' } } });
    expect(carriable(a, problemsOf)).toBe(a);
  });
});
