/**
 * Remembers event ids so an at-least-once delivery is processed once. Implement it over Redis
 * (`SET key 1 NX EX 3600`) or a unique index when you run more than one receiver process.
 */
export interface DedupeStore {
  /** True if `eventId` was already seen inside the window; otherwise records it. Must be atomic. */
  seen(eventId: string): Promise<boolean>;
  /**
   * Optional: drop a recorded id. Called when handling failed after `seen` recorded it, so that
   * our retry of the same event is processed instead of being skipped as a duplicate.
   */
  forget?(eventId: string): Promise<void>;
}

export interface MemoryDedupeStoreOptions {
  /** How long an id is remembered, from when it was first seen. Default 3600 (the spec's one hour). */
  windowSeconds?: number;
  /** Hard cap on remembered ids; the oldest are dropped beyond it. Default 100 000. */
  maxEntries?: number;
  /** Clock in milliseconds; injectable for tests. Default `Date.now`. */
  now?: () => number;
}

/** Single-process store. Memory stays bounded: expired ids are swept on every call. */
export class MemoryDedupeStore implements DedupeStore {
  private readonly windowMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  // Insertion order equals expiry order (fixed window), so sweeping only ever looks at the head.
  private readonly expiresAt = new Map<string, number>();

  constructor(options: MemoryDedupeStoreOptions = {}) {
    const windowSeconds = options.windowSeconds ?? 3600;
    const maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) throw new RangeError('windowSeconds must be > 0');
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.windowMs = windowSeconds * 1000;
    this.maxEntries = maxEntries;
    this.now = options.now ?? Date.now;
  }

  /** Number of ids currently remembered (after sweeping). */
  get size(): number {
    this.sweep(this.now());
    return this.expiresAt.size;
  }

  // Synchronous body: check-and-record cannot interleave with another call in this process.
  async seen(eventId: string): Promise<boolean> {
    const now = this.now();
    this.sweep(now);
    const expiry = this.expiresAt.get(eventId);
    if (expiry !== undefined && expiry > now) return true;
    this.expiresAt.delete(eventId); // re-insert at the tail to keep the map in expiry order
    this.expiresAt.set(eventId, now + this.windowMs);
    if (this.expiresAt.size > this.maxEntries) {
      this.expiresAt.delete(this.expiresAt.keys().next().value as string);
    }
    return false;
  }

  async forget(eventId: string): Promise<void> {
    this.expiresAt.delete(eventId);
  }

  private sweep(now: number): void {
    for (const [id, expiry] of this.expiresAt) {
      if (expiry > now) break;
      this.expiresAt.delete(id);
    }
  }
}
