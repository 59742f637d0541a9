import { MemoryDedupeStore } from './dedupe';

function fakeClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (seconds: number) => (t += seconds * 1000) };
}

describe('MemoryDedupeStore', () => {
  it('reports the first sighting as new and repeats as seen', async () => {
    const store = new MemoryDedupeStore();
    expect(await store.seen('a')).toBe(false);
    expect(await store.seen('a')).toBe(true);
    expect(await store.seen('b')).toBe(false);
  });

  it('is atomic for concurrent calls with the same id', async () => {
    const store = new MemoryDedupeStore();
    const results = await Promise.all(Array.from({ length: 10 }, () => store.seen('x')));
    expect(results.filter((r) => !r)).toHaveLength(1);
  });

  it('forgets ids after the window (default one hour), counted from the first sighting', async () => {
    const clock = fakeClock();
    const store = new MemoryDedupeStore({ now: clock.now });
    await store.seen('a');
    clock.advance(3599);
    expect(await store.seen('a')).toBe(true); // a repeat does not extend the window
    clock.advance(1);
    expect(await store.seen('a')).toBe(false);
    expect(await store.seen('a')).toBe(true);
  });

  it('honours a custom window', async () => {
    const clock = fakeClock();
    const store = new MemoryDedupeStore({ windowSeconds: 10, now: clock.now });
    await store.seen('a');
    clock.advance(9.999);
    expect(await store.seen('a')).toBe(true);
    clock.advance(0.001);
    expect(await store.seen('a')).toBe(false);
  });

  it('sweeps expired ids so memory stays bounded', async () => {
    const clock = fakeClock();
    const store = new MemoryDedupeStore({ windowSeconds: 60, now: clock.now });
    for (let i = 0; i < 1000; i++) {
      clock.advance(1);
      await store.seen(`id-${i}`);
    }
    expect(store.size).toBe(60); // only the last minute's ids remain
    clock.advance(60);
    expect(store.size).toBe(0);
  });

  it('caps the number of remembered ids, dropping the oldest', async () => {
    const store = new MemoryDedupeStore({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) await store.seen(id);
    expect(store.size).toBe(3);
    expect(await store.seen('a')).toBe(false);
    expect(await store.seen('d')).toBe(true);
  });

  it('forget() lets the id be processed again', async () => {
    const store = new MemoryDedupeStore();
    await store.seen('a');
    await store.forget('a');
    expect(await store.seen('a')).toBe(false);
  });

  it('rejects nonsensical options', () => {
    expect(() => new MemoryDedupeStore({ windowSeconds: 0 })).toThrow(RangeError);
    expect(() => new MemoryDedupeStore({ maxEntries: 0 })).toThrow(RangeError);
  });
});
