// What the reliability harness counts: every API write (acknowledged or not) and every delivery the
// receiver verified with @travel/webhook-verify, keyed by (subscription, record id). An acknowledged
// write (2xx with the new record's id) is expected once at every subscription; a delivery that comes
// again is a duplicate, allowed only with the same event id (one event per record: its id is the same
// at every subscription and on every attempt).
import type { Arrival } from '../protocol';

export type WriteKind = 'employee' | 'entry';

export interface Write {
  kind: WriteKind;
  /** Date.now() when sent and when answered (or given up). */
  sentAt: number;
  doneAt: number;
  /** HTTP status; 0: no answer (connection refused or reset, time-out). */
  status: number;
  /** The created record's id (acknowledged writes only). */
  id?: string;
  /** Why there was no answer (ECONNREFUSED, ECONNRESET, timeout). */
  error?: string;
  /** The gateway replica that answered (or failed); with several, the one an ingress chose. */
  gateway?: number;
  /** The gateway replica that refused the connection first, if any (the write then went to `gateway`). */
  refusedBy?: number;
}

export const acknowledged = (w: Write): w is Write & { id: string } => w.status >= 200 && w.status < 300 && !!w.id;

export interface DeliveryCounts {
  /** (write, subscription) pairs expected and not delivered. */
  missing: number;
  /** Deliveries beyond the first of a (subscription, record), all with the record's one event id. */
  duplicatesSameEventId: number;
  /** Records delivered under more than one event id (the same change raised twice): must be 0. */
  recordsWithSeveralEventIds: number;
}

export class Ledger {
  readonly writes: Write[] = [];
  /** `${sub}:${record id}` → arrival of its first verified delivery. */
  private readonly first = new Map<string, number>();
  /** Record id → event ids it was delivered under. */
  private readonly eventIds = new Map<string, Set<string>>();
  /** Deliveries per `${sub}:${record id}`. */
  private readonly count = new Map<string, number>();
  deliveries = 0;
  unverified = 0;
  lastArrivalAt = 0;
  private readonly arrivalTimes: number[] = [];

  constructor(readonly subscriptions: number) {}

  onArrival(row: Arrival): void {
    const [, sub, eventId, arrivedAt, , verified, subject] = row;
    if (verified !== 1 || !subject) {
      this.unverified++;
      return;
    }
    this.deliveries++;
    this.lastArrivalAt = Math.max(this.lastArrivalAt, arrivedAt);
    this.arrivalTimes.push(arrivedAt);
    const key = `${sub}:${subject}`;
    this.count.set(key, (this.count.get(key) ?? 0) + 1);
    if (!this.first.has(key)) this.first.set(key, arrivedAt);
    let ids = this.eventIds.get(subject);
    if (!ids) this.eventIds.set(subject, (ids = new Set()));
    ids.add(eventId.toLowerCase());
  }

  /** The first verified delivery at or after t (ms), if any. */
  firstArrivalFrom(t: number): number | undefined {
    let best: number | undefined;
    for (const a of this.arrivalTimes) if (a >= t && (best === undefined || a < best)) best = a;
    return best;
  }

  /** Acknowledged writes answered at or before t. */
  ackedBy(t: number): Array<Write & { id: string }> {
    return this.writes.filter(acknowledged).filter((w) => w.doneAt <= t);
  }

  /** (write, subscription) pairs of these writes not delivered yet. */
  pending(writes: Array<Write & { id: string }>): number {
    let n = 0;
    for (const w of writes) for (let s = 0; s < this.subscriptions; s++) if (!this.first.has(`${s}:${w.id}`)) n++;
    return n;
  }

  /** When the last of these writes' deliveries arrived first; undefined while any is missing. */
  deliveredAllAt(writes: Array<Write & { id: string }>): number | undefined {
    let last = 0;
    for (const w of writes)
      for (let s = 0; s < this.subscriptions; s++) {
        const at = this.first.get(`${s}:${w.id}`);
        if (at === undefined) return undefined;
        last = Math.max(last, at);
      }
    return last;
  }

  counts(writes: Write[]): DeliveryCounts {
    const acked = writes.filter(acknowledged);
    let dup = 0;
    let several = 0;
    for (const w of acked) {
      for (let s = 0; s < this.subscriptions; s++) dup += Math.max(0, (this.count.get(`${s}:${w.id}`) ?? 0) - 1);
      if ((this.eventIds.get(w.id)?.size ?? 0) > 1) several++;
    }
    return { missing: this.pending(acked), duplicatesSameEventId: dup, recordsWithSeveralEventIds: several };
  }

  /** Records delivered that no acknowledged write names (a write whose answer was lost, the owner's hire). */
  unacknowledgedRecordsDelivered(): number {
    const known = new Set(this.writes.filter(acknowledged).map((w) => w.id));
    let n = 0;
    for (const id of this.eventIds.keys()) if (!known.has(id)) n++;
    return n;
  }
}

/** Writes by answer: `201: 120, 503: 4, no answer: 2`. */
export function byStatus(writes: Write[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const w of writes) {
    const k = w.status === 0 ? `no answer (${w.error ?? '?'})` : String(w.status);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
