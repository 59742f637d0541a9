import { LookupGate, LookupQueueFull } from './lookup-gate';

/** A task that finishes when `finish()` is called, recording when it started. */
function tasks() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const task = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.set(name, () => resolve(name));
    });
  const finish = async (name: string) => {
    finishers.get(name)!();
    await new Promise((r) => setImmediate(r));
  };
  return { started, task, finish };
}

describe('LookupGate', () => {
  it('runs at most `concurrency` tasks at once; refreshes of known keys go before keys never seen', async () => {
    const gate = new LookupGate(2);
    const { started, task, finish } = tasks();
    const all = [
      gate.run(task('a'), 'later'),
      gate.run(task('b'), 'later'),
      gate.run(task('c'), 'later'),
      gate.run(task('d'), 'later'),
      gate.run(task('refresh'), 'first'),
    ];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b']);
    expect(gate.waiting).toBe(3);
    await finish('a');
    expect(started).toEqual(['a', 'b', 'refresh']);
    await finish('b');
    await finish('refresh');
    expect(started).toEqual(['a', 'b', 'refresh', 'c', 'd']);
    await finish('c');
    await finish('d');
    expect(await Promise.all(all)).toEqual(['a', 'b', 'c', 'd', 'refresh']);
    // All slots free again: two start at once.
    void gate.run(task('e'), 'later');
    void gate.run(task('f'), 'later');
    await new Promise((r) => setImmediate(r));
    expect(started.slice(-2)).toEqual(['e', 'f']);
  });

  it('refuses beyond `maxWaiting` waiting lookups', async () => {
    const gate = new LookupGate(1, 2);
    const { task } = tasks();
    void gate.run(task('a'), 'later');
    void gate.run(task('b'), 'later');
    void gate.run(task('c'), 'later');
    await expect(gate.run(task('d'), 'later')).rejects.toBeInstanceOf(LookupQueueFull);
  });

  it('a failing task frees its slot', async () => {
    const gate = new LookupGate(1);
    await expect(gate.run(() => Promise.reject(new Error('down')), 'later')).rejects.toThrow('down');
    expect(await gate.run(() => Promise.resolve('next'), 'later')).toBe('next');
  });

  it('starts keys never seen at most `laterPerSecond` a second; keys known valid are not held back', async () => {
    const gate = new LookupGate(100, 10_000, 20);
    const startedAt: Array<[string, number]> = [];
    const t0 = Date.now();
    const task = (name: string) => () => {
      startedAt.push([name, Date.now() - t0]);
      return Promise.resolve(name);
    };
    const later = Array.from({ length: 30 }, (_, i) => gate.run(task(`new${i}`), 'later'));
    await new Promise((r) => setTimeout(r, 10));
    expect(startedAt).toHaveLength(20); // one second's worth at once
    await gate.run(task('known'), 'first'); // not waiting for a token
    expect(startedAt[20]![0]).toBe('known');
    await Promise.all(later);
    const last = startedAt.find(([name]) => name === 'new29')![1];
    expect(last).toBeGreaterThanOrEqual(400); // ten more at 20 a second: about half a second
  });
});
