import { Lru } from './lru';

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token bucket per key (an API key, or a client address for failed authentications): `perMinute` on
 * average, bursts up to `burst`. Kept in the replica's memory, so the request path makes no round trip;
 * the figures hold in total over the gateway's replicas because each replica takes its share of them
 * (`perMinute` and `burst` ÷ `replicas()`, the live replicas counted through the broker: docs/decisions/
 * 0221). At most `capacity` buckets are kept, the least recently used forgotten first (a forgotten key
 * starts again with a full bucket), so memory is bounded however many keys or addresses arrive.
 */
export class RateLimiter {
  private readonly buckets: Lru<string, Bucket>;

  constructor(
    private readonly perMinute: number,
    private readonly burstInAll: number,
    private readonly now: () => number = Date.now,
    capacity = 100_000,
    /** Live replicas sharing the figures; 1: this replica alone. */
    private readonly replicas: () => number = () => 1,
  ) {
    this.buckets = new Lru(capacity);
  }

  /** This replica's bucket size: its share of the burst, never under one request. */
  private get burst(): number {
    return Math.max(1, this.burstInAll / this.replicas());
  }

  private get refillPerMs(): number {
    return this.perMinute / this.replicas() / 60_000;
  }

  /** Buckets kept now (at most the capacity). */
  get tracked(): number {
    return this.buckets.size;
  }

  /** Takes a token: returns 0 when allowed, else the seconds to wait (nothing taken). */
  take(key: string): number {
    const b = this.refilled(key);
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return this.secondsUntilToken(b);
  }

  /** The seconds until a token is there, 0 when one is: takes nothing and stores nothing. */
  wait(key: string): number {
    const b = this.refilled(key);
    return b.tokens >= 1 ? 0 : this.secondsUntilToken(b);
  }

  /** Whether the key has spent tokens that have not come back yet (an address with recent failures). */
  hasSpent(key: string): boolean {
    return this.buckets.peek(key) !== undefined && this.refilled(key).tokens < this.burst;
  }

  /**
   * Returns a token taken for something that turned out not to count. A bucket full again is forgotten:
   * it is the same as none, and keeps the buckets to keys that were refused or are spending.
   */
  giveBack(key: string): void {
    const b = this.refilled(key);
    if (b.tokens + 1 >= this.burst) this.buckets.delete(key);
    else b.tokens += 1;
  }

  private refilled(key: string): Bucket {
    const t = this.now();
    const b = this.buckets.peek(key);
    if (!b) return { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + (t - b.at) * this.refillPerMs);
    b.at = t;
    return b;
  }

  private secondsUntilToken(b: Bucket): number {
    return Math.max(1, Math.ceil((1 - b.tokens) / this.refillPerMs / 1000));
  }
}
