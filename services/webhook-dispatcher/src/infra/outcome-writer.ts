import { MicroBatcher, type BatchResult } from '@travel/platform';
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
  private readonly batcher: MicroBatcher<OutcomeWrite, boolean>;

  constructor(
    private readonly collection: () => Collection<Document>,
    windowMs = 5,
    maxBatch = MAX_STATEMENTS_PER_COMMAND,
  ) {
    this.batcher = new MicroBatcher((writes) => this.send(writes), { windowMs, maxSize: maxBatch });
  }

  /** Resolves true when this write took effect, false when another attempt recorded the row first. */
  write(write: OutcomeWrite): Promise<boolean> {
    return this.batcher.add(write);
  }

  private async send(batch: OutcomeWrite[]): Promise<BatchResult<boolean>[]> {
    const won = (value: boolean): BatchResult<boolean> => ({ ok: true, value });
    const ops: AnyBulkWriteOperation<Document>[] = batch.map((write) => ({
      updateOne: { filter: write.filter, update: write.update },
    }));
    const result = await this.collection().bulkWrite(ops, { ordered: false });
    if (result.modifiedCount === batch.length) return batch.map(() => won(true));
    const rows = await this.collection()
      .find({ _id: { $in: [...new Set(batch.map((w) => w.deliveryId))] } as never }, { projection: { attemptLog: 1 } })
      .toArray();
    const tokens = new Set<string>();
    for (const row of rows)
      for (const a of (row.attemptLog ?? []) as Array<{ token?: string }>) if (a.token) tokens.add(a.token);
    return batch.map((w) => won(tokens.has(w.token)));
  }
}
