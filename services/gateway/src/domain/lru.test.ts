import { Lru } from './lru';

describe('Lru', () => {
  it('keeps at most its capacity, forgetting the least recently used entry first', () => {
    const lru = new Lru<string, number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect(lru.get('a')).toBe(1); // a is now the most recent: b is the coldest
    lru.set('d', 4);
    expect(lru.size).toBe(3);
    expect(lru.peek('b')).toBeUndefined();
    expect([lru.peek('a'), lru.peek('c'), lru.peek('d')]).toEqual([1, 3, 4]);
  });

  it('a flood of new keys never empties it: the recently used entry survives 10,000 insertions', () => {
    const lru = new Lru<string, string>(100);
    lru.set('valid', 'kept');
    for (let i = 0; i < 10_000; i++) {
      lru.set(`flood-${i}`, 'x');
      if (i % 50 === 0) expect(lru.get('valid')).toBe('kept');
    }
    expect(lru.size).toBe(100);
    expect(lru.get('valid')).toBe('kept');
  });

  it('peek does not refresh; set of an existing key replaces it and refreshes it', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.peek('a');
    lru.set('c', 3); // a was still the coldest
    expect(lru.peek('a')).toBeUndefined();
    lru.set('b', 20);
    lru.set('d', 4); // c is the coldest now
    expect([lru.peek('b'), lru.peek('c'), lru.peek('d')]).toEqual([20, undefined, 4]);
    lru.delete('b');
    expect(lru.size).toBe(1);
  });

  it('refuses a capacity below 1', () => {
    expect(() => new Lru(0)).toThrow(RangeError);
  });
});
