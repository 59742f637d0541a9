/**
 * Each subscription's share of the attempts in flight (docs/decisions/0059, 0088): at most `max` sends at
 * once per subscription. An attempt over the bound may wait here for a slot, briefly and only while few
 * others wait, instead of a round trip through the broker's 1 s defer queue: a busy but healthy partner
 * then gets its next attempt as soon as a send ends. The waits are bounded so that a hanging partner's
 * attempts cannot take the worker slots (the consumer's prefetch) from the others:
 * - per subscription, at most `maxWaiting` waiters;
 * - in all, at most `maxWaitingTotal`;
 * - each waits at most `waitMs`;
 * - only while the subscription's sends are ending: when none of its slots was freed within the last
 *   `waitMs` (a hanging or very slow partner), its attempts do not wait at all.
 * An attempt refused here (or one whose wait ended) is deferred through the broker, as before.
 *
 * `max` is this replica's share of the subscription's bound when it is a function (`ReplicaShare`,
 * docs/decisions/0220): read on every acquire, so a share that grows or shrinks applies to the next send;
 * sends already over a shrunk share finish, and their slots are not passed on until under it again.
 */
export class SubscriptionSlots {
  private readonly subs = new Map<
    string,
    { active: number; waiters: Array<(granted: boolean) => void>; lastFreedAt: number }
  >();
  private waitingTotal = 0;

  constructor(
    private readonly max: number | (() => number),
    private readonly maxWaiting: number,
    private readonly maxWaitingTotal: number,
    private readonly waitMs: number,
  ) {}

  /** Every slot taken and no room to wait: the attempt is deferred without further work. */
  saturated(subscriptionId: string): boolean {
    const s = this.subs.get(subscriptionId);
    const bound = this.bound();
    if (bound <= 0) return true;
    if (!s || s.active < bound) return false;
    return !this.mayWait(s);
  }

  private bound(): number {
    return typeof this.max === 'number' ? this.max : this.max();
  }

  /**
   * A slot now or not at all, for a first attempt sent from the fan-out, which holds its event until the
   * send ends (docs/decisions/0095). Only under the bound, with nobody waiting, and while the subscription's
   * sends end promptly: none in flight, or one ended within the last `waitMs`.
   */
  tryAcquire(subscriptionId: string): boolean {
    const s = this.subs.get(subscriptionId);
    const bound = this.bound();
    if (bound <= 0) return false;
    if (!s) {
      this.subs.set(subscriptionId, { active: 1, waiters: [], lastFreedAt: Date.now() });
      return true;
    }
    if (s.active >= bound || s.waiters.length > 0 || Date.now() - s.lastFreedAt > this.waitMs) return false;
    s.active++;
    return true;
  }

  /**
   * For a first attempt sent from the fan-out (0095): a slot at once, or after a wait of at most `waitMs`
   * in line with the others while the subscription's sends keep ending; false: the attempt is queued.
   * The waits are bounded by the events the fan-out may hold, not by the attempts' waiting room.
   */
  acquireForEvent(subscriptionId: string): Promise<boolean> {
    if (this.tryAcquire(subscriptionId)) return Promise.resolve(true);
    const s = this.subs.get(subscriptionId);
    if (!s || this.waitMs <= 0 || Date.now() - s.lastFreedAt > this.waitMs) return Promise.resolve(false);
    return this.waitInLine(s.waiters, () => undefined);
  }

  /** Takes a slot, waiting for one within the bounds; false when the attempt should be deferred. */
  acquire(subscriptionId: string): Promise<boolean> {
    const bound = this.bound();
    if (bound <= 0) return Promise.resolve(false);
    let s = this.subs.get(subscriptionId);
    if (!s) this.subs.set(subscriptionId, (s = { active: 0, waiters: [], lastFreedAt: Date.now() }));
    if (s.active < bound) {
      s.active++;
      return Promise.resolve(true);
    }
    if (!this.mayWait(s)) return Promise.resolve(false);
    this.waitingTotal++;
    return this.waitInLine(s.waiters, () => this.waitingTotal--);
  }

  /** Waits at most `waitMs` for a slot passed on by `release`; `settled` runs once either way. */
  private waitInLine(waiters: Array<(granted: boolean) => void>, settled: () => void): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const settle = (granted: boolean) => {
        clearTimeout(timer);
        settled();
        resolve(granted);
      };
      const timer = setTimeout(() => {
        const i = waiters.indexOf(settle);
        if (i >= 0) waiters.splice(i, 1);
        settle(false);
      }, this.waitMs);
      waiters.push(settle);
    });
  }

  private mayWait(s: { waiters: unknown[]; lastFreedAt: number }): boolean {
    return (
      this.waitMs > 0 &&
      s.waiters.length < this.maxWaiting &&
      this.waitingTotal < this.maxWaitingTotal &&
      Date.now() - s.lastFreedAt <= this.waitMs
    );
  }

  /** Ends a send: its slot goes to the first waiter, if any. */
  release(subscriptionId: string): void {
    const s = this.subs.get(subscriptionId);
    if (!s) return;
    s.lastFreedAt = Date.now();
    // The slot passes on (active stays) unless the share shrank below the sends still in flight.
    const next = s.active <= this.bound() ? s.waiters.shift() : undefined;
    if (next) return next(true);
    s.active--;
    if (s.active <= 0) this.subs.delete(subscriptionId);
  }
}
