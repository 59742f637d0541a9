import { EnvelopeCache } from './envelope-cache';

describe('EnvelopeCache', () => {
  it("returns an event's bytes only for its own tenant", () => {
    const cache = new EnvelopeCache();
    cache.set('e1', 't1', '{"a":1}');
    expect(cache.get('e1', 't1')).toBe('{"a":1}');
    expect(cache.get('e1', 't2')).toBeUndefined();
    expect(cache.get('e2', 't1')).toBeUndefined();
  });

  it('drops the least recently used entry beyond its bound', () => {
    const cache = new EnvelopeCache(2);
    cache.set('e1', 't', '1');
    cache.set('e2', 't', '2');
    cache.get('e1', 't');
    cache.set('e3', 't', '3');
    expect(cache.get('e2', 't')).toBeUndefined();
    expect(cache.get('e1', 't')).toBe('1');
    expect(cache.get('e3', 't')).toBe('3');
  });
});
