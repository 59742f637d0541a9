// What an expense made from a reading records (docs/decisions/0201): `corrected` lists the expense fields a
// reading proposes for (amount against totalAmount, compared as decimals; currencyCode; date) whose
// confirmed value differs from the proposal, or that had no proposal. And the projection's event check.
import { randomUUID } from 'node:crypto';
import { correctedFields, parseReadingMade, readingOf, type ReadingFields } from './reading';

const proposal: ReadingFields = {
  totalAmount: { value: '12.50', confidence: 1, source: 'fiscal-qr' },
  currencyCode: { value: 'EUR', confidence: 0.9, source: 'ocr' },
  date: { value: '2026-11-20', confidence: 1, source: 'fiscal-qr' },
  time: { value: '14:03', confidence: 1, source: 'fiscal-qr' },
};

describe('correctedFields (0201)', () => {
  it('nothing typed over: nothing corrected; 12.5 confirms 12.50 (decimals, not text)', () => {
    expect(correctedFields(proposal, { amount: '12.50', currencyCode: 'EUR', date: '2026-11-20' })).toEqual([]);
    expect(correctedFields(proposal, { amount: '12.5', currencyCode: 'EUR', date: '2026-11-20' })).toEqual([]);
    expect(correctedFields(proposal, { amount: '12.5000', currencyCode: 'EUR', date: '2026-11-20' })).toEqual([]);
  });

  it('each field typed over is named, and only that one', () => {
    expect(correctedFields(proposal, { amount: '12.51', currencyCode: 'EUR', date: '2026-11-20' })).toEqual(['amount']);
    expect(correctedFields(proposal, { amount: '12.50', currencyCode: 'HRK', date: '2026-11-20' })).toEqual([
      'currencyCode',
    ]);
    expect(correctedFields(proposal, { amount: '12.50', currencyCode: 'EUR', date: '2026-11-19' })).toEqual(['date']);
    expect(correctedFields(proposal, { amount: '1250', currencyCode: 'CZK', date: '2025-11-20' })).toEqual([
      'amount',
      'currencyCode',
      'date',
    ]);
  });

  it('a field the reading did not propose is corrected (an Unreadable reading: every field)', () => {
    const { totalAmount: _t, ...noAmount } = proposal;
    expect(correctedFields(noAmount, { amount: '12.50', currencyCode: 'EUR', date: '2026-11-20' })).toEqual(['amount']);
    expect(correctedFields({}, { amount: '12.50', currencyCode: 'EUR', date: '2026-11-20' })).toEqual([
      'amount',
      'currencyCode',
      'date',
    ]);
  });

  it('an expense without an amount (none confirmed) counts the proposed amount as corrected', () => {
    expect(correctedFields(proposal, { amount: null, currencyCode: 'EUR', date: '2026-11-20' })).toEqual(['amount']);
  });
});

const made = (data: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  type: 'reading.made',
  tenantId: randomUUID(),
  occurredAt: '2026-11-20T10:00:00.000Z',
  data: {
    entryId: randomUUID().toUpperCase(),
    attachmentId: randomUUID().toUpperCase(),
    state: 'Read',
    reason: null,
    engine: 'tesseract',
    readAt: '2026-11-20T10:00:00.000Z',
    attempts: 1,
    fields: proposal,
    lines: ['UKUPNO 12,50'],
    ...data,
  },
});

describe('parseReadingMade and readingOf: the projection of receipts.reading.made (0200)', () => {
  it('keys the projection by lower-case ids and keeps what was read', () => {
    const e = made();
    const r = readingOf(parseReadingMade(e));
    expect(r).toEqual({
      _id: e.data.attachmentId.toLowerCase(),
      tenantId: e.tenantId,
      entryId: e.data.entryId.toLowerCase(),
      state: 'Read',
      reason: null,
      engine: 'tesseract',
      readAt: new Date('2026-11-20T10:00:00.000Z'),
      attempts: 1,
      fields: proposal,
      lines: ['UKUPNO 12,50'],
    });
  });

  it('an event of another type or without ids is poison', () => {
    expect(() => parseReadingMade({ ...made(), type: 'attachment.stored' })).toThrow();
    expect(() => parseReadingMade(made({ attachmentId: 'not-an-id' }))).toThrow();
    expect(() => parseReadingMade(made({ entryId: undefined }))).toThrow();
    expect(() => parseReadingMade(null)).toThrow();
  });
});
