/** Thrown when more lookups wait than the gate holds. */
export class LookupQueueFull extends Error {
  constructor() {
    super('too many key lookups waiting');
  }
}

/**
 * At most `concurrency` lookups at once; the others wait in two FIFO queues, keys known to be valid or
 * from clean addresses (`first`) ahead of keys from addresses with recent failures (`later`), at most
 * `maxWaiting` in all. A valid key's lookup then never waits behind a flood's (docs/decisions/0116).
 */
export class LookupGate {
  private running = 0;
  private readonly first: Array<() => void> = [];
  private readonly later: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting = 10_000,
  ) {}

  get waiting(): number {
    return this.first.length + this.later.length;
  }

  async run<T>(task: () => Promise<T>, priority: 'first' | 'later'): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else {
      if (this.waiting >= this.maxWaiting) throw new LookupQueueFull();
      // The slot of a finishing task passes straight to the next waiter (see release).
      await new Promise<void>((resolve) => (priority === 'first' ? this.first : this.later).push(resolve));
    }
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.first.shift() ?? this.later.shift();
    if (next) next();
    else this.running--;
  }
}
