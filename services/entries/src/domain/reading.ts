// A receipt's reading as entries keeps it: its projection of the receipts context's `receipts.reading.made`
// (docs/decisions/0200), and what an expense made from it records (docs/decisions/0201).
import type { EventBody } from '@travel/contracts';
import { decimal } from '@travel/money';
import { isUuid } from './ids';

export const READING_MADE = 'reading.made';

/** The event as contracts/events/internal/receipts.reading.made.schema.json describes it. */
export type ReadingMade = EventBody<'receipts.reading.made'>;
export type ReadingFields = ReadingMade['data']['fields'];

/** A reading done (Read or Unreadable); an image or PDF attachment without one is still `Pending`. */
export interface AttachmentReading {
  /** The attachment's id. */
  _id: string;
  tenantId: string;
  entryId: string;
  state: 'Read' | 'Unreadable';
  reason: string | null;
  engine: string;
  readAt: Date;
  attempts: number;
  fields: ReadingFields;
  lines: string[];
}

/** The event checked beyond its schema (ids the projection is keyed by); anything else is poison. */
export function parseReadingMade(body: unknown): ReadingMade {
  const e = body as Partial<ReadingMade> | null;
  const d = e?.data;
  if (
    !e ||
    e.type !== READING_MADE ||
    typeof e.tenantId !== 'string' ||
    !d ||
    ![d.entryId, d.attachmentId].every(isUuid)
  )
    throw new Error('not a receipts.reading.made event');
  return {
    ...(e as ReadingMade),
    data: { ...d, entryId: d.entryId.toLowerCase(), attachmentId: d.attachmentId.toLowerCase() },
  };
}

export function readingOf(event: ReadingMade): AttachmentReading {
  const d = event.data;
  return {
    _id: d.attachmentId,
    tenantId: event.tenantId,
    entryId: d.entryId,
    state: d.state,
    reason: d.reason,
    engine: d.engine,
    readAt: new Date(d.readAt),
    attempts: d.attempts,
    fields: d.fields,
    lines: d.lines,
  };
}

/** What an expense made from a reading keeps (read-only on the wire). */
export interface ReadingOrigin {
  attachmentId: string;
  engine: string;
  readAt: Date;
  /** The expense fields whose confirmed value differs from the proposal (or had none proposed). */
  corrected: ConfirmedField[];
}

/** The expense fields a reading proposes a value for, each against its proposal. */
export type ConfirmedField = 'amount' | 'currencyCode' | 'date';

/** What the caller confirmed, as the expense stores it (amount a decimal string). */
export interface Confirmed {
  amount: string | null;
  currencyCode: string;
  date: string;
}

const sameAmount = (a: string | null, b: string | undefined): boolean => {
  if (a === null || b === undefined) return false;
  try {
    return decimal(a).eq(decimal(b));
  } catch {
    return false;
  }
};

/**
 * The confirmed fields that are not the proposal: a value the caller typed over, or one the reading did
 * not propose. Amounts compare as decimals (12.5 is 12.50).
 */
export function correctedFields(fields: ReadingFields, confirmed: Confirmed): ConfirmedField[] {
  const corrected: ConfirmedField[] = [];
  if (!sameAmount(confirmed.amount, fields.totalAmount?.value)) corrected.push('amount');
  if (confirmed.currencyCode !== fields.currencyCode?.value) corrected.push('currencyCode');
  if (confirmed.date !== fields.date?.value) corrected.push('date');
  return corrected;
}
