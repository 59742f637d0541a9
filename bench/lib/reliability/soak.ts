// The soak (issue 21, section 3): the write stream at a steady rate for N minutes, no fault. Every
// sampleS: each process's resident memory (VmRSS), the broker's queue depths, the outbox's oldest
// pending event (employees, entries) and the deliveries still owed for writes acknowledged more than
// 5 s before. Verdicts (decision 0122): per process, the median RSS of the last minute is under 110 % of
// the median of the first minute after the warm-up; no backlog grows (the last minute's median within
// two seconds' worth of deliveries of the first minute's after the warm-up); zero errors.
import { readFileSync } from 'node:fs';
import { CpuMeter, metric, percentile, round2 } from '../system';
import { acknowledged, byStatus } from './ledger';
import { WriteStream } from './load';
import {
  brokerQuorumTablesMb,
  drain,
  endChecks,
  queueDepths,
  sleep,
  startHarness,
  type EndChecks,
  type HarnessOptions,
} from './harness';

/** The harness's own receiver: followed and reported, but it is not the product, so it has no verdict. */
const HARNESS_PROCESS = 'receiver';

export interface SoakOptions extends HarnessOptions {
  minutes: number;
  ratePerSecond: number;
  connections: number;
  sampleS: number;
}

interface Sample {
  t: number;
  rssMb: Record<string, number>;
  queued: number;
  outboxOldestS: number;
  owedOlderThan5s: number;
  /** The broker's quorum WAL tables, MB (part of rabbitmq's RSS; see brokerQuorumTablesMb). */
  brokerQuorumTablesMb?: number;
}

export interface SoakResult {
  startedAt: string;
  settings: Omit<SoakOptions, 'log'>;
  warmupS: number;
  memory: Record<string, { afterWarmupMb: number; endMb: number; maxMb: number; growthPct: number }>;
  backlog: Record<'queued' | 'outboxOldestS' | 'owedOlderThan5s', { afterWarmup: number; end: number; max: number }>;
  /** The part of rabbitmq's RSS its quorum WAL tables hold (grows until the WAL rolls over). */
  brokerQuorumTablesMb: { afterWarmup: number; end: number; max: number };
  cpuCores: Record<string, number>;
  machineBusyCores: number;
  writes: {
    sent: number;
    acknowledged: number;
    byStatus: Record<string, number>;
    skipped: number;
    perSecond: number;
    /** Seconds into the run at which writes were not acknowledged (the first 100). */
    failedAtS: number[];
  };
  deliveries: {
    verified: number;
    perSecond: number;
    missing: number;
    duplicatesSameEventId: number;
    newEventIds: number;
    unverified: number;
  };
  errorLogLines: number;
  end: EndChecks;
  samples: Sample[];
  failures: string[];
}

function rssMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/** Error and fatal lines (pino levels 50, 60) in the services' logs. */
function errorLines(files: string[]): number {
  let n = 0;
  for (const f of files) {
    try {
      for (const line of readFileSync(f, 'utf8').split('\n')) if (/"level":(50|60)\b/.test(line)) n++;
    } catch {
      /* no log written */
    }
  }
  return n;
}

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const startedAt = new Date().toISOString();
  const h = await startHarness(o);
  const durationMs = o.minutes * 60_000;
  // The example: 5 minutes of warm-up; a short trial run keeps a sixth of its time for it.
  const warmupMs = Math.min(5 * 60_000, durationMs / 6);
  const windowMs = Math.min(60_000, durationMs / 6);
  const samples: Sample[] = [];
  const pids = h.stack.pids();
  const cpu = new CpuMeter(pids);
  const stream = new WriteStream(h.stack.gatewayUrl, h.apiKey, h.ledger, {
    ratePerSecond: o.ratePerSecond,
    connections: o.connections,
    timeoutMs: 20_000,
  });
  const t0 = Date.now();
  let cpuRead: ReturnType<CpuMeter['read']>;
  try {
    stream.start();
    while (Date.now() - t0 < durationMs) {
      await sleep(o.sampleS * 1000);
      await h.stack.receiver.flush();
      const queues = await queueDepths(h.stack).catch(() => ({}) as Record<string, number>);
      const outbox = await Promise.all(
        (['employees', 'entries'] as const).map((s) =>
          metric(h.stack.child(s)?.opsUrl, 'outbox_oldest_pending_seconds'),
        ),
      );
      const rss: Record<string, number> = {};
      for (const [name, pid] of Object.entries(pids)) {
        const mb = rssMb(pid);
        if (mb !== undefined) rss[name] = mb;
      }
      const s: Sample = {
        t: Math.round((Date.now() - t0) / 1000),
        rssMb: rss,
        queued: Object.entries(queues)
          .filter(([q]) => !q.endsWith('.parking'))
          .reduce((a, [, n]) => a + n, 0),
        outboxOldestS: Math.max(0, ...outbox.map((x) => x ?? 0)),
        owedOlderThan5s: h.ledger.pending(h.ledger.ackedBy(Date.now() - 5000)),
        brokerQuorumTablesMb: await brokerQuorumTablesMb(h.stack),
      };
      samples.push(s);
      o.log(
        `t=${s.t}s rss ${JSON.stringify(s.rssMb)} (broker quorum tables ${s.brokerQuorumTablesMb} MB) queued ${s.queued} outbox ${s.outboxOldestS}s owed>5s ${s.owedOlderThan5s} writes ${h.ledger.writes.length} deliveries ${h.ledger.deliveries}`,
      );
    }
    cpuRead = cpu.read();
  } finally {
    await stream.stop();
  }
  const drained = await drain(h, 120_000);
  try {
    const end = await endChecks(h);
    const after = samples.filter((s) => s.t * 1000 >= warmupMs && s.t * 1000 < warmupMs + windowMs);
    const last = samples.filter((s) => s.t * 1000 >= durationMs - windowMs);
    const memory: SoakResult['memory'] = {};
    for (const name of Object.keys(pids)) {
      const a = median(after.map((s) => s.rssMb[name]).filter((x): x is number => x !== undefined));
      const e = median(last.map((s) => s.rssMb[name]).filter((x): x is number => x !== undefined));
      const max = Math.max(...samples.map((s) => s.rssMb[name] ?? 0));
      memory[name] = { afterWarmupMb: a, endMb: e, maxMb: max, growthPct: round2(((e - a) / a) * 100) };
    }
    const backlogOf = (k: 'queued' | 'outboxOldestS' | 'owedOlderThan5s') => ({
      afterWarmup: median(after.map((s) => s[k])),
      end: median(last.map((s) => s[k])),
      max: Math.max(...samples.map((s) => s[k])),
    });
    const backlog = {
      queued: backlogOf('queued'),
      outboxOldestS: backlogOf('outboxOldestS'),
      owedOlderThan5s: backlogOf('owedOlderThan5s'),
    };
    const quorum = (xs: Sample[]) => xs.map((x) => x.brokerQuorumTablesMb ?? NaN).filter((x) => !Number.isNaN(x));
    const brokerQuorum = {
      afterWarmup: median(quorum(after)),
      end: median(quorum(last)),
      max: Math.max(...quorum(samples)),
    };
    const { ledger } = h;
    const counts = ledger.counts(ledger.writes);
    const acked = ledger.writes.filter(acknowledged).length;
    const seconds = durationMs / 1000;
    const errorLogLines = errorLines(h.stack.logFiles);
    const failures: string[] = [];
    for (const [name, m] of Object.entries(memory))
      if (name !== HARNESS_PROCESS && !(m.growthPct < 10))
        failures.push(`${name} memory grew ${m.growthPct} % after the warm-up`);
    const slack = {
      queued: o.ratePerSecond * ledger.subscriptions * 2,
      outboxOldestS: 2,
      owedOlderThan5s: o.ratePerSecond * ledger.subscriptions * 2,
    };
    for (const [k, b] of Object.entries(backlog))
      if (b.end > b.afterWarmup + slack[k as keyof typeof slack])
        failures.push(`backlog ${k} grew: ${b.afterWarmup} → ${b.end}`);
    const failedWrites = ledger.writes.length - acked;
    if (failedWrites > 0)
      failures.push(`${failedWrites} writes not acknowledged: ${JSON.stringify(byStatus(ledger.writes))}`);
    if (stream.skipped > 0) failures.push(`${stream.skipped} writes not sent (client saturated)`);
    if (!drained || counts.missing > 0) failures.push(`${counts.missing} deliveries missing after the drain`);
    if (counts.recordsWithSeveralEventIds > 0)
      failures.push(`${counts.recordsWithSeveralEventIds} records under a new event id`);
    if (ledger.unverified > 0) failures.push(`${ledger.unverified} deliveries failed verification`);
    const notSucceeded = Object.entries(end.deliveryLog).filter(([k]) => k !== 'Succeeded');
    if (notSucceeded.length) failures.push(`delivery log: ${JSON.stringify(Object.fromEntries(notSucceeded))}`);
    if (Object.values(end.parked).some((n) => n > 0)) failures.push(`parked: ${JSON.stringify(end.parked)}`);
    if (errorLogLines > 0) failures.push(`${errorLogLines} error lines in the services' logs`);
    const { log: _log, ...settings } = o;
    return {
      startedAt,
      settings,
      warmupS: warmupMs / 1000,
      memory,
      backlog,
      brokerQuorumTablesMb: brokerQuorum,
      cpuCores: { ...cpuRead.cores, other: cpuRead.otherCores },
      machineBusyCores: cpuRead.machineBusyCores,
      writes: {
        sent: ledger.writes.length,
        acknowledged: acked,
        byStatus: byStatus(ledger.writes),
        skipped: stream.skipped,
        perSecond: round2(acked / seconds),
        failedAtS: ledger.writes
          .filter((w) => !acknowledged(w))
          .slice(0, 100)
          .map((w) => Math.round((w.sentAt - t0) / 1000)),
      },
      deliveries: {
        verified: ledger.deliveries,
        perSecond: round2(ledger.deliveries / seconds),
        missing: counts.missing,
        duplicatesSameEventId: counts.duplicatesSameEventId,
        newEventIds: counts.recordsWithSeveralEventIds,
        unverified: ledger.unverified,
      },
      errorLogLines,
      end,
      samples,
      failures,
    };
  } finally {
    await h.stack.shutdown();
  }
}

