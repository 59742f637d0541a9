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

  it("follows this replica's share of the bound: a shrunk share passes no slot on until under it, 0 sends nothing (0220)", async () => {
    let share = 4;
    const slots = new SubscriptionSlots(() => share, 4, 10, 1000);
    for (let i = 0; i < 4; i++) expect(await slots.acquire('a')).toBe(true);
    // Another replica joined: the share is 2, and 4 sends are still in flight.
    share = 2;
    const waiting = slots.acquire('a');
    slots.release('a'); // 3 in flight: over the share, the slot is not passed on
    slots.release('a'); // 2: still not
    slots.release('a'); // the waiter takes this one: 2 in flight, the share
    expect(await waiting).toBe(true);
    expect(slots.saturated('a')).toBe(false); // room to wait, not to send
    expect(slots.tryAcquire('a')).toBe(false);
    // While the share is 0 (a replica joining, or off the broker), nothing is sent, not even a first attempt.
    share = 0;
    expect(slots.tryAcquire('b')).toBe(false);
    expect(await slots.acquire('b')).toBe(false);
    expect(slots.saturated('b')).toBe(true);
    share = 8;
    expect(slots.tryAcquire('b')).toBe(true);
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

  it('acquireForEvent: waits in line for a slot while sends end, not for a subscription whose sends stopped', async () => {
    // No room for attempts to wait (maxWaiting 0): the fan-out's waits do not use that room.
    const slots = new SubscriptionSlots(1, 0, 0, 50);
    expect(await slots.acquireForEvent('a')).toBe(true);
    const next = slots.acquireForEvent('a');
    slots.release('a');
    expect(await next).toBe(true); // the freed slot passed to it
    // Held for longer than waitMs with none freed: no wait, queued at once.
    await new Promise((r) => setTimeout(r, 80));
    const started = Date.now();
    expect(await slots.acquireForEvent('a')).toBe(false);
    expect(Date.now() - started).toBeLessThan(40); // a wait would take the 50 ms waitMs
    slots.release('a');
    // A wait that outlives waitMs gives up, and the slot it did not get is not leaked.
    expect(await slots.acquireForEvent('a')).toBe(true);
    expect(await slots.acquireForEvent('a')).toBe(false);
    slots.release('a');
    expect(await slots.acquireForEvent('a')).toBe(true);
  });
});
