// Issue 38 §3, docs/decisions/0220: a subscription's in-flight bound and its auto-disable count hold in
// total over two dispatcher replicas on one vhost and database: the harness's, in this process, and a
// second one in a process of its own, killed (SIGKILL) mid-load.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { DISABLE_AFTER_EXHAUSTED } from '../src/domain/outcome';
import { registerModels } from '../src/infra/models';
import { startHarness, type Harness } from './support/harness';
import { childPorts, eventually, repoRoot, waitReady, type HttpsReceiver } from '@travel/testkit';

const BOUND = 8;
const CHECK_MS = 200;
/** Long enough that no send times out on a loaded machine (a timed-out send frees its slot early). */
const TIMEOUT_MS = 5000;
/** A replica joining others waits for their next check and for their sends over the new share to end. */
const JOIN_WAIT_MS = CHECK_MS + TIMEOUT_MS;
/** The receiver answers every request after this long, so sends overlap. */
const ANSWER_MS = 250;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two dispatcher replicas share a subscription’s bound', () => {
  let h: Harness;
  let second: ChildProcess | undefined;
  let secondOps: string;

  beforeAll(async () => {
    h = await startHarness('replicas-share-the-bound', {
      WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION: String(BOUND),
      WEBHOOK_REPLICA_CHECK_MS: String(CHECK_MS),
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      // 9 attempts close together, so 10 exhausted deliveries take seconds (the auto-disable test).
      WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms,50ms,50ms,50ms,50ms,50ms',
    });
    const ports = await childPorts();
    secondOps = ports.opsUrl;
    const root = repoRoot();
    // `node --import tsx`: the process killed below is the dispatcher itself, not a wrapper around it.
    second = spawn('node', ['--import', 'tsx', join(root, 'services', 'webhook-dispatcher', 'src', 'main.ts')], {
      cwd: root,
      env: { ...process.env, ...h.env.vars, ...ports.env },
      stdio: 'ignore',
    });
    await waitReady(ports.opsUrl);
    // Setup, not a "nothing happens" check: the first replica sees the second within a check, and the
    // second takes its share after the join wait (the rule's figures).
    await sleep(JOIN_WAIT_MS + 2 * CHECK_MS);
  });
  afterAll(async () => {
    second?.kill('SIGKILL');
    await h?.stop();
  });

  /** The statuses of a subscription's deliveries once there are `count` and none is Pending. */
  async function settled(subscriptionId: string, count: number) {
    const { Delivery } = registerModels(h.dispatcher.deps.mongo);
    return eventually(async () => {
      const rows = await Delivery.find({ tenantId: h.tenantId, subscriptionId }, { status: 1 }).lean();
      return rows.length >= count && rows.every((d) => d.status !== 'Pending') ? rows : undefined;
    }, 60_000);
  }

  const maxInFlight = (r: HttpsReceiver, from: number, to = Infinity) =>
    Math.max(0, ...r.arrivals.filter((a) => a.at >= from && a.at < to).map((a) => a.inFlight));

  /** Subscriptions disabled, summed over both replicas' /metrics: an announcement is one increment. */
  async function disabledAnnounced(): Promise<number> {
    let sum = 0;
    for (const opsUrl of [h.dispatcher.opsUrl, secondOps]) {
      const text = await (await fetch(`${opsUrl}/metrics`)).text();
      const m = /^webhook_subscriptions_disabled_total(?:\{[^}]*\})? (\d+)/m.exec(text);
      sum += m ? Number(m[1]) : 0;
    }
    return sum;
  }

  it('auto-disables at the same count with two replicas: not before it, and announced once', async () => {
    const receiver = (await h.receiver()).replyAlways({ status: 500, body: '{}' });
    const sub = await h.register(receiver.url);
    const before = await disabledAnnounced();

    // One short of the count, all at once, so both replicas count Exhausted deliveries side by side.
    for (let i = 0; i < DISABLE_AFTER_EXHAUSTED - 1; i++) await h.publish();
    await h.settled(sub.id, DISABLE_AFTER_EXHAUSTED - 1, 60_000);
    let shown = (await h.api('GET', `/api/v1/webhooks/${sub.id}`)).body;
    expect(shown.consecutiveExhausted).toBe(DISABLE_AFTER_EXHAUSTED - 1);
    expect(shown.IsActive).toBe(true);

    await h.publish();
    await h.settled(sub.id, DISABLE_AFTER_EXHAUSTED, 60_000);
    shown = await eventually(async () => {
      const body = (await h.api('GET', `/api/v1/webhooks/${sub.id}`)).body;
      return body.IsActive === false ? body : undefined;
    });
    expect(shown.consecutiveExhausted).toBe(DISABLE_AFTER_EXHAUSTED);
    expect(await disabledAnnounced()).toBe(before + 1);
    const rows = await settled(sub.id, DISABLE_AFTER_EXHAUSTED);
    expect(rows.map((d) => d.status)).toEqual(Array(DISABLE_AFTER_EXHAUSTED).fill('Exhausted'));
  }, 90_000);

  it('a partner gets at most the bound in total, all of it from both replicas, and all of it again from the survivor', async () => {
    const receiver = (await h.receiver()).replyAlways({ status: 200, body: '{}', delayMs: ANSWER_MS });
    const sub = await h.register(receiver.url);

    // 160 events: at 8 at once and 250 ms each, about 5 s of sends with the bound full.
    const events = 160;
    for (let i = 0; i < events; i++) await h.publish();
    await receiver.waitForRequests(60, 30_000);
    // Two replicas: 4 each, 8 in all (without the shares, 8 each: up to 16).
    expect(maxInFlight(receiver, 0)).toBe(BOUND);

    // The second replica is killed mid-load (its connections close with it, so its presence goes at once);
    // the survivor sees one replica at its next check and takes the whole bound (its share alone is 4).
    second!.kill('SIGKILL');
    await new Promise((r) => second!.once('exit', r));
    const killedAt = Date.now();
    await receiver.waitForRequests(events, 60_000);
    expect(maxInFlight(receiver, killedAt)).toBe(BOUND);
    // The survivor's first send at the whole bound: within a check, plus a send's answer and a slot wait
    // (500 ms) for the attempts it held while its share was still 4.
    const full = receiver.arrivals.find((a) => a.at >= killedAt && a.inFlight === BOUND)!;
    expect(full.at - killedAt).toBeLessThanOrEqual(CHECK_MS + ANSWER_MS + 500);
    expect(maxInFlight(receiver, 0)).toBeLessThanOrEqual(BOUND);

    // Nothing lost: every event delivered once it settled.
    const rows = await settled(sub.id, events);
    expect(rows).toHaveLength(events);
    expect(rows.every((d) => d.status === 'Succeeded')).toBe(true);
  }, 90_000);
});
