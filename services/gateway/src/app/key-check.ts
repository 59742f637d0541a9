import { isWellFormedApiKey } from '@travel/contracts';
import type { Metrics } from '@travel/platform';
import type { RateLimiter } from '../domain/rate-limit';
import { SuspectLookupsPaced, type KeyResolver, type ResolvedCaller } from '../infra/key-resolver';

export type KeyCheckResult =
  | { outcome: 'caller'; caller: ResolvedCaller }
  | { outcome: 'malformed' }
  | { outcome: 'unknown' }
  | { outcome: 'limited'; retryAfterSeconds: number };

/**
 * Who a presented API key belongs to, in the order that keeps a flood of guesses cheap (docs/decisions/0115):
 *
 * 1. a key not in the form keys are issued in is refused at once: no lookup, not counted;
 * 2. an address (`clientKey`) whose failed lookups spent its bucket is refused before anything else,
 *    whatever key it sends, until its bucket refills;
 * 3. otherwise the key is resolved: cached, or looked up at the employees service. A lookup takes a token
 *    from the address when it starts and gives it back when the key is valid, so only lookups that did
 *    not find a key count (unknown, revoked, or failed), and concurrent guesses from one address can
 *    start no more lookups than its bucket holds. Cached answers and requests that join a lookup in
 *    flight take nothing: repeating one unknown key costs no lookup, and many requests with one valid
 *    key share one.
 *    A new key from an address with recent failures is looked up after all others, and beyond this
 *    replica's share a second for such keys it is refused as limited (Retry-After: 1) instead (0116).
 */
export class KeyCheck {
  private readonly checks;

  constructor(
    private readonly resolver: KeyResolver,
    private readonly failures: RateLimiter,
    metrics: Metrics,
  ) {
    this.checks = metrics.counter('gateway_api_key_checks_total', 'API keys checked, by outcome', ['outcome']);
    const lookups = metrics.counter(
      'gateway_api_key_lookups_total',
      'Lookups of API keys at the employees service (not answered by the caches; refreshes included), by answer',
      ['answer'],
    );
    resolver.onLookupAnswer = (answer) => lookups.inc({ answer });
  }

  /** Seconds an address must wait because its failed lookups spent its bucket (0: not limited); counted. */
  limitedFor(clientKey: string): number {
    const wait = this.failures.wait(clientKey);
    if (wait > 0) this.checks.inc({ outcome: 'limited' });
    return wait;
  }

  async check(key: string, clientKey: string): Promise<KeyCheckResult> {
    const result = await this.outcomeOf(key, clientKey);
    this.checks.inc({ outcome: result.outcome });
    return result;
  }

  private async outcomeOf(key: string, clientKey: string): Promise<KeyCheckResult> {
    if (!isWellFormedApiKey(key)) return { outcome: 'malformed' };
    const wait = this.failures.wait(clientKey);
    if (wait > 0) return { outcome: 'limited', retryAfterSeconds: wait };
    // No await since wait(): the token is there for take(), which runs synchronously inside resolve().
    // A lookup that throws keeps its token: an employees service in trouble is not asked faster.
    let started = false;
    let caller: ResolvedCaller | null;
    try {
      caller = await this.resolver.resolve(
        key,
        () => {
          started = true;
          this.failures.take(clientKey);
        },
        this.failures.hasSpent(clientKey),
      );
    } catch (err) {
      if (err instanceof SuspectLookupsPaced) return { outcome: 'limited', retryAfterSeconds: 1 };
      throw err;
    }
    if (!caller) return { outcome: 'unknown' };
    if (started) this.failures.giveBack(clientKey);
    return { outcome: 'caller', caller };
  }
}
