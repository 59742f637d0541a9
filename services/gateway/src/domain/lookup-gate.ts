/** Thrown when more lookups wait than the gate holds. */
export class LookupQueueFull extends Error {
  constructor() {
    super('too many key lookups waiting');
  }
}

/**
 * At most `concurrency` lookups at once; the others wait in two FIFO queues, keys known to be valid
 * (`first`) ahead of keys never seen (`later`), at most `maxWaiting` in all. Keys never seen also start at
 * most `laterPerSecond` a second (bursts of one second's worth). A flood of unknown keys from many
 * addresses (each within its own limit) then reaches the employees service at a pace it serves beside
 * its other requests, and cannot make a valid key's lookup wait behind it (docs/decisions/0116).
 */
export class LookupGate {
  private running = 0;
  private readonly first: Array<() => void> = [];
  private readonly later: Array<() => void> = [];
  private laterTokens: number;
  private laterAt: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting = 10_000,
    private readonly laterPerSecond = Infinity,
    private readonly now: () => number = Date.now,
  ) {
    this.laterTokens = laterPerSecond;
    this.laterAt = now();
  }

  get waiting(): number {
    return this.first.length + this.later.length;
  }

  async run<T>(task: () => Promise<T>, priority: 'first' | 'later'): Promise<T> {
    if (this.waiting >= this.maxWaiting) throw new LookupQueueFull();
    await new Promise<void>((admitted) => {
      (priority === 'first' ? this.first : this.later).push(admitted);
      this.pump();
    });
    try {
      return await task();
    } finally {
      this.running--;
      this.pump();
    }
  }

  /** Starts waiting lookups while there are free slots (and, for keys never seen, tokens). */
  private pump(): void {
    while (this.running < this.concurrency) {
      let next = this.first.shift();
      if (!next && this.later.length > 0) {
        if (!this.takeLaterToken()) {
          this.wakeForToken();
          return;
        }
        next = this.later.shift();
      }
      if (!next) return;
      this.running++;
      next();
    }
  }

  private takeLaterToken(): boolean {
    if (this.laterPerSecond === Infinity) return true;
    const t = this.now();
    this.laterTokens = Math.min(
      this.laterPerSecond,
      this.laterTokens + ((t - this.laterAt) / 1000) * this.laterPerSecond,
    );
    this.laterAt = t;
    if (this.laterTokens < 1) return false;
    this.laterTokens -= 1;
    return true;
  }

  private wakeForToken(): void {
    if (this.timer) return;
    const ms = Math.ceil(((1 - this.laterTokens) / this.laterPerSecond) * 1000);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, ms);
    this.timer.unref();
  }
}
