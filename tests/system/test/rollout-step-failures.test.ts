// Which step of a kill-and-restart run a failed write is blamed on (bench/lib/reliability/rollout.ts): the
// step under way when it failed. A suite run once counted a write sent during "kill entries" that the next
// step's gateway kill reset with both steps, and failed the entries step for it.
import { failedWritesOfStep } from '../../../bench/lib/reliability/rollout';
import type { Write } from '../../../bench/lib/reliability/ledger';

const write = (sentAt: number, doneAt: number, status: number, error?: string): Write => ({
  kind: 'entry',
  sentAt,
  doneAt,
  status,
  ...(error ? { error } : {}),
});

describe('failed writes of a rollout step', () => {
  // Step "kill entries #0" from 1,000 to 2,000 ms, then "kill gateway #0" from 2,000 ms.
  const writes = [
    write(1_100, 1_150, 201), // acknowledged: never a failure
    write(900, 1_050, 0, 'ECONNRESET'), // in flight at the entries kill, failed during it
    write(1_990, 2_010, 0, 'ECONNRESET'), // sent during the entries step, reset by the gateway kill
    write(1_500, 1_600, 503), // failed during the entries step
    write(2_100, 2_200, 0, 'ECONNREFUSED'), // the gateway step's own
  ];

  it('blames a write on the step under way when it failed, once', () => {
    expect(failedWritesOfStep(writes, 1_000, 2_000).map((w) => w.sentAt)).toEqual([900, 1_500]);
    expect(failedWritesOfStep(writes, 2_000, Infinity).map((w) => w.sentAt)).toEqual([1_990, 2_100]);
  });

  it('counts a write that failed before the step began with no step of the run', () => {
    expect(failedWritesOfStep([write(100, 200, 0, 'ECONNRESET')], 1_000, 2_000)).toEqual([]);
  });
});
