import { randomBytes } from 'node:crypto';
import { Metrics } from '@travel/platform';
import { RateLimiter } from '../domain/rate-limit';
import { SuspectLookupsPaced, type KeyResolver, type ResolvedCaller } from '../infra/key-resolver';
import { KeyCheck } from './key-check';

const wellFormed = () => `tek_${randomBytes(32).toString('base64url')}`;
const VALID = wellFormed();
const caller: ResolvedCaller = { tenantId: 't', apiKeyId: 'k', employeeId: 'e', permissions: [] } as never;

/**
 * A resolver that knows VALID (and `alsoValid`), starts a lookup (calls onLookup) for every key not in
 * `cached`, answers after `delayMs`, and counts the lookups it started.
 */
function fakeResolver(
  options: { delayMs?: number; cached?: string[]; alsoValid?: string[]; failing?: boolean; paced?: boolean } = {},
) {
  const state = { lookups: 0 };
  const resolver = {
    async resolve(key: string, onLookup?: () => void, fromSuspect = false) {
      const valid = key === VALID || (options.alsoValid ?? []).includes(key);
      if (options.cached?.includes(key)) return valid ? caller : null;
      if (options.paced && fromSuspect) throw new SuspectLookupsPaced();
      onLookup?.();
      state.lookups++;
      await new Promise((r) => setTimeout(r, options.delayMs ?? 0));
      if (options.failing) throw new Error('employees did not answer');
      return valid ? caller : null;
    },
  } as unknown as KeyResolver;
  return { state, resolver };
}

const limiter = (burst: number) => new RateLimiter(1, burst, () => 0);

describe('KeyCheck', () => {
  it.each([
    ['too short', 'tek_abc'],
    ['one character short', `tek_${'a'.repeat(42)}`],
    ['one character long', `tek_${'a'.repeat(44)}`],
    ['another prefix', `sk_${'a'.repeat(44)}`],
    ['a character outside base64url', `tek_${'a'.repeat(42)}!`],
    ['padding', `tek_${'a'.repeat(42)}=`],
    ['upper-case prefix', `TEK_${'a'.repeat(43)}`],
  ])('refuses a malformed key (%s) at once: no lookup, nothing counted', async (_name, key) => {
    const { state, resolver } = fakeResolver();
    const failures = limiter(1);
    const check = new KeyCheck(resolver, failures, new Metrics('gateway'));
    for (let i = 0; i < 5; i++) expect(await check.check(key, '10.0.0.1')).toEqual({ outcome: 'malformed' });
    expect(state.lookups).toBe(0);
    expect(failures.wait('10.0.0.1')).toBe(0);
  });

  it('a flood of unknown keys from one address: lookups up to the burst, then refused before any lookup', async () => {
    const { state, resolver } = fakeResolver();
    const check = new KeyCheck(resolver, limiter(5), new Metrics('gateway'));
    const outcomes = [];
    for (let i = 0; i < 30; i++) outcomes.push((await check.check(wellFormed(), '10.0.0.1')).outcome);
    expect(outcomes).toEqual([...Array(5).fill('unknown'), ...Array(25).fill('limited')]);
    expect(state.lookups).toBe(5);
    expect(await check.check(wellFormed(), '10.0.0.1')).toEqual({ outcome: 'limited', retryAfterSeconds: 60 });
  });

  it('concurrent guesses from one address start no more lookups than its bucket holds', async () => {
    const { state, resolver } = fakeResolver({ delayMs: 20 });
    const check = new KeyCheck(resolver, limiter(5), new Metrics('gateway'));
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => check.check(wellFormed(), '10.0.0.1')));
    expect(state.lookups).toBe(5);
    expect(outcomes.filter((o) => o.outcome === 'limited')).toHaveLength(45);
  });

  it('a limited address is refused even with a valid key; another address is served', async () => {
    const { resolver } = fakeResolver();
    const check = new KeyCheck(resolver, limiter(2), new Metrics('gateway'));
    await check.check(wellFormed(), '10.0.0.1');
    await check.check(wellFormed(), '10.0.0.1');
    expect((await check.check(VALID, '10.0.0.1')).outcome).toBe('limited');
    expect(await check.check(VALID, '10.0.0.2')).toEqual({ outcome: 'caller', caller });
  });

  it('valid keys cost the address nothing, even when each starts a lookup', async () => {
    const keys = Array.from({ length: 50 }, wellFormed);
    const { state, resolver } = fakeResolver({ alsoValid: keys });
    const failures = limiter(2);
    const check = new KeyCheck(resolver, failures, new Metrics('gateway'));
    for (const key of keys) expect((await check.check(key, '10.0.0.1')).outcome).toBe('caller');
    expect(state.lookups).toBe(50);
    expect(failures.tracked).toBe(0); // a bucket given back full is forgotten
  });

  it('an unknown answer from the cache is not counted again: only lookups that found nothing count', async () => {
    const repeated = wellFormed();
    const { resolver } = fakeResolver({ cached: [repeated] });
    const failures = limiter(2);
    const check = new KeyCheck(resolver, failures, new Metrics('gateway'));
    for (let i = 0; i < 20; i++) expect((await check.check(repeated, '10.0.0.1')).outcome).toBe('unknown');
    expect(failures.wait('10.0.0.1')).toBe(0);
  });

  it('a lookup that fails keeps its token: an employees service in trouble is not asked faster', async () => {
    const { state, resolver } = fakeResolver({ failing: true });
    const check = new KeyCheck(resolver, limiter(3), new Metrics('gateway'));
    for (let i = 0; i < 3; i++) await expect(check.check(VALID, '10.0.0.1')).rejects.toThrow('did not answer');
    expect(await check.check(VALID, '10.0.0.1')).toEqual({ outcome: 'limited', retryAfterSeconds: 60 });
    expect(state.lookups).toBe(3);
  });

  it('an address with recent failures whose new key is paced by the resolver is told to retry in 1 s', async () => {
    const { state, resolver } = fakeResolver({ paced: true });
    const failures = limiter(5);
    const check = new KeyCheck(resolver, failures, new Metrics('gateway'));
    expect((await check.check(wellFormed(), '10.0.0.1')).outcome).toBe('unknown'); // clean: looked up
    expect(await check.check(wellFormed(), '10.0.0.1')).toEqual({ outcome: 'limited', retryAfterSeconds: 1 });
    expect(state.lookups).toBe(1);
    expect((await check.check(VALID, '10.0.0.2')).outcome).toBe('caller'); // another, clean address
  });

  it('counts checks by outcome, and lookups by answer as the resolver reports them', async () => {
    const { resolver } = fakeResolver();
    const metrics = new Metrics('gateway');
    const check = new KeyCheck(resolver, limiter(1), metrics);
    await check.check('tek_short', '10.0.0.1');
    await check.check(VALID, '10.0.0.1');
    await check.check(wellFormed(), '10.0.0.1');
    await check.check(wellFormed(), '10.0.0.1');
    resolver.onLookupAnswer!('known');
    resolver.onLookupAnswer!('failed');
    const text = await metrics.registry.metrics();
    for (const line of [
      'gateway_api_key_checks_total{outcome="malformed",service="gateway"} 1',
      'gateway_api_key_checks_total{outcome="caller",service="gateway"} 1',
      'gateway_api_key_checks_total{outcome="unknown",service="gateway"} 1',
      'gateway_api_key_checks_total{outcome="limited",service="gateway"} 1',
      'gateway_api_key_lookups_total{answer="known",service="gateway"} 1',
      'gateway_api_key_lookups_total{answer="failed",service="gateway"} 1',
    ])
      expect(text).toContain(line);
  });
});
