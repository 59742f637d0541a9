// Faults under load (issue 21, section 2): one fault after another while the write stream runs, each
// followed by the wait for its backlog to drain; then the stream stops, the last deliveries drain, and
// the end checks run. Per fault: the writes of its window (from its start to the next fault's start),
// acknowledged or not, what of them was delivered, and the time to recover (decision 0121).
import { acknowledged, byStatus, type DeliveryCounts } from './ledger';
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

export interface Fault {
  name: string;
  /** Injects the fault and undoes it; resolves once the component is back (ready again). */
  run(h: Harness, downMs: number): Promise<void>;
}

const killAndStart = (service: 'webhook-dispatcher' | 'employees' | 'entries'): Fault => ({
  name: `${service} killed (SIGKILL) and started`,
  async run(h) {
    await h.stack.kill(service);
    await h.stack.restart(service);
  },
});

/** Every fault of the issue, in its order. */
export const FAULTS: Fault[] = [
  {
    name: 'RabbitMQ stopped and started',
    async run(h, downMs) {
      await h.stack.infra.stopBroker();
      await sleep(downMs);
      await h.stack.infra.startBroker();
    },
  },
  {
    name: 'FerretDB killed (SIGKILL) and started',
    async run(h, downMs) {
      await h.stack.infra.killStore();
      await sleep(downMs);
      await h.stack.infra.startStore();
    },
  },
  killAndStart('webhook-dispatcher'),
  killAndStart('employees'),
  killAndStart('entries'),
  {
    name: 'gateway restarted',
    async run(h) {
      await h.stack.stop('gateway');
      await h.stack.restart('gateway');
    },
  },
];

export interface FaultsOptions extends HarnessOptions {
  ratePerSecond: number;
  connections: number;
  /** Seconds of writes before the first fault. */
  warmupS: number;
  /** How long the broker and the store stay down. */
  downS: number;
  /** Bound of the wait for a fault's backlog to drain, and of the final drain. */
  recoverMaxS: number;
  /** Seconds of writes after a fault drained, before the next one. */
  steadyS: number;
  /** How many times the whole list of faults runs. */
  rounds: number;
}

export interface FaultResult extends DeliveryCounts {
  fault: string;
  /** From the fault's start until the component was back. */
  outageS: number;
  writes: { sent: number; acknowledged: number; byStatus: Record<string, number> };
  /** From the fault's end (component back): the first verified delivery, the first acknowledged write. */
  firstDeliveryS: number | null;
  firstAcknowledgedWriteS: number | null;
  /** From the fault's end until every write acknowledged before it was delivered everywhere; null: not in the bound. */
  backlogDrainedS: number | null;
}

export interface FaultsResult {
  startedAt: string;
  settings: Omit<FaultsOptions, 'log'>;
  faults: FaultResult[];
  totals: RunTotals & { unacknowledgedRecordsDelivered: number };
  end: EndChecks;
  /** Whatever broke the issue's rules; empty when the run passed. */
  failures: string[];
}

export async function runFaults(o: FaultsOptions, faults: Fault[] = FAULTS): Promise<FaultsResult> {
  const startedAt = new Date().toISOString();
  const h = await startHarness(o);
  const windows: Array<{ fault: Fault; start: number; end: number; drainedAt?: number }> = [];
  let stream: WriteStream | undefined;
  try {
    stream = new WriteStream(h.stack.gatewayUrl, h.apiKey, h.ledger, {
      ratePerSecond: o.ratePerSecond,
      connections: o.connections,
      timeoutMs: 20_000,
    });
    stream.start();
    await sleep(o.warmupS * 1000);
    for (let round = 0; round < o.rounds; round++)
      for (const fault of faults) {
        const start = Date.now();
        o.log(`fault: ${fault.name}`);
        await fault.run(h, o.downS * 1000);
        const end = Date.now();
        const w = { fault, start, end, drainedAt: undefined as number | undefined };
        windows.push(w);
        const drained = await drain(h, o.recoverMaxS * 1000, end).then(() =>
          h.ledger.deliveredAllAt(h.ledger.ackedBy(end)),
        );
        o.log(
          `  writes ${h.ledger.writes.length}, deliveries ${h.ledger.deliveries}; back after ${seconds(end - start)} s; backlog ${drained ? `drained ${seconds(Math.max(0, drained - end))} s after` : 'NOT drained'}`,
        );
        await sleep(o.steadyS * 1000);
      }
  } finally {
    await stream?.stop();
  }
  const drained = await drain(h, o.recoverMaxS * 1000);
  await h.stack.receiver.flush();
  try {
    const end = await endChecks(h);
    const { ledger } = h;
    const results: FaultResult[] = windows.map((w, i) => {
      const until = windows[i + 1]?.start ?? Infinity;
      const inWindow = ledger.writes.filter((x) => x.sentAt >= w.start && x.sentAt < until);
      const acked = inWindow.filter(acknowledged);
      const firstAck = ledger.writes
        .filter(acknowledged)
        .map((x) => x.doneAt)
        .filter((t) => t >= w.end)
        .sort((a, b) => a - b)[0];
      const firstDelivery = ledger.firstArrivalFrom(w.end);
      const allAt = ledger.deliveredAllAt(ledger.ackedBy(w.end));
      return {
        fault: w.fault.name,
        outageS: seconds(w.end - w.start)!,
        writes: { sent: inWindow.length, acknowledged: acked.length, byStatus: byStatus(inWindow) },
        firstDeliveryS: firstDelivery === undefined ? null : seconds(firstDelivery - w.end),
        firstAcknowledgedWriteS: firstAck === undefined ? null : seconds(firstAck - w.end),
        backlogDrainedS: allAt === undefined ? null : seconds(Math.max(0, allAt - w.end)),
        ...ledger.counts(inWindow),
      };
    });
    const totals = {
      ...runTotals(ledger, stream, drained),
      unacknowledgedRecordsDelivered: ledger.unacknowledgedRecordsDelivered(),
    };
    const failures = standingFailures(ledger, totals, end);
    const { log: _log, ...settings } = o;
    return { startedAt, settings, faults: results, totals, end, failures };
  } finally {
    await h.stack.shutdown();
  }
}

export function faultsMarkdown(r: FaultsResult): string {
  const head = [
    'fault',
    'outage s',
    'writes sent / acknowledged',
    'answers',
    'missing',
    'dup (same event id)',
    'new event id',
    'first delivery s',
    'first acknowledged write s',
    'backlog drained s',
  ];
  const rows = r.faults.map((f) => [
    f.fault,
    f.outageS,
    `${f.writes.sent} / ${f.writes.acknowledged}`,
    Object.entries(f.writes.byStatus)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', '),
    f.missing,
    f.duplicatesSameEventId,
    f.recordsWithSeveralEventIds,
    f.firstDeliveryS ?? '-',
    f.firstAcknowledgedWriteS ?? '-',
    f.backlogDrainedS ?? 'not drained',
  ]);
  const t = r.totals;
  return [
    ...markdownTable(head, rows),
    '',
    `${totalsLead(t)}, ${t.unacknowledgedRecordsDelivered} records delivered whose write was not acknowledged; ` +
      `delivery log ${JSON.stringify(r.end.deliveryLog)}; parked ${JSON.stringify(r.end.parked)} (unroutable, no consumer in this stack: ${r.end.unroutable}); queues not empty at the end ${JSON.stringify(r.end.nonEmptyQueues)}.`,
    '',
    r.failures.length
      ? `**FAILED:** ${r.failures.join('; ')}`
      : '**Passed:** nothing missing, no new event ids, nothing Exhausted or parked.',
  ].join('\n');
}
