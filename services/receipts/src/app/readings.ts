// The readings' use cases (docs/decisions/0200): queue a stored attachment, drop a removed one, and read
// the next one due, fairly across tenants, one at a time per replica.
import {
  backoffDelayMs,
  eventProblems,
  parseTenantId,
  raiseEvent,
  toMessage,
  type Logger,
  type RetryPolicy,
} from '@travel/platform';
import {
  afterFailure,
  bounded,
  carriable,
  queued,
  reasonText,
  type AttachmentEvent,
  type EngineAnswer,
  type ReadingRecord,
} from '../domain/reading';
import type { ReadingStore } from '../infra/reading-store';
import type { AttachmentSource, ReceiptReader } from './ports';

/** readings_total{outcome}, reading_duration_seconds{outcome}: what the runbook watches. */
export interface ReadingMetrics {
  observe(outcome: 'read' | 'unreadable' | 'failed' | 'exhausted', seconds: number): void;
}

export interface ReadingSettings {
  timeoutMs: number;
  maxAttempts: number;
  retry: RetryPolicy;
}

/** What one `readNext` did. */
export type Step = 'idle' | 'read' | 'unreadable' | 'retry' | 'exhausted' | 'gone' | 'deferred';

export class ReadingsApp {
  constructor(
    private readonly store: ReadingStore,
    private readonly source: AttachmentSource,
    private readonly reader: ReceiptReader,
    private readonly settings: ReadingSettings,
    private readonly metrics: ReadingMetrics,
    private readonly logger: Logger,
  ) {}

  /** A stored attachment is queued at its tenant's turn; a removed one's reading goes. */
  async onAttachment(event: AttachmentEvent): Promise<void> {
    const tenantId = parseTenantId(event.tenantId);
    if (event.type === 'attachment.removed') return this.store.remove(tenantId, event.data.attachmentId.toLowerCase());
    await this.store.queue(queued(event, await this.store.waiting(tenantId), new Date()));
  }

  /** Reads the next due reading of any tenant, if there is one. Never throws for the reading's sake. */
  async readNext(): Promise<Step> {
    const now = new Date();
    // The lease outlasts one engine run (its time-out) plus fetching the bytes and storing the outcome.
    const held = await this.store.claim(now, this.settings.timeoutMs + 60_000);
    if (!held) return 'idle';
    let file: { bytes: Buffer; contentType: string } | null;
    try {
      file = await this.source.bytes(held.tenantId, held.entryId, held._id);
    } catch (err) {
      // entries away: not the engine's failure, so no attempt is used up.
      await this.store.release(held, new Date(Date.now() + this.settings.retry.baseMs), message(err), false);
      return 'deferred';
    }
    if (!file) {
      await this.store.remove(parseTenantId(held.tenantId), held._id);
      return 'gone';
    }
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    let answer: EngineAnswer;
    try {
      answer = await this.reader.read(
        { bytes: file.bytes, contentType: file.contentType, market: held.market },
        AbortSignal.timeout(this.settings.timeoutMs),
      );
    } catch (err) {
      return this.failed(held, err, seconds());
    }
    const outcome = answer.state === 'Read' ? 'read' : 'unreadable';
    this.metrics.observe(outcome, seconds());
    await this.finish(held, bounded(answer));
    return outcome;
  }

  /** An engine run that threw: another attempt after a back-off, or Unreadable once they are used up. */
  private async failed(held: ReadingRecord, err: unknown, seconds: number): Promise<Step> {
    const now = new Date();
    const next = afterFailure(
      held.attempts,
      this.settings.maxAttempts,
      (n) => backoffDelayMs(this.settings.retry, n),
      now,
    );
    this.logger.warn(
      { attachmentId: held._id, tenantId: held.tenantId, attempts: held.attempts, err: message(err) },
      'receipt reading failed',
    );
    if ('retryAt' in next) {
      this.metrics.observe('failed', seconds);
      await this.store.release(held, next.retryAt, message(err), true);
      return 'retry';
    }
    this.metrics.observe('exhausted', seconds);
    await this.finish(
      held,
      { state: 'Unreadable', reason: next.unreadable, engine: 'none', fields: {}, lines: [] },
      message(err),
    );
    return 'exhausted';
  }

  private async finish(held: ReadingRecord, raw: EngineAnswer, lastError: string | null = null): Promise<void> {
    const readAt = new Date();
    const reason = raw.state === 'Unreadable' ? reasonText(raw.reason ?? '') : null;
    const eventOf = (a: EngineAnswer) =>
      raiseEvent(
        'receipts',
        'reading.made',
        held.tenantId,
        {
          entryId: held.entryId,
          attachmentId: held._id,
          state: a.state,
          reason,
          engine: a.engine,
          readAt: readAt.toISOString(),
          attempts: held.attempts,
          fields: a.fields,
          lines: a.lines,
        },
        readAt,
      );
    const answer = carriable(raw, (a) => eventProblems('receipts.reading.made', toMessage(eventOf(a))));
    if (answer !== raw)
      this.logger.warn(
        { attachmentId: held._id, dropped: Object.keys(raw.fields).filter((f) => !(f in answer.fields)) },
        'reading proposals the event cannot carry were dropped',
      );
    const event = eventOf(answer);
    const stored = await this.store.finish(
      held,
      {
        state: answer.state,
        reason,
        engine: answer.engine,
        readAt,
        fields: answer.fields,
        lines: answer.lines,
        lastError,
      },
      event,
    );
    // Removed meanwhile, or its lease ran out and another replica took it: that one's outcome stands.
    if (!stored) this.logger.info({ attachmentId: held._id }, 'reading outcome not stored (removed or taken over)');
  }
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err)).slice(0, 500);
