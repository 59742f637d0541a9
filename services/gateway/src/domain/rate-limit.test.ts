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
});
