// Issue 21, section 2, bounded: one fault of each kind while employees and travel entries keep being
// created through the gateway, with several webhook subscriptions (one of them slow): RabbitMQ stopped
// and started, FerretDB killed (SIGKILL) and started, the dispatcher, employees and entries killed and
// started, the gateway restarted. Every write the API acknowledged reaches every subscriber, verified
// with @travel/webhook-verify; a delivery that comes twice carries the same event id; nothing is
// Exhausted or parked; an outage answers 503, never 500. The full run is `npm run faults`
// (docs/reliability.md).
//
// The harness kills the broker and the store: it runs on a FerretDB and a RabbitMQ of its own (free
// ports, bench/lib/isolated-infra.ts), never on the test servers the other test files share.
import { FAULTS, faultsMarkdown, runFaults, type FaultsResult } from '../../../bench/lib/reliability/faults';

describe('faults under load (bounded: one fault of each kind)', () => {
  let result: FaultsResult;

  beforeAll(async () => {
    result = await runFaults({
      fastSubscriptions: 3,
      slowSubscriptions: 1,
      slowMs: 250,
      ratePerSecond: 8,
      connections: 16,
      warmupS: 5,
      downS: 5,
      recoverMaxS: 90,
      steadyS: 2,
      rounds: 1,
      // Production's back-off starts at 1 s and doubles; shortened so the bound stays near two minutes.
      consumerRetry: { baseMs: 200, maxDelayMs: 1000, maxAttempts: 50 },
      log: () => undefined,
    });
    process.stdout.write(`${faultsMarkdown(result)}\n`);
  }, 600_000);

  it('ran every fault while writes were acknowledged before, during and after it', () => {
    expect(result.faults.map((f) => f.fault)).toEqual(FAULTS.map((f) => f.name));
    for (const f of result.faults) expect(f.writes.acknowledged).toBeGreaterThan(0);
  });

  it('delivers every acknowledged write to every subscriber, verified, a duplicate only with its event id', () => {
    expect(result.totals.drained).toBe(true);
    expect(result.totals.unverified).toBe(0);
    for (const f of result.faults)
      expect({ fault: f.fault, missing: f.missing, newEventIds: f.recordsWithSeveralEventIds }).toEqual({
        fault: f.fault,
        missing: 0,
        newEventIds: 0,
      });
    expect(result.totals.missing).toBe(0);
    expect(result.totals.recordsWithSeveralEventIds).toBe(0);
  });

  it('leaves nothing Exhausted or parked, and every fault drained', () => {
    expect(result.end.deliveryLog.Exhausted ?? 0).toBe(0);
    for (const [queue, n] of Object.entries(result.end.parked)) expect({ queue, n }).toEqual({ queue, n: 0 });
    for (const f of result.faults)
      expect({ fault: f.fault, drained: f.backlogDrainedS !== null }).toEqual({
        fault: f.fault,
        drained: true,
      });
  });

  it('answers an outage with 503 (or no answer while the gateway restarts), never 500', () => {
    expect(result.totals.writes.byStatus['500'] ?? 0).toBe(0);
    expect(result.failures).toEqual([]);
  });
});
