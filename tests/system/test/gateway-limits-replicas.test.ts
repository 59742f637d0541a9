// Issue 38 §3, docs/decisions/0221: a key's rate limit is the configured figure in total over the gateway
// replicas (the stack's gateway and a second one on the same broker), and all of it again for the survivor
// when the other goes.
import { urlEnv } from '@travel/contracts';
import { start as startGateway } from '@travel/gateway/src/service';
import { startE2eStack, type E2eStack } from './support/stack';

const PER_MINUTE = 60;
const BURST = 20;
const CHECK_MS = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('per-key limits over two gateway replicas', () => {
  let stack: E2eStack;
  let second: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    stack = await startE2eStack('gateway-limits-replicas', {
      RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      RATE_LIMIT_BURST: String(BURST),
      LIMITS_REPLICA_CHECK_MS: String(CHECK_MS),
    });
    second = await startGateway({
      ...process.env,
      ...stack.env.vars,
      ...urlEnv({ employees: stack.employees.url, 'webhook-dispatcher': stack.dispatcher.url }),
    });
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });

  /** `count` GETs with the key, in turn through each gateway given; the statuses and the time they took. */
  async function burst(key: string, gateways: Array<{ url: string }>, count: number) {
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await fetch(`${gateways[i % gateways.length].url}/api/v1/company`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    return { statuses, elapsedMs: Date.now() - started };
  }

  /** What the rule allows in `elapsedMs`: the whole burst, and the whole rate since the first request. */
  const allowed = (elapsedMs: number) => BURST + Math.ceil((PER_MINUTE * elapsedMs) / 60_000);

  it('spread over both replicas, a key gets the burst once, not once per replica', async () => {
    // Setup: each gateway counts the other at its next check (the rule's figure, with room).
    await sleep(3 * CHECK_MS);
    const key = (await stack.tenant('SI')).apiKey;
    const { statuses, elapsedMs } = await burst(key, [stack.gateway, second], 2 * BURST);
    const accepted = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // Each replica: 20 ÷ 2 = 10 at once, refilled at 60 ÷ 2 = 30 a minute; 20 in all, plus the refill.
    // Without the shares: 20 per replica, all 40 accepted.
    expect(accepted).toBeGreaterThanOrEqual(BURST);
    expect(accepted).toBeLessThanOrEqual(allowed(elapsedMs));
  });

  it('after the other replica stops, the survivor allows the whole figure', async () => {
    await second.stop();
    // Setup: the survivor's next check sees it alone (its presence went with its connection).
    await sleep(3 * CHECK_MS);
    const key = (await stack.tenant('SI')).apiKey;
    const { statuses, elapsedMs } = await burst(key, [stack.gateway], BURST + 10);
    const accepted = statuses.filter((s) => s === 200).length;
    // The whole burst of 20 (its share alone was 10), plus the refill at 60 a minute.
    expect(accepted).toBeGreaterThanOrEqual(BURST);
    expect(accepted).toBeLessThanOrEqual(allowed(elapsedMs));
  });
});
