import { createHash, type KeyObject } from 'node:crypto';
import { EmployeesClient } from '@travel/contracts';
import { internalTransports, type CallerContext } from '@travel/platform';
import { LookupGate } from '../domain/lookup-gate';
import { RateLimiter } from '../domain/rate-limit';
import { Lru } from '../domain/lru';

export type ResolvedCaller = Omit<CallerContext, 'kind' | 'requestId'>;

/** Thrown instead of a lookup of a new key from a suspect address when this second's share is spent. */
export class SuspectLookupsPaced extends Error {
  constructor() {
    super('lookups of new keys from addresses with recent failures are paced');
  }
}

interface CachedAnswer<T> {
  value: T;
  until: number;
  /** From then on, a read also refreshes the entry in the background (known keys only). */
  refreshFrom: number;
}

/** How many answers each cache keeps, the least recently used forgotten first; lookups at once. */
export interface KeyCacheCapacity {
  known: number;
  unknown: number;
  lookups?: number;
  /** Lookups of keys never seen from addresses with recent failures, a second (default: not paced). */
  suspectLookupsPerSecond?: number;
  /** Live gateway replicas sharing that pace (docs/decisions/0221); default this one alone. */
  replicas?: () => number;
}

/** A known key in use is refreshed once this share of its time to live has passed. */
const REFRESH_AFTER = 0.8;

/**
 * Asks the employees service who an API key belongs to, and remembers the answer briefly: a revoked
 * key stops working within `ttlMs`, while a busy partner costs one lookup per key per window. Concurrent
 * requests with a key that is not cached share one lookup: when an entry expired under load, its 64
 * requests in flight made 64 lookups (each three store reads and a new connection) at once, every
 * `ttlMs` (docs/benchmarks.md, "API reads"). A shared lookup started before a revocation can answer
 * requests that arrive while it runs, which is within the same `ttlMs` bound.
 *
 * Known keys and unknown keys are remembered in two bounded LRUs (docs/decisions/0116): a flood of random
 * keys fills only the unknown keys' one and can never push a valid key out (the single map used to be
 * cleared whole past 50,000 entries: 50,001 random keys emptied it). A known key read in the last fifth
 * of its time to live is refreshed in the background while the cached answer serves, and lookups pass a
 * gate: a few at once, new keys from addresses with recent failures after all others and at most
 * `suspectLookupsPerSecond`. A valid caller never waits behind a flood's lookups. An expired answer is
 * never served, only remembered.
 */
export class KeyResolver {
  private readonly known: Lru<string, CachedAnswer<ResolvedCaller>>;
  private readonly unknown: Lru<string, CachedAnswer<null>>;
  private readonly inFlight = new Map<string, Promise<ResolvedCaller | null>>();
  private readonly gate: LookupGate;
  private readonly suspectLookups: RateLimiter;
  /** Told the answer of every lookup, refreshes included (the gateway's lookup counter). */
  onLookupAnswer?: (answer: 'known' | 'unknown' | 'failed') => void;
  /** The employees service's published client (its resolve route). */
  private readonly employees: EmployeesClient;

  constructor(
    employeesUrl: string,
    /** The gateway's private key: it signs the service context of the lookup, addressed to employees. */
    signingKey: KeyObject,
    private readonly ttlMs = 5000,
    private readonly negativeTtlMs = 1000,
    capacity: KeyCacheCapacity = { known: 50_000, unknown: 10_000 },
    /** The suspect lookups' clock (a test holds it still: a second's share must not refill mid-burst). */
    now: () => number = Date.now,
  ) {
    this.employees = new EmployeesClient(internalTransports('gateway', signingKey)('employees', employeesUrl, 5000));
    this.known = new Lru(capacity.known);
    this.unknown = new Lru(capacity.unknown);
    this.gate = new LookupGate(capacity.lookups ?? 8);
    // Spread over the second (bursts of a tenth of it): a flood's first lookups do not arrive together.
    const perSecond = capacity.suspectLookupsPerSecond ?? 1_000_000;
    this.suspectLookups = new RateLimiter(
      perSecond * 60,
      Math.max(1, Math.floor(perSecond / 10)),
      now,
      undefined,
      capacity.replicas,
    );
  }

