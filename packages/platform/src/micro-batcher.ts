/** What became of one item of a batch: its value, or the error that fails its caller (and only it). */
export type BatchResult<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface MicroBatcherOptions<I> {
  /** How long the first item of a batch waits for others; 0 sends each item at once. */
  windowMs: number;
  /** A batch this big (in `sizeOf` units) is sent at once, without waiting for the window. */
  maxSize: number;
  /** The size of one item (default 1: a batch is counted in items). */
  sizeOf?: (item: I) => number;
}

interface Queued<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Collects the items its callers add within `windowMs` (or until `maxSize` is reached) and hands them to
 * `send` as one batch, so concurrent callers share one command to the store instead of one each
 * (decisions 0060, 0088). Each caller's promise settles after `send` answered, with its own item's result
 * (`send` returns one per item, in order); a `send` that throws fails every caller of its batch.
 */
export class MicroBatcher<I, O> {
  private queue: Queued<I, O>[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly sizeOf: (item: I) => number;

  constructor(
    private readonly send: (items: I[]) => Promise<BatchResult<O>[]>,
    private readonly options: MicroBatcherOptions<I>,
  ) {
    this.sizeOf = options.sizeOf ?? (() => 1);
  }

  add(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.size += this.sizeOf(item);
      if (this.size >= this.options.maxSize || this.options.windowMs <= 0) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.windowMs);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    this.size = 0;
    if (batch.length > 0) void this.settle(batch);
  }

  private async settle(batch: Queued<I, O>[]): Promise<void> {
    let results: BatchResult<O>[];
    try {
      results = await this.send(batch.map((q) => q.item));
    } catch (err) {
      for (const q of batch) q.reject(err);
      return;
    }
    batch.forEach((q, i) => {
      const r = results[i];
      if (!r) q.reject(new Error('micro-batcher: the batch answered fewer results than items'));
      else if (r.ok) q.resolve(r.value);
      else q.reject(r.error);
    });
  }
}
