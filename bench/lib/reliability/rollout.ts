// Kills and rolling restarts under load (issue 38 §2, decision 0217), on the stack with several replicas
// of every service and the faults harness's write stream, ledger and receiver. The writes go through an
// Ingress over the gateway replicas (round robin over the ready ones, as a load balancer does).
//   kills:   one replica of each service in turn gets SIGKILL (the dispatcher mid-send, entries
//            mid-write, ...), then starts again; the next step waits until the backlog drained.
//   rolling: every replica of every service in turn gets SIGTERM, exits (decision 0216's graceful stop),
//            starts again and is ready before the next one stops, as a Deployment's rolling update does.
// Verdicts: every acknowledged write reaches every subscriber, verified; a duplicate only with the same
// event id; nothing Exhausted or parked; no 500. Kills: a write may fail if it went through the killed
// gateway replica, or was in flight when a replica died (its outcome is unknown to the client: it is not
// sent again blindly); one sent through a live gateway after the death must not fail. Rolling: no write
// fails at all (no 5xx, no connection error).
import { acknowledged, byStatus, type DeliveryCounts, type Write } from './ledger';
import { Ingress } from './ingress';
import { WriteStream } from './load';
import { markdownTable, runTotals, standingFailures, totalsLead, type RunTotals } from './run-totals';
import {
  drain,
  endChecks,
  seconds,
  sleep,
  startHarness,
  type EndChecks,
  type Harness,
  type HarnessOptions,
} from './harness';
import { ALL_SERVICES, type ServiceName } from './stack';
import { existsSync, readFileSync } from 'node:fs';
import { waitForExit } from '../children';

export type Phase = 'kills' | 'rolling';

/** The kills' order: the three the issue names first, then the others, the gateway last but one. */
export const KILL_ORDER: readonly ServiceName[] = [
  'webhook-dispatcher',
  'entries',
  'payouts',
  'employees',
  'gateway',
  'fleet',
  'reference-fx',
];

export interface RolloutOptions extends HarnessOptions {
  phases: readonly Phase[];
  /** Replicas of every service (2: each step leaves one running). */
  replicas: number;
  ratePerSecond: number;
  connections: number;
  warmupS: number;
  /** Seconds of writes after a step (its replica ready again, the backlog drained) before the next. */
  settleS: number;
  /** Bound of the wait for a kill's backlog to drain, and of the final drain. */
  recoverMaxS: number;
  rounds: number;
  /** The services' SHUTDOWN_READINESS_PAUSE_MS and SHUTDOWN_DRAIN_TIMEOUT_MS (production: 5000 and 15000). */
  readinessPauseMs: number;
  drainTimeoutMs: number;
  /** How often the ingress probes each gateway replica's /readyz. */
  probeMs: number;
  /**
   * The dispatchers' WEBHOOK_TIMEOUT_MS (production: 10000), when the receiver answers well within less: a
   * rejoining dispatcher sends nothing for one replica check plus this (0220), so a bounded run shortens it.
   */
  webhookTimeoutMs?: number;
  /**
   * The services whose replicas the steps stop (default: every one; the bounded test takes a few). The
   * others run one replica: a step never stops them, and fewer processes start and idle on the machine.
   */
  only?: readonly ServiceName[];
  /** The stack's infrastructure: `shared` (the test servers) is fine, neither is killed here. */
  infra?: 'isolated' | 'shared';
}

export interface StepResult extends DeliveryCounts {
  phase: Phase;
  service: ServiceName;
  replica: number;
  /** From the signal until the process exited, and until it was ready again. */
  exitS: number;
  backS: number;
  writes: { sent: number; acknowledged: number; byStatus: Record<string, number> };
  /** Writes of the step's window whose connection a gateway replica refused, sent to the other one. */
  refusedThenSentElsewhere: number;
  /** Failed writes (5xx or no answer) that went through the stopped gateway replica. */
  failedViaStoppedGateway: number;
  /** Failed writes through another gateway replica: sent before the process exited, and after it. */
  failedInFlight: number;
  failedSentAfter: number;
  backlogDrainedS: number | null;
}

export interface RolloutResult {
  startedAt: string;
  settings: Omit<RolloutOptions, 'log'>;
  steps: StepResult[];
  totals: RunTotals;
  end: EndChecks;
  failures: string[];
}

const failed = (w: Write) => w.status === 0 || w.status >= 500;

/**
 * The failed writes a step answers for: those that failed while it was the step under way, from its signal
 * (`start`) to the next step's (`until`); those in flight at its signal count with it too. A write sent
 * during a step that failed only once the next one began (a gateway killed under it) is the next step's:
 * counted with both, it would be blamed on this step's service as well.
 */
