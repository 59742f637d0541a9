/**
 * Token bucket per API key: `perMinute` requests a minute on average, bursts up to `burst`. Kept in
 * the replica's memory: limits are per gateway replica (docs/decisions), which bounds abuse without a
 * shared store on the request path.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Returns 0 when allowed, else the seconds to wait. */
  take(key: string): number {
    const t = this.now();
    const refill = this.perMinute / 60_000;
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + (t - b.at) * refill);
    b.at = t;
    this.buckets.set(key, b);
    if (this.buckets.size > 100_000) this.sweep(t);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / refill / 1000);
  }

  private sweep(t: number): void {
    for (const [k, b] of this.buckets) if (t - b.at > 120_000) this.buckets.delete(k);
  }
}
