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

  it('takes its share of the figures among the live replicas, and all of them again when alone (0221)', () => {
    let now = 0;
    let replicas = 2;
    // 60 a minute and a burst of 10 in all: 5 at once and one every 2 s in each of two replicas.
    const limiter = new RateLimiter(
      60,
      10,
      () => now,
      undefined,
      () => replicas,
    );
    const burst = Array.from({ length: 6 }, () => limiter.take('k'));
    expect(burst).toEqual([0, 0, 0, 0, 0, 2]);
    now += 2000;
    expect(limiter.take('k')).toBe(0);
    expect(limiter.take('k')).toBe(2);
    // The other replica gone: one a second, and the bucket fills up to the whole burst.
    replicas = 1;
    now += 1000;
    expect(limiter.take('k')).toBe(0);
    now += 60_000;
    expect(Array.from({ length: 11 }, () => limiter.take('k'))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('gives each replica at least one request of the burst, however many replicas', () => {
    const limiter = new RateLimiter(
      60,
      3,
      () => 0,
      undefined,
      () => 5,
    );
    expect([limiter.take('k'), limiter.take('k')]).toEqual([0, 5]);
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
