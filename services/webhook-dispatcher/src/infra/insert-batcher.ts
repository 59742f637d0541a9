import type { mongo } from 'mongoose';

type Document = mongo.Document;
type Collection<T extends Document> = mongo.Collection<T>;

/** What became of one document of a batched insert. */
export type InsertStatus = 'inserted' | 'duplicate';

interface Queued {
  docs: Document[];
  resolve: (statuses: InsertStatus[]) => void;
  reject: (err: unknown) => void;
}

/** The write errors of a failed unordered insert (the driver gives one or many). */
function writeErrorsOf(err: unknown): Array<{ index: number; code?: number }> | undefined {
  const w = (err as { writeErrors?: unknown })?.writeErrors;
  if (Array.isArray(w)) return w as Array<{ index: number; code?: number }>;
  if (w && typeof w === 'object' && typeof (w as { index?: unknown }).index === 'number')
    return [w as { index: number; code?: number }];
  return undefined;
}

/**
 * Inserts the documents of the callers that arrive within `windowMs` as one unordered `insert` command
 * (docs/decisions/0088): the fan-outs of concurrent events share one command per collection instead of one
 * each (one SQLite transaction and one turn of the store's per-collection write lock on the development
 * store; one round trip on MongoDB). Each caller's promise settles after that command answered, with the
 * status of each of its documents; a document refused for another reason than a duplicate key fails its
 * caller (and only it), as does a command that failed as a whole (every caller of the batch).
 */
export class InsertBatcher {
  private queue: Queued[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly collection: () => Collection<Document>,
    private readonly windowMs = 5,
    private readonly maxDocs = 500,
  ) {}

  insert(docs: Document[]): Promise<InsertStatus[]> {
    if (docs.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ docs, resolve, reject });
      this.size += docs.length;
      if (this.size >= this.maxDocs || this.windowMs <= 0) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    this.size = 0;
    if (batch.length > 0) void this.send(batch);
  }

  private async send(batch: Queued[]): Promise<void> {
    const all = batch.flatMap((q) => q.docs);
    try {
      await this.collection().insertMany(all as never[], { ordered: false });
    } catch (err) {
      const errors = writeErrorsOf(err);
      if (!errors) {
        for (const q of batch) q.reject(err);
        return;
      }
      const failed = new Map(errors.map((e) => [e.index, e]));
      let at = 0;
      for (const q of batch) {
        const mine = q.docs.map((_, i) => failed.get(at + i));
        at += q.docs.length;
        if (mine.some((e) => e && e.code !== 11000)) q.reject(err);
        else q.resolve(mine.map((e) => (e ? 'duplicate' : 'inserted')));
      }
      return;
    }
    for (const q of batch) q.resolve(q.docs.map(() => 'inserted'));
  }
}
