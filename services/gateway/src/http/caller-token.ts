import type { KeyObject } from 'node:crypto';
import { mintContext } from '@travel/platform';
import type { ResolvedCaller } from '../infra/key-resolver';

/** Lifetime of a minted caller context (mintContext's default): a captured header is useless after it. */
export const CONTEXT_TTL_SECONDS = 60;
/** A token is re-minted once this old, so one in use has at least half its lifetime left. */
export const CONTEXT_REUSE_MS = (CONTEXT_TTL_SECONDS * 1000) / 2;

/**
 * The caller context sent upstream, minted once per key lookup rather than once per request (docs/decisions/
 * 0093). The key resolver hands out the same object for a key while its cache entry is fresh
 * (`API_KEY_CACHE_MS`); that object's token is reused, so a token never carries permissions older than the
 * lookup it was minted from, and a new lookup (expiry, `API_KEY_CACHE_MS=0`) mints a new one. A token is
 * valid for 60 s as before and reused for at most 30 s. Its `requestId` is that of the request that minted
 * it; every request's own id travels in `X-Request-Id`, and services read it from there.
 */
export class CallerTokens {
  private readonly tokens = new WeakMap<ResolvedCaller, { token: string; until: number }>();

  constructor(
    /** The gateway's private key: the only key services accept a caller context from. */
    private readonly signingKey: KeyObject,
    private readonly now: () => number = Date.now,
  ) {}

  tokenFor(caller: ResolvedCaller, requestId: string): string {
    const t = this.now();
    const known = this.tokens.get(caller);
    if (known && known.until > t) return known.token;
    const token = mintContext({ kind: 'caller', ...caller, requestId }, this.signingKey, CONTEXT_TTL_SECONDS, t);
    this.tokens.set(caller, { token, until: t + CONTEXT_REUSE_MS });
    return token;
  }
}
