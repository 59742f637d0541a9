import { DEFAULT_RETRY_POLICY, backoffDelayMs, backoffDelays, delayLabel } from './retry';

describe('consumer back-off', () => {
  it('doubles from the base delay and stops growing at the bound', () => {
    const policy = { baseMs: 1000, maxDelayMs: 300_000, maxAttempts: 50 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 49].map((n) => backoffDelayMs(policy, n))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000, 300_000,
    ]);
  });

  it('needs one back-off queue per distinct delay, and none when a single attempt is allowed', () => {
    expect(backoffDelays(DEFAULT_RETRY_POLICY).map(delayLabel)).toEqual([
      '1s',
      '2s',
      '4s',
      '8s',
      '16s',
      '32s',
      '64s',
      '128s',
      '256s',
      '5m',
    ]);
    // Fewer attempts than doublings: only the delays actually used.
    expect(backoffDelays({ baseMs: 100, maxDelayMs: 60_000, maxAttempts: 4 })).toEqual([100, 200, 400]);
    expect(backoffDelays({ baseMs: 100, maxDelayMs: 60_000, maxAttempts: 1 })).toEqual([]);
    // A bound that is not a doubling of the base is its own last delay.
    expect(backoffDelays({ baseMs: 50, maxDelayMs: 300, maxAttempts: 20 })).toEqual([50, 100, 200, 300]);
  });

  it('waits about 3.5 hours in total before parking with the defaults', () => {
    let total = 0;
    for (let n = 1; n < DEFAULT_RETRY_POLICY.maxAttempts; n++) total += backoffDelayMs(DEFAULT_RETRY_POLICY, n);
    expect(total).toBe(12_511_000);
  });

  it('labels delays exactly, so queue names never collide', () => {
    expect([250, 1000, 1500, 60_000, 90_000, 3_600_000].map(delayLabel)).toEqual([
      '250ms',
      '1s',
      '1500ms',
      '1m',
      '90s',
      '1h',
    ]);
  });
});
