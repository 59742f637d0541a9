// A receipt's reading in the receipts context (docs/decisions/0200): queued when its attachment is stored,
// taken by one replica at a time, then Read or Unreadable. Pure rules; the store and the engine are infra.
import type { EventBody, EventData } from '@travel/contracts';

export type Market = EventData<'entries.attachment.stored'>['market'];
export type ReadingFields = EventData<'receipts.reading.made'>['fields'];

/** What the engine answered (the engine's `ReceiptReading`, as this context keeps it). */
export interface EngineAnswer {
  state: 'Read' | 'Unreadable';
  reason?: string;
  engine: string;
  fields: ReadingFields;
  lines: string[];
}

export interface ReadingRecord {
  /** The attachment's id. */
  _id: string;
  tenantId: string;
  entryId: string;
  contentType: string;
  market: Market;
  state: 'Pending' | 'Read' | 'Unreadable';
  /**
   * Fair turn among the tenants (docs/decisions/0200): how many readings of the same tenant were waiting
   * when it was queued. The oldest of the lowest turn goes first, so one company's 500 receipts take
   * turns with another's single one instead of making it wait behind all of them.
   */
  turn: number;
  queuedAt: Date;
  /** Not taken before this (a back-off after a failed attempt). */
  notBefore: Date;
  /** A replica holds it until then; a replica that died lets it go when this passes. */
  leaseUntil: Date | null;
  attempts: number;
  reason: string | null;
  engine: string | null;
  readAt: Date | null;
  fields: ReadingFields;
  lines: string[];
  lastError: string | null;
}

export type StoredEvent = EventBody<'entries.attachment.stored'>;
export type RemovedEvent = EventBody<'entries.attachment.removed'>;

/** Either attachment event, as the one consumer of both gets it (schemas checked by the platform first). */
export type AttachmentEvent = StoredEvent | RemovedEvent;

export function parseAttachmentEvent(body: unknown): AttachmentEvent {
  const e = body as Partial<AttachmentEvent> | null;
  if (!e || (e.type !== 'attachment.stored' && e.type !== 'attachment.removed') || typeof e.tenantId !== 'string')
    throw new Error('not an entries.attachment.* event');
  return e as AttachmentEvent;
}

/** A new Pending reading of a stored attachment. */
export function queued(event: StoredEvent, turn: number, now: Date): ReadingRecord {
  const d = event.data;
  return {
    _id: d.attachmentId.toLowerCase(),
    tenantId: event.tenantId,
    entryId: d.entryId.toLowerCase(),
    contentType: d.contentType,
    market: d.market,
    state: 'Pending',
    turn,
    queuedAt: now,
    notBefore: now,
    leaseUntil: null,
    attempts: 0,
    reason: null,
    engine: null,
    readAt: null,
    fields: {},
    lines: [],
    lastError: null,
  };
}

/** What follows a failed attempt: another after a back-off, or Unreadable once the attempts are used up. */
export type AfterFailure = { retryAt: Date } | { unreadable: string };

export function afterFailure(
  attempts: number,
  maxAttempts: number,
  delayMs: (failures: number) => number,
  now: Date,
): AfterFailure {
  if (attempts >= maxAttempts) return { unreadable: `could not be read after ${attempts} attempts` };
  return { retryAt: new Date(now.getTime() + delayMs(attempts)) };
}

/** The engine's answer within the bounds of `receipts.reading.made` (lines and texts cut, never refused). */
export function bounded(answer: EngineAnswer): EngineAnswer {
  const cut = (s: string) => s.slice(0, 500);
  const f = answer.fields;
  return {
    ...answer,
    engine: answer.engine.slice(0, 200),
    fields: {
      ...f,
      ...(f.merchantName ? { merchantName: { ...f.merchantName, value: cut(f.merchantName.value) } } : {}),
    },
    lines: answer.lines.slice(0, 500).map(cut),
  };
}

/**
 * The answer without the proposals its event cannot carry. `bounded` cuts the texts to the schema's
 * lengths; a value the schema refuses otherwise (a 13-digit total, an over-long tax id, a rate out of its
 * form) would make entries refuse the whole event and the reading would stay Pending for ever. A proposal
 * is optional, the reading is not: each field the event's schema names in a problem is dropped, and the
 * answer is kept. `problemsOf` is the schema's check of the event the answer makes.
 */
export function carriable(answer: EngineAnswer, problemsOf: (answer: EngineAnswer) => string[]): EngineAnswer {
  let kept = answer;
  for (;;) {
    const problems = problemsOf(kept);
    if (!problems.length) return kept;
    const field = problems.map((p) => /^\/data\/fields\/(\w+)/.exec(p)?.[1]).find((f) => f && f in kept.fields);
    if (!field) return kept; // not a proposal's fault: the caller's check reports it
    const { [field]: _dropped, ...rest } = kept.fields as Record<string, unknown>;
    kept = { ...kept, fields: rest as EngineAnswer['fields'] };
  }
}

/** The reason text kept and shown: one line, bounded (the event's schema allows 500 characters). */
export const reasonText = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 500) || 'unreadable';
