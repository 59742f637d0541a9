// Issue 38 §2, bounded (decision 0217): two replicas of the dispatcher, entries and the gateway (one of
// each other service, which no step stops), employees and travel entries
// created through both gateway replicas (an ingress's round robin over the ready ones), four webhook
// subscriptions on the HTTPS receiver, one of them slow.
//   Kills: one replica of the dispatcher, of entries and of the gateway gets SIGKILL, then starts again.
//   Rolling: each replica of the gateway, entries and the dispatcher in turn gets SIGTERM, exits, starts
//   again and is ready before the next one stops.
// Every write the API acknowledged reaches every subscriber, verified; a delivery that comes twice carries
// the same event id; nothing is Exhausted or parked. A kill may fail a write that went through the killed
// gateway replica or was in flight at the killed replica, never one sent through a live gateway after
// it died; the rolling restart fails no write at all: every answer 201, no 5xx, no connection error.
// The full run, every service and production's shutdown times, is `npm run rollout` (docs/reliability.md).
//
// Nothing here kills the broker or the store: the stack runs on the shared test servers.
import { rolloutMarkdown, runRollout, type RolloutResult } from '../../../bench/lib/reliability/rollout';

const ONLY = ['webhook-dispatcher', 'entries', 'gateway'] as const;

describe('kills and a rolling restart under load (bounded: the dispatcher, entries and the gateway)', () => {
  let result: RolloutResult;

  beforeAll(async () => {
    result = await runRollout({
      phases: ['kills', 'rolling'],
      replicas: 2,
      only: ONLY,
      infra: 'shared',
      fastSubscriptions: 3,
      slowSubscriptions: 1,
      // Slow, yet with room to spare at this rate: a backlog left by a step drains in seconds, not half a minute.
      slowMs: 250,
      ratePerSecond: 8,
      connections: 16,
      warmupS: 3,
      settleS: 1,
      recoverMaxS: 90,
      rounds: 1,
      // The pause outlasts several probes of the ingress (every 250 ms), as production's 5 s outlasts a
      // load balancer's; the drain bounds the slow subscription's sends (250 ms) many times over.
      readinessPauseMs: 2000,
      drainTimeoutMs: 5000,
      probeMs: 250,
      // A rejoining dispatcher waits one replica check plus the send time-out before it sends (0220): 6 s
      // instead of 11 s; the time-out is still twenty times the slow subscription's answer.
      webhookTimeoutMs: 5000,
      consumerRetry: { baseMs: 200, maxDelayMs: 1000, maxAttempts: 50 },
      log: () => undefined,
    });
    process.stdout.write(`${rolloutMarkdown(result)}\n`);
  }, 600_000);

  it('stopped each chosen replica once per phase while writes were acknowledged', () => {
    expect(result.steps.map((s) => `${s.phase} ${s.service} #${s.replica}`)).toEqual([
      'kills webhook-dispatcher #0',
      'kills entries #0',
      'kills gateway #0',
      'rolling entries #0',
      'rolling entries #1',
      'rolling webhook-dispatcher #0',
      'rolling webhook-dispatcher #1',
      'rolling gateway #0',
      'rolling gateway #1',
    ]);
    for (const s of result.steps) expect(s.writes.acknowledged).toBeGreaterThan(0);
  });

  it('delivers every acknowledged write to every subscriber, verified, a duplicate only with its event id', () => {
    expect(result.totals.drained).toBe(true);
    expect(result.totals.unverified).toBe(0);
    expect(result.totals.missing).toBe(0);
    expect(result.totals.recordsWithSeveralEventIds).toBe(0);
    expect(result.totals.writes.acknowledged).toBeGreaterThan(0);
  });

  it('leaves nothing Exhausted or parked', () => {
    expect(result.end.deliveryLog.Exhausted ?? 0).toBe(0);
    for (const [queue, n] of Object.entries(result.end.parked)) expect({ queue, n }).toEqual({ queue, n: 0 });
  });

  it('fails no write sent through a live gateway after a killed replica died, and answers no 500', () => {
    for (const s of result.steps.filter((x) => x.phase === 'kills'))
      expect({ step: s.service, failedSentAfter: s.failedSentAfter }).toEqual({ step: s.service, failedSentAfter: 0 });
    expect(result.totals.writes.byStatus['500'] ?? 0).toBe(0);
  });

  it('fails no write during the rolling restart: every answer 201, no 5xx, no reset or refused connection', () => {
    for (const s of result.steps.filter((x) => x.phase === 'rolling'))
      expect({ step: `${s.service} #${s.replica}`, answers: s.writes.byStatus }).toEqual({
        step: `${s.service} #${s.replica}`,
        answers: { '201': s.writes.sent },
      });
    expect(result.failures).toEqual([]);
  });
});
