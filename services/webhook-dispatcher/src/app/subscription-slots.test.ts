import { SubscriptionSlots } from './subscription-slots';

describe('SubscriptionSlots', () => {
  it('grants up to the bound at once, then hands a freed slot to the first waiter', async () => {
    const slots = new SubscriptionSlots(2, 2, 10, 1000);
    expect(await slots.acquire('a')).toBe(true);
    expect(await slots.acquire('a')).toBe(true);
    const order: string[] = [];
    const third = slots.acquire('a').then((ok) => order.push(`third ${ok}`));
    const fourth = slots.acquire('a').then((ok) => order.push(`fourth ${ok}`));
    // Bound reached and two waiting: the next is refused at once (deferred through the broker).
    expect(slots.saturated('a')).toBe(true);
    expect(await slots.acquire('a')).toBe(false);
    // Another subscription is not affected.
    expect(await slots.acquire('b')).toBe(true);
    slots.release('a');
    await third;
    expect(order).toEqual(['third true']);
    slots.release('a');
    await fourth;
    expect(order).toEqual(['third true', 'fourth true']);
    // Still two sending (the slots passed on); both end, and the subscription is free again.
    slots.release('a');
    slots.release('a');
    expect(slots.saturated('a')).toBe(false);
    expect(await slots.acquire('a')).toBe(true);
  });

  it('gives up a wait after waitMs: the attempt is deferred, and the slot is not leaked', async () => {
    const slots = new SubscriptionSlots(1, 4, 10, 20);
    expect(await slots.acquire('a')).toBe(true);
    expect(await slots.acquire('a')).toBe(false); // waited 20 ms in vain
    slots.release('a');
    expect(await slots.acquire('a')).toBe(true);
  });

  it('bounds the waiters of all subscriptions together', async () => {
    const slots = new SubscriptionSlots(1, 4, 1, 1000);
    await slots.acquire('a');
    await slots.acquire('b');
    const waiting = slots.acquire('a');
    expect(slots.saturated('b')).toBe(true);
    expect(await slots.acquire('b')).toBe(false);
    slots.release('a');
    expect(await waiting).toBe(true);
  });

  it("does not let a subscription wait whose sends stopped ending (a hanging partner's)", async () => {
    const slots = new SubscriptionSlots(1, 4, 10, 30);
    expect(await slots.acquire('a')).toBe(true);
    await new Promise((r) => setTimeout(r, 50)); // no slot of 'a' freed for longer than waitMs
    expect(slots.saturated('a')).toBe(true);
    expect(await slots.acquire('a')).toBe(false);
    // Once a send ends, waiting is allowed again.
    slots.release('a');
    expect(await slots.acquire('a')).toBe(true);
    const waiting = slots.acquire('a');
    slots.release('a');
    expect(await waiting).toBe(true);
  });

  it('with no room to wait, behaves as the plain bound', async () => {
    const slots = new SubscriptionSlots(2, 0, 0, 500);
    await slots.acquire('a');
    await slots.acquire('a');
    expect(slots.saturated('a')).toBe(true);
    expect(await slots.acquire('a')).toBe(false);
  });

  it('tryAcquire: a slot at once or none, only under the bound, with nobody waiting, while sends end promptly', async () => {
    const slots = new SubscriptionSlots(3, 2, 10, 50);
    expect(slots.tryAcquire('a')).toBe(true);
    expect(slots.tryAcquire('a')).toBe(true);
    expect(slots.tryAcquire('a')).toBe(true);
    expect(slots.tryAcquire('a')).toBe(false); // at the bound
    const waiter = slots.acquire('a'); // waits for a slot
    slots.release('a'); // ... which passes to the waiter
    expect(await waiter).toBe(true);
    const second = slots.acquire('a');
    expect(slots.tryAcquire('b')).toBe(true); // another subscription is not affected
    slots.release('a');
    expect(await second).toBe(true);
    slots.release('a'); // two held now, one slot free, and one just ended
    expect(slots.tryAcquire('a')).toBe(true);
    slots.release('a');
    // Two sends held for longer than waitMs and none ended since: not prompt, no slot from the fan-out.
    await new Promise((r) => setTimeout(r, 80));
    expect(slots.tryAcquire('a')).toBe(false);
    slots.release('a');
    expect(slots.tryAcquire('a')).toBe(true); // one just ended: prompt again
    slots.release('a');
    slots.release('a');
    await new Promise((r) => setTimeout(r, 80));
    expect(slots.tryAcquire('a')).toBe(true); // none in flight: a fresh start
  });
});