export const failedWritesOfStep = (writes: readonly Write[], start: number, until: number): Write[] =>
  writes.filter((w) => failed(w) && w.doneAt >= start && w.doneAt < until);

/** Polls a replica's /readyz until it answers 200 (a rollout's next step waits for it). */
async function readyz(opsUrl: string, maxMs: number): Promise<void> {
  for (const until = Date.now() + maxMs; Date.now() < until; await sleep(200)) {
    try {
      if ((await fetch(`${opsUrl}/readyz`, { signal: AbortSignal.timeout(2000) })).status === 200) return;
    } catch {
      /* not listening yet */
    }
  }
  throw new Error(`${opsUrl}/readyz not 200 within ${maxMs} ms`);
}

export async function runRollout(o: RolloutOptions): Promise<RolloutResult> {
  const startedAt = new Date().toISOString();
  const h = await startHarness({
    ...o,
    stack: {
      services: ALL_SERVICES,
      replicas: Object.fromEntries(
        ALL_SERVICES.map((name) => [name, !o.only || o.only.includes(name) ? o.replicas : 1]),
      ),
      infra: o.infra,
    },
    extraEnv: {
      SHUTDOWN_READINESS_PAUSE_MS: String(o.readinessPauseMs),
      SHUTDOWN_DRAIN_TIMEOUT_MS: String(o.drainTimeoutMs),
      ...(o.webhookTimeoutMs === undefined ? {} : { WEBHOOK_TIMEOUT_MS: String(o.webhookTimeoutMs) }),
    },
  });
  // No process of the run outlives it, whatever fails.
  try {
    return await runSteps(o, h, startedAt);
  } finally {
    await h.stack.shutdown();
  }
}

/**
 * Starts a replica again on its port. Another process of this machine may hold that port for a while
 * (a free port of the run is an ephemeral port, which an outgoing connection may take while the replica
 * is down): the start is tried again then, as a pod would be restarted.
 */
async function startAgain(h: Harness, service: ServiceName, replica: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await h.stack.restart(service, replica);
      return;
    } catch (err) {
      const log = h.stack.logFiles.at(-1);
      const portTaken = log !== undefined && existsSync(log) && readFileSync(log, 'utf8').includes('EADDRINUSE');
      if (!portTaken || attempt >= 20) throw err;
      await sleep(3000);
    }
  }
}

