// What every mode of the reliability harness (faults, rollout) counts over the whole run, and the verdicts
// they share (decision 0121): nothing missing, no new event id, nothing unverified, no 500, nothing
// Exhausted or parked.
import type { EndChecks } from './harness';
import { acknowledged, byStatus, type DeliveryCounts, type Ledger } from './ledger';
import type { WriteStream } from './load';

export type RunTotals = DeliveryCounts & {
  writes: { sent: number; acknowledged: number; byStatus: Record<string, number>; skipped: number };
  deliveries: number;
  unverified: number;
  drained: boolean;
};

/** The run's writes by answer and its deliveries, once the backlog drained (or not). */
export function runTotals(ledger: Ledger, stream: WriteStream | undefined, drained: boolean): RunTotals {
  return {
    ...ledger.counts(ledger.writes),
    writes: {
      sent: ledger.writes.length,
      acknowledged: ledger.writes.filter(acknowledged).length,
      byStatus: byStatus(ledger.writes),
      skipped: stream?.skipped ?? 0,
    },
    deliveries: ledger.deliveries,
    unverified: ledger.unverified,
    drained,
  };
}

/** The verdicts every mode shares, as the lines a failed run prints. */
export function standingFailures(ledger: Ledger, totals: RunTotals, end: EndChecks): string[] {
  const failures: string[] = [];
  if (totals.missing > 0) failures.push(`${totals.missing} deliveries of acknowledged writes missing`);
  if (totals.recordsWithSeveralEventIds > 0)
    failures.push(`${totals.recordsWithSeveralEventIds} records delivered under a new event id`);
  if (ledger.unverified > 0) failures.push(`${ledger.unverified} deliveries failed verification`);
  const internal = ledger.writes.filter((w) => w.status === 500).length;
  if (internal > 0) failures.push(`${internal} writes answered 500 (an outage is a 503 SERVICE_UNAVAILABLE)`);
  if ((end.deliveryLog.Exhausted ?? 0) > 0) failures.push(`${end.deliveryLog.Exhausted} deliveries Exhausted`);
  const parked = Object.values(end.parked).reduce((a, b) => a + b, 0);
  if (parked > 0) failures.push(`${parked} messages parked: ${JSON.stringify(end.parked)}`);
  return failures;
}

/** A run's Markdown table: the head, its rule and a line per row. */
export function markdownTable(head: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string[] {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((x) => `| ${x.join(' | ')} |`),
  ];
}

/** The totals' sentence as far as both harnesses write it: the writes, then the deliveries up to `unverified`. */
export function totalsLead(t: RunTotals): string {
  return (
    `Totals: ${t.writes.sent} writes sent, ${t.writes.acknowledged} acknowledged (${JSON.stringify(t.writes.byStatus)}, ${t.writes.skipped} not sent: client saturated); ` +
    `${t.deliveries} verified deliveries, ${t.missing} missing, ${t.duplicatesSameEventId} duplicates with the same event id, ` +
    `${t.recordsWithSeveralEventIds} with a new event id, ${t.unverified} unverified`
  );
}
