import { RELAY_MAX_BACKOFF_MS, relayDelayAfter } from './outbox-relay';

describe('the outbox relay backs off while its passes fail (0183)', () => {
  it('waits the interval while passes succeed, then doubles it for each failing pass, up to 5 s', () => {
    expect([0, 1, 2, 3, 4].map((failed) => relayDelayAfter(failed, 500))).toEqual([500, 500, 1000, 2000, 4000]);
    expect(relayDelayAfter(5, 500)).toBe(5000);
    expect(relayDelayAfter(40, 500)).toBe(RELAY_MAX_BACKOFF_MS);
    expect(RELAY_MAX_BACKOFF_MS).toBe(5000);
  });
});