  /**
   * Who the key belongs to, or null when it is unknown or revoked. `onLookup` runs, synchronously, only
   * when this call starts a lookup of its own (not on a cached answer, nor when it joins a lookup in flight)
   * of a key not known to be valid (not for a key whose valid answer has expired).
   * `fromSuspect`: the key comes from an address with recent failures; a lookup of a key never seen then
   * waits behind the others, and beyond `suspectLookupsPerSecond` throws SuspectLookupsPaced
   * (docs/decisions/0116).
   */
  async resolve(key: string, onLookup?: () => void, fromSuspect = false): Promise<ResolvedCaller | null> {
    const cacheKey = createHash('sha256').update(key).digest('base64');
    const now = Date.now();
    const known = this.known.get(cacheKey);
    if (known && known.until > now) {
      if (known.refreshFrom <= now && !this.inFlight.has(cacheKey)) {
        // One refresh per answer: if it fails, the answer serves until `until`, then a miss looks it up.
        known.refreshFrom = Infinity;
        this.start(key, cacheKey, 'first').catch(() => undefined);
      }
      return known.value;
    }
    const unknown = this.unknown.get(cacheKey);
    if (unknown && unknown.until > now) return null;
    const pending = this.inFlight.get(cacheKey);
    if (pending) return pending;
    // A key whose answer expired was valid a moment ago: it never waits behind a flood's keys. A new key
    // from a suspect address is refused rather than queued when this second's share is spent: held
    // requests would only come back as one burst.
    const suspect = !known && fromSuspect;
    if (suspect && this.suspectLookups.take('all') > 0) throw new SuspectLookupsPaced();
    // Nor is it a guess: its lookup is not announced to the failure count (0115). Otherwise, while the
    // employees service is away (a restart), every lookup of a valid key fails, keeps its token, and
    // the caller's address ends up refused as if it sent unknown keys after the service is back
    // (found by the faults under load, docs/decisions/0121).
    if (!known) onLookup?.();
    return this.start(key, cacheKey, suspect ? 'later' : 'first');
  }

  /** One lookup of the key through the gate, shared by the requests that come while it runs. */
  private start(key: string, cacheKey: string, priority: 'first' | 'later'): Promise<ResolvedCaller | null> {
    const pending = this.gate
      .run(() => this.lookup(key, cacheKey), priority)
      .then(
        (value) => {
          this.onLookupAnswer?.(value ? 'known' : 'unknown');
          return value;
        },
        (err: unknown) => {
          this.onLookupAnswer?.('failed');
          throw err;
        },
      )
      .finally(() => this.inFlight.delete(cacheKey));
    this.inFlight.set(cacheKey, pending);
    return pending;
  }

  private async lookup(key: string, cacheKey: string): Promise<ResolvedCaller | null> {
    // 401 is unknown (null); anything else but 2xx, or no answer, throws (the key check answers 503).
    const value: ResolvedCaller | null = await this.employees.resolveApiKey(key);
    this.remember(cacheKey, value);
    return value;
  }

  private remember(cacheKey: string, value: ResolvedCaller | null): void {
    const now = Date.now();
    if (value) {
      this.known.set(cacheKey, { value, until: now + this.ttlMs, refreshFrom: now + this.ttlMs * REFRESH_AFTER });
      this.unknown.delete(cacheKey);
    } else {
      this.unknown.set(cacheKey, { value, until: now + this.negativeTtlMs, refreshFrom: Infinity });
      this.known.delete(cacheKey); // revoked: its old answer must not outlive the new one
    }
  }
}