async function runSteps(o: RolloutOptions, h: Harness, startedAt: string): Promise<RolloutResult> {
  const opsUrl = (name: ServiceName, i: number) => `http://127.0.0.1:${h.stack.ports[name]![i]!.opsPort}`;
  const ingress = new Ingress(
    h.stack.ports.gateway!.map((_, i) => ({ url: h.stack.replicaUrl('gateway', i), opsUrl: opsUrl('gateway', i) })),
    { probeMs: o.probeMs, connections: o.connections },
  );
  const steps: Array<{
    phase: Phase;
    service: ServiceName;
    replica: number;
    start: number;
    exited: number;
    end: number;
  }> = [];
  const chosen = (name: ServiceName) => !o.only || o.only.includes(name);
  let stream: WriteStream | undefined;
  try {
    ingress.start();
    stream = new WriteStream(ingress, h.apiKey, h.ledger, {
      ratePerSecond: o.ratePerSecond,
      connections: o.connections,
      timeoutMs: 30_000,
    });
    stream.start();
    await sleep(o.warmupS * 1000);
    for (let round = 0; round < o.rounds; round++)
      for (const phase of o.phases) {
        const order: Array<[ServiceName, number]> =
          phase === 'kills'
            ? KILL_ORDER.filter(chosen).map((name) => [name, round % o.replicas])
            : ALL_SERVICES.filter(chosen).flatMap((name) =>
                h.stack.ports[name]!.map((_, i): [ServiceName, number] => [name, i]),
              );
        for (const [service, replica] of order) {
          const child = h.stack.child(service, replica)!;
          const start = Date.now();
          o.log(`${phase}: ${service} #${replica}`);
          child.proc.kill(phase === 'kills' ? 'SIGKILL' : 'SIGTERM');
          const exitedInTime = await waitForExit(child.proc, o.readinessPauseMs + o.drainTimeoutMs + 30_000);
          if (!exitedInTime)
            throw new Error(`${service} #${replica} did not exit after ${phase === 'kills' ? 'SIGKILL' : 'SIGTERM'}`);
          const exited = Date.now();
          await startAgain(h, service, replica);
          await readyz(opsUrl(service, replica), 120_000);
          const end = Date.now();
          steps.push({ phase, service, replica, start, exited, end });
          const drained = await drain(h, o.recoverMaxS * 1000, end);
          o.log(
            `  exited after ${seconds(exited - start)} s, ready after ${seconds(end - start)} s; writes ${h.ledger.writes.length}, deliveries ${h.ledger.deliveries}; backlog ${drained ? 'drained' : 'NOT drained'}`,
          );
          await sleep(o.settleS * 1000);
        }
      }
  } finally {
    await stream?.stop();
    ingress.stop();
  }
  const drained = await drain(h, o.recoverMaxS * 1000);
  await h.stack.receiver.flush();
  const end = await endChecks(h);
  const { ledger } = h;
  const results: StepResult[] = steps.map((s, i) => {
    const until = steps[i + 1]?.start ?? Infinity;
    const inWindow = ledger.writes.filter((w) => w.sentAt >= s.start && w.sentAt < until);
    const failedOfStep = failedWritesOfStep(ledger.writes, s.start, until);
    const viaStopped = (w: Write) => s.service === 'gateway' && w.gateway === s.replica;
    const viaOther = failedOfStep.filter((w) => !viaStopped(w));
    const allAt = ledger.deliveredAllAt(ledger.ackedBy(s.end));
    return {
      phase: s.phase,
      service: s.service,
      replica: s.replica,
      exitS: seconds(s.exited - s.start)!,
      backS: seconds(s.end - s.start)!,
      writes: {
        sent: inWindow.length,
        acknowledged: inWindow.filter(acknowledged).length,
        byStatus: byStatus(inWindow),
      },
      refusedThenSentElsewhere: inWindow.filter((w) => w.refusedBy !== undefined).length,
      failedViaStoppedGateway: failedOfStep.filter(viaStopped).length,
      failedInFlight: viaOther.filter((w) => w.sentAt < s.exited).length,
      failedSentAfter: viaOther.filter((w) => w.sentAt >= s.exited).length,
      backlogDrainedS: allAt === undefined ? null : seconds(Math.max(0, allAt - s.end)),
      ...ledger.counts(inWindow),
    };
  });
  const totals = runTotals(ledger, stream, drained);
  const failures = standingFailures(ledger, totals, end);
  for (const r of results) {
    const step = `${r.phase} ${r.service} #${r.replica}`;
    const failedWrites = r.failedViaStoppedGateway + r.failedInFlight + r.failedSentAfter;
    if (r.phase === 'rolling' && failedWrites > 0)
      failures.push(`${step}: ${failedWrites} writes failed ${JSON.stringify(r.writes.byStatus)}`);
    if (r.phase === 'kills' && r.failedSentAfter > 0)
      failures.push(
        `${step}: ${r.failedSentAfter} writes sent through a live gateway after the kill failed ${JSON.stringify(r.writes.byStatus)}`,
      );
  }
  const { log: _log, ...settings } = o;
  return { startedAt, settings, steps: results, totals, end, failures };
}

export function rolloutMarkdown(r: RolloutResult): string {
  const head = [
    'step',
    'exit s',
    'ready s',
    'writes sent / acknowledged',
    'answers',
    'refused, sent to the other gateway',
    'failed via the stopped gateway',
    'failed via another gateway: in flight / sent after the exit',
    'missing',
    'dup (same event id)',
    'new event id',
    'backlog drained s',
  ];
  const rows = r.steps.map((s) => [
    `${s.phase === 'kills' ? 'SIGKILL' : 'SIGTERM'} ${s.service} #${s.replica}`,
    s.exitS,
    s.backS,
    `${s.writes.sent} / ${s.writes.acknowledged}`,
    Object.entries(s.writes.byStatus)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', '),
    s.refusedThenSentElsewhere,
    s.failedViaStoppedGateway,
    `${s.failedInFlight} / ${s.failedSentAfter}`,
    s.missing,
    s.duplicatesSameEventId,
    s.recordsWithSeveralEventIds,
    s.backlogDrainedS ?? 'not drained',
  ]);
  const t = r.totals;
  return [
    ...markdownTable(head, rows),
    '',
    `${totalsLead(t)}; delivery log ${JSON.stringify(r.end.deliveryLog)}; ` +
      `parked ${JSON.stringify(r.end.parked)}; queues not empty at the end ${JSON.stringify(r.end.nonEmptyQueues)}.`,
    '',
    r.failures.length ? `**FAILED:** ${r.failures.join('; ')}` : '**Passed.**',
  ].join('\n');
}
