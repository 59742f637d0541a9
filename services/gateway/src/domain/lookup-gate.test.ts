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
  it('runs at most `concurrency` tasks at once; `first` lookups go before `later` ones', async () => {
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
});
