import { MicroBatcher, type BatchResult } from '@travel/platform';
import type { mongo } from 'mongoose';

type Document = mongo.Document;
type Collection<T extends Document> = mongo.Collection<T>;

/** What became of one document of a batched insert. */
export type InsertStatus = 'inserted' | 'duplicate';

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
  private readonly batcher: MicroBatcher<Document[], InsertStatus[]>;

  constructor(
    private readonly collection: () => Collection<Document>,
    windowMs = 5,
    maxDocs = 500,
  ) {
    this.batcher = new MicroBatcher((callers) => this.send(callers), {
      windowMs,
      maxSize: maxDocs,
      sizeOf: (docs) => docs.length,
    });
  }

  insert(docs: Document[]): Promise<InsertStatus[]> {
    return docs.length === 0 ? Promise.resolve([]) : this.batcher.add(docs);
  }

  /** One unordered insert of every caller's documents; a command failed as a whole throws (fails them all). */
  private async send(callers: Document[][]): Promise<BatchResult<InsertStatus[]>[]> {
    try {
      await this.collection().insertMany(callers.flat() as never[], { ordered: false });
    } catch (err) {
      const errors = writeErrorsOf(err);
      if (!errors) throw err;
      const failed = new Map(errors.map((e) => [e.index, e]));
      let at = 0;
      return callers.map((docs) => {
        const mine = docs.map((_, i) => failed.get(at + i));
        at += docs.length;
        if (mine.some((e) => e && e.code !== 11000)) return { ok: false, error: err };
        return { ok: true, value: mine.map((e) => (e ? 'duplicate' : 'inserted')) };
      });
    }
    return callers.map((docs) => ({ ok: true, value: docs.map(() => 'inserted' as const) }));
  }
}
