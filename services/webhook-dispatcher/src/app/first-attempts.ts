import type { TenantId } from '@travel/platform';
import { outcomeOf, type Outcome } from '../domain/outcome';
import type { DeliveryDoc, SubscriptionDoc } from '../infra/repositories';
import type { SubscriptionCache } from '../infra/subscription-cache';
import type { Deliverer } from './deliver';
import type { OutcomeRecorder } from './record';
import type { SubscriptionSlots } from './subscription-slots';

/**
 * A first attempt sent from the fan-out that got no answer, or took longer than this, marks its partner
 * slow (0095). Well above a healthy answer on a busy replica, whose sends can queue for a socket.
 */
const SLOW_SEND_MS = 5000;
/** How long a slow partner's first attempts go through the queue. */
const SLOW_PARTNER_MS = 30_000;

/** A first attempt sent from the fan-out: the row with its outcome in it, for the fan-out to write. */
export interface SentFirst {
  sub: SubscriptionDoc;
  row: DeliveryDoc;
  outcome: Outcome;
}

export interface FirstAttemptDeps {
  subscriptions: SubscriptionCache;
  slots: SubscriptionSlots;
  deliverer: Deliverer;
  recorder: OutcomeRecorder;
  /** Most events at once that wait on first attempts sent from their fan-out (0095); 0: none. */
  maxEventsSending: number;
}

/**
 * Which first attempts of a fresh event the fan-out sends itself, and sending them (docs/decisions/0095):
 * a subscription with a free slot that answered promptly of late; the others are queued.
 */
export class FirstAttempts {
  /** Subscriptions sent to only through the queue until then. */
  private readonly slowUntil = new Map<string, number>();
  private eventsSending = 0;

  constructor(private readonly deps: FirstAttemptDeps) {}

  /**
   * Room for one more event to send first attempts from its fan-out: a release function (called once its
   * sends have ended), or undefined when enough events already wait on such sends (the rest of the event
   * prefetch stays free for the others).
   */
  holdEvent(): (() => void) | undefined {
    if (this.eventsSending >= this.deps.maxEventsSending) return undefined;
    this.eventsSending++;
    let released = false;
    return () => {
      if (!released) this.eventsSending--;
      released = true;
    };
  }

  /**
   * The subscription of a new row, with a slot taken for its first attempt (`send` must follow), or
   * undefined when that attempt is queued instead: no free slot, a partner slow of late, or a subscription
   * this process does not hold.
   */
  async claim(tenant: TenantId, row: DeliveryDoc): Promise<SubscriptionDoc | undefined> {
    if ((this.slowUntil.get(row.subscriptionId) ?? 0) > Date.now()) return undefined;
    const sub = await this.deps.subscriptions.get(tenant, row.subscriptionId);
    if (!sub || sub.deletedAt || !sub.isActive) return undefined;
    if (!(await this.deps.slots.acquireForEvent(sub._id))) return undefined;
    return sub;
  }

  /** Sends a claimed first attempt; the row comes back with its outcome recorded in it, not yet written. */
  async send(sub: SubscriptionDoc, row: DeliveryDoc, payload: string): Promise<SentFirst> {
    const sent = await this.deps.deliverer.deliver(sub, row, payload);
    // A partner that was slow or did not answer is not sent to from the fan-out for a while: its
    // attempts go through the queue, where they hold no event.
    if (sent.kind !== 'answered' || sent.durationMs > SLOW_SEND_MS) {
      this.slowUntil.set(sub._id, Date.now() + SLOW_PARTNER_MS);
      if (this.slowUntil.size > 10_000) this.forgetExpiredSlowness();
    }
    const outcome = outcomeOf(sent, 1);
    return { sub, row: this.deps.recorder.recordedInRow(row, outcome), outcome };
  }

  private forgetExpiredSlowness(): void {
    const now = Date.now();
    for (const [id, until] of this.slowUntil) if (until <= now) this.slowUntil.delete(id);
  }
}
