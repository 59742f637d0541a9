import { randomUUID, type KeyObject } from 'node:crypto';
import { createHash } from 'node:crypto';
import { CONTEXT_HEADER, mintContext, type CallerContext } from '@travel/platform';

export type ResolvedCaller = Omit<CallerContext, 'kind' | 'requestId'>;

/**
 * Asks the employees service who an API key belongs to, and remembers the answer briefly: a revoked
 * key stops working within `ttlMs`, while a busy partner costs one lookup per key per window. Concurrent
 * requests with a key that is not cached share one lookup: when an entry expired under load, its 64
 * requests in flight made 64 lookups (each three store reads and a new connection) at once, every
 * `ttlMs` (docs/benchmarks.md, "API reads"). A shared lookup started before a revocation can answer
 * requests that arrive while it runs, which is within the same `ttlMs` bound.
 */
export class KeyResolver {
  private readonly cache = new Map<string, { value: ResolvedCaller | null; until: number }>();
  private readonly inFlight = new Map<string, Promise<ResolvedCaller | null>>();

  constructor(
    private readonly employeesUrl: string,
    /** The gateway's private key: it signs the service context of the lookup, addressed to employees. */
    private readonly signingKey: KeyObject,
    private readonly ttlMs = 5000,
    private readonly negativeTtlMs = 1000,
  ) {}

  async resolve(key: string): Promise<ResolvedCaller | null> {
    const cacheKey = createHash('sha256').update(key).digest('base64');
    const hit = this.cache.get(cacheKey);
    if (hit && hit.until > Date.now()) return hit.value;
    let pending = this.inFlight.get(cacheKey);
    if (!pending) {
      pending = this.lookup(key, cacheKey).finally(() => this.inFlight.delete(cacheKey));
      this.inFlight.set(cacheKey, pending);
    }
    return pending;
  }

  private async lookup(key: string, cacheKey: string): Promise<ResolvedCaller | null> {
    const res = await fetch(`${this.employeesUrl}/internal/api-keys/resolve`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [CONTEXT_HEADER]: mintContext(
          { kind: 'service', service: 'gateway', audience: 'employees', requestId: randomUUID() },
          this.signingKey,
        ),
      },
      body: JSON.stringify({ key }),
      signal: AbortSignal.timeout(5000),
    });
    let value: ResolvedCaller | null;
    if (res.status === 401) value = null;
    else if (res.ok) value = (await res.json()) as ResolvedCaller;
    else throw new Error(`key resolution answered ${res.status}`);

    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(cacheKey, { value, until: Date.now() + (value ? this.ttlMs : this.negativeTtlMs) });
    return value;
  }
}