export function soakMarkdown(r: SoakResult): string {
  const table = (h: unknown[], rs: unknown[][]) =>
    [`| ${h.join(' | ')} |`, `|${h.map(() => '---').join('|')}|`, ...rs.map((x) => `| ${x.join(' | ')} |`)].join('\n');
  return [
    `${r.settings.minutes} min at ${r.settings.ratePerSecond} writes/s × ${r.settings.fastSubscriptions + r.settings.slowSubscriptions} subscriptions (${r.settings.slowSubscriptions} slow, ${r.settings.slowMs} ms); warm-up ${r.warmupS} s.`,
    '',
    table(
      ['process', 'RSS after warm-up MB', 'RSS at the end MB', 'max MB', 'growth %', 'CPU cores'],
      Object.entries(r.memory).map(([k, m]) => [
        k,
        m.afterWarmupMb,
        m.endMb,
        m.maxMb,
        m.growthPct,
        r.cpuCores[k] ?? '-',
      ]),
    ),
    '',
    table(
      ['backlog', 'after warm-up (median of 1 min)', 'end (median of last min)', 'max'],
      Object.entries(r.backlog).map(([k, b]) => [k, b.afterWarmup, b.end, b.max]),
    ),
    '',
    `Of rabbitmq's RSS, its quorum queues' WAL tables (\`quorum_ets\`): ${r.brokerQuorumTablesMb.afterWarmup} MB after the warm-up, ${r.brokerQuorumTablesMb.end} MB at the end (max ${r.brokerQuorumTablesMb.max}).`,
    '',
    `Writes: ${r.writes.sent} sent, ${r.writes.acknowledged} acknowledged (${r.writes.perSecond}/s), ${JSON.stringify(r.writes.byStatus)}, ${r.writes.skipped} not sent. ` +
      `Deliveries: ${r.deliveries.verified} verified (${r.deliveries.perSecond}/s), ${r.deliveries.missing} missing, ${r.deliveries.duplicatesSameEventId} duplicates (same event id), ${r.deliveries.newEventIds} new event ids, ${r.deliveries.unverified} unverified. ` +
      `Delivery log ${JSON.stringify(r.end.deliveryLog)}, parked ${JSON.stringify(r.end.parked)}, error log lines ${r.errorLogLines}; machine ${r.machineBusyCores} cores busy (other processes ${r.cpuCores.other ?? '-'}).`,
    '',
    r.failures.length ? `**FAILED:** ${r.failures.join('; ')}` : '**Passed.**',
  ].join('\n');
}
