import type { mongo } from 'mongoose';

type Document = mongo.Document;
type Collection<T extends Document> = mongo.Collection<T>;
type AnyBulkWriteOperation<T extends Document> = mongo.AnyBulkWriteOperation<T>;

/** One attempt's record: a compare-and-set update of its delivery row that carries a unique `token`. */
export interface OutcomeWrite {
  deliveryId: string;
  filter: Document;
  update: Document;
  /** Written into the attempt's log row: tells which of the batch's updates took effect. */
  token: string;
}

interface Queued {
  write: OutcomeWrite;
  resolve: (won: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Most statements in one `update` command (docs/decisions/0087). MongoDB takes 100,000; FerretDB v1.24
 * upstream held one pooled SQLite connection (of 100) per matching statement until the command ended and
 * stalled for good at the 100th. Our patched build no longer does, but a store running an older build
 * (a shared test server started before the fix) must not be wedged by a burst, and a smaller command
 * holds the store's per-collection write lock for a shorter time.
 */
export const MAX_STATEMENTS_PER_COMMAND = 64;

/**
 * Writes attempt outcomes in batches (docs/decisions/0060): what arrives within `windowMs` (or `maxBatch`
 * writes, at most MAX_STATEMENTS_PER_COMMAND) goes out as one `bulkWrite`, which the driver sends as one ordinary `update` command with many
 * statements. Each caller's promise settles only after that command answered, so its broker message is
 * acknowledged only once its outcome is stored. When some compare-and-set did not match, the rows are read
 * back once to tell, by token, which attempts won. A failed command fails every write of the batch (their
 * messages are retried; the compare-and-set makes a repeated write harmless).
 */
export class OutcomeWriter {
  private queue: Queued[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly collection: () => Collection<Document>,
    private readonly windowMs = 5,
    private readonly maxBatch = MAX_STATEMENTS_PER_COMMAND,
  ) {}

  /** Resolves true when this write took effect, false when another attempt recorded the row first. */
  write(write: OutcomeWrite): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (this.queue.length >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) void this.send(batch);
  }

  private async send(batch: Queued[]): Promise<void> {
    try {
      const ops: AnyBulkWriteOperation<Document>[] = batch.map(({ write }) => ({
        updateOne: { filter: write.filter, update: write.update },
      }));
      const result = await this.collection().bulkWrite(ops, { ordered: false });
      if (result.modifiedCount === batch.length) {
        for (const q of batch) q.resolve(true);
        return;
      }
      const rows = await this.collection()
        .find(
          { _id: { $in: [...new Set(batch.map((q) => q.write.deliveryId))] } as never },
          {
            projection: { attemptLog: 1 },
          },
        )
        .toArray();
      const tokens = new Set<string>();
      for (const row of rows)
        for (const a of (row.attemptLog ?? []) as Array<{ token?: string }>) if (a.token) tokens.add(a.token);
      for (const q of batch) q.resolve(tokens.has(q.write.token));
    } catch (err) {
      for (const q of batch) q.reject(err);
    }
  }
}
