// The back-fill of attachments stored before the receipts service existed (docs/decisions/0202): they were
// never announced, so they would stay `Pending` for ever. Each such entry announces its image and PDF
// attachments (`entries.attachment.stored`, in its outbox) and is marked in the same write, so it is done
// once whichever replica gets there first. Batches with a pause between them: a company with 100,000
// attachments makes many small writes, not one huge one nor one burst (the receipts queue is fair anyway).
import { parseTenantId, RevisionConflict, type Logger, type Market } from '@travel/platform';
import type { EntriesRepositories } from '../infra/repositories';
import { attachmentsStored } from './attachments';

/** The company's market, the reading's hint; null: the company is not known (nothing to read it for). */
export interface CompanyMarkets {
  marketOf(tenantId: string): Promise<Market | null>;
}

export interface BackfillOptions {
  /** Entries per batch. */
  batchSize: number;
  /** Pause between batches, in ms. */
  pauseMs: number;
  /** After a failed pass (employees away, the store away), the next try, in ms. */
  retryMs: number;
}

export const BACKFILL_DEFAULTS: BackfillOptions = { batchSize: 100, pauseMs: 1_000, retryMs: 60_000 };

export class ReadingBackfill {
  private started = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries' | 'readingsNotAnnounced'>,
    private readonly markets: CompanyMarkets,
    private readonly logger: Logger,
    private readonly options: BackfillOptions = BACKFILL_DEFAULTS,
  ) {}

  /** Runs passes in the background until one finds nothing left; a failed pass is tried again later. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  /**
   * One pass over every entry not yet announced: how many attachments it announced, and how many entries
   * another write changed first (left for the next pass).
   */
  async pass(): Promise<{ announced: number; conflicts: number }> {
    const markets = new Map<string, Market | null>();
    let announced = 0;
    let conflicts = 0;
    let after = '';
    for (;;) {
      const batch = await this.repos.readingsNotAnnounced(after, this.options.batchSize);
      if (!batch.length) return { announced, conflicts };
      for (const doc of batch) {
        if (!markets.has(doc.tenantId)) markets.set(doc.tenantId, await this.markets.marketOf(doc.tenantId));
        const market = markets.get(doc.tenantId);
        const now = new Date();
        // A company employees does not know has nobody to read it for: marked, nothing announced.
        const events = market
          ? attachmentsStored({ tenantId: doc.tenantId, market }, doc._id, doc.attachments ?? [], now)
          : [];
        try {
          await this.repos.entries
            .of(parseTenantId(doc.tenantId))
            .commit(doc, { $set: { readingsAnnounced: true }, where: { deletedAt: null } }, ...events);
          announced += events.length;
        } catch (err) {
          // Another replica's pass, or a user's write, came first: the next pass looks at it again.
          if (!(err instanceof RevisionConflict)) throw err;
          conflicts += 1;
        }
      }
      after = batch[batch.length - 1]!._id;
      if (this.stopped) return { announced, conflicts };
      await this.pause(this.options.pauseMs);
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const { announced, conflicts } = await this.pass();
        if (announced) this.logger.info({ announced }, 'attachments stored before the receipts service announced');
        if (!conflicts) return;
      } catch (err) {
        this.logger.warn({ err: (err as Error).message }, 'attachment back-fill: pass failed, trying again later');
        await this.pause(this.options.retryMs);
      }
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
