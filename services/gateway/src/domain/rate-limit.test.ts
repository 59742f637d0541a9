import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('allows a burst, then refuses with the wait, then refills over time', () => {
    let now = 0;
    const limiter = new RateLimiter(60, 3, () => now);
    expect([limiter.take('k'), limiter.take('k'), limiter.take('k')]).toEqual([0, 0, 0]);
    expect(limiter.take('k')).toBe(1);
    now += 1000;
    expect(limiter.take('k')).toBe(0);
    expect(limiter.take('other')).toBe(0);
  });

  it('wait() tells whether a token is there without taking one', () => {
    let now = 0;
    const limiter = new RateLimiter(6, 2, () => now);
    expect(limiter.wait('a')).toBe(0);
    expect(limiter.wait('a')).toBe(0);
    limiter.take('a');
    limiter.take('a');
    expect(limiter.wait('a')).toBe(10); // 6 a minute: one every 10 s
    now += 5000;
    expect(limiter.wait('a')).toBe(5);
    now += 5000;
    expect(limiter.wait('a')).toBe(0);
  });

  it('giveBack() returns a token, never beyond the burst', () => {
    const limiter = new RateLimiter(1, 2, () => 0);
    limiter.take('a');
    limiter.take('a');
    expect(limiter.wait('a')).toBeGreaterThan(0);
    limiter.giveBack('a');
    expect(limiter.take('a')).toBe(0);
    limiter.giveBack('a');
    limiter.giveBack('a');
    limiter.giveBack('a');
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 60]);
  });

  it('keeps at most `capacity` buckets: memory stays bounded under a flood of keys', () => {
    const limiter = new RateLimiter(1, 1, () => 0, 100);
    limiter.take('busy');
    for (let i = 0; i < 10_000; i++) {
      limiter.take(`flood-${i}`);
      if (i % 50 === 0) expect(limiter.wait('busy')).toBe(60); // recently used: kept, still empty
      if (i % 50 === 0) limiter.take('busy');
    }
    expect(limiter.tracked).toBe(100);
  });

  it('hasSpent() tells a key with tokens out from one with a full bucket', () => {
    let now = 0;
    const limiter = new RateLimiter(60, 2, () => now);
    expect(limiter.hasSpent('a')).toBe(false);
    limiter.take('a');
    expect(limiter.hasSpent('a')).toBe(true);
    now += 1000; // refilled
    expect(limiter.hasSpent('a')).toBe(false);
  });
});
