import { ConsoleSessionLiveness, type ConsoleSessionRecords } from './console-session-liveness';

/** The shared store, counting the lookups that reach it. */
function store() {
  const live = new Set<string>();
  const calls = { isLive: 0 };
  const records: ConsoleSessionRecords = {
    record: async (id) => void live.add(id),
    isLive: async (id) => {
      calls.isLive++;
      return live.has(id);
    },
    end: async (id) => void live.delete(id),
  };
  return { live, calls, records };
}

describe('ConsoleSessionLiveness', () => {
  const END = 10_000_000;

  it('a sign-out on another replica takes effect here within the window, not later', async () => {
    const { calls, records } = store();
    let now = 0;
    const here = new ConsoleSessionLiveness(records, 5000, 100, () => now);
    const there = new ConsoleSessionLiveness(records, 5000, 100, () => now);
    await there.record('s1', 'k1', END);
    expect(await here.isLive('s1', END)).toBe(true);
    await there.end('s1', END);
    now = 4999;
    expect(await here.isLive('s1', END)).toBe(true); // within the window: the answer remembered
    now = 5000;
    expect(await here.isLive('s1', END)).toBe(false);
    expect(calls.isLive).toBe(2);
  });

  it('the replica that signs out forgets at once, and an ended session never comes back', async () => {
    const { calls, records } = store();
    const here = new ConsoleSessionLiveness(records, 60_000);
    await here.record('s1', 'k1', END);
    expect(await here.isLive('s1', END)).toBe(true);
    await here.end('s1', END);
    expect(await here.isLive('s1', END)).toBe(false);
    expect(calls.isLive).toBe(0);
  });

  it('a sign-out while a lookup runs wins over the lookup’s older answer', async () => {
    const { live, records } = store();
    live.add('s1');
    let release!: () => void;
    const slow: ConsoleSessionRecords = {
      ...records,
      isLive: (id) => new Promise((r) => (release = () => r(live.has(id)))),
    };
    const here = new ConsoleSessionLiveness(slow, 60_000);
    const asked = here.isLive('s1', END);
    await here.end('s1', END);
    release();
    expect(await asked).toBe(false);
    expect(await here.isLive('s1', END)).toBe(false);
  });

  it('requests of one session at once share one lookup; a window of 0 asks every time', async () => {
    const { live, calls, records } = store();
    live.add('s1');
    const here = new ConsoleSessionLiveness(records, 0);
    expect(await Promise.all([here.isLive('s1', END), here.isLive('s1', END)])).toEqual([true, true]);
    expect(calls.isLive).toBe(1);
    await here.isLive('s1', END);
    expect(calls.isLive).toBe(2);
  });

  it('a store that cannot answer is an error, never a live session', async () => {
    const { records } = store();
    const failing = new ConsoleSessionLiveness({ ...records, isLive: () => Promise.reject(new Error('down')) });
    await expect(failing.isLive('s1', END)).rejects.toThrow('down');
  });
});
