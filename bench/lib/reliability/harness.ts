// What the two modes of the reliability harness share (bench/reliability.ts: faults and soak; the
// bounded faults test in tests/system/test/faults-under-load.test.ts): the stack, a tenant with several
// webhook subscriptions on the receiver (some of them slow), the receiver's verified deliveries in a
// ledger, and the end-of-run checks: what the delivery log says, what waits or is parked in the broker.
import { join } from 'node:path';
import { repoRoot } from '../../../packages/testkit/src/infra/infra';
import { managementAuth } from '../../../packages/testkit/src/infra/rabbitmq';
import { DEFAULT_RETRY_POLICY } from '../../../packages/platform/src/messaging/retry';
import { BENCH_SERVICE_ENV, NO_RATE_LIMIT } from '../service-settings';
import { mongoClient } from '../store-probe';
import { Ledger } from './ledger';
import { ReliabilityStack, type StackOptions } from './stack';

export const STEP = 1;
const ROOT = repoRoot();

export interface HarnessOptions {
  /** Subscriptions answered at once, and slow ones (answered after slowMs). */
  fastSubscriptions: number;
  slowSubscriptions: number;
  slowMs: number;
  /** Consumer back-off: production's by default (decision 0041); the bounded test shortens it. */
  consumerRetry?: { baseMs: number; maxDelayMs: number; maxAttempts: number };
  log: (line: string) => void;
  stateDir?: string;
  /** The stack's services, replicas and infrastructure (ReliabilityStack's defaults when absent). */
  stack?: Pick<StackOptions, 'services' | 'replicas' | 'infra'>;
  /** Variables every service gets on top of the harness's (e.g. the shutdown times). */
  extraEnv?: Record<string, string>;
}

/** The benchmarks' production-like settings (docs/benchmarks.md), with production's consumer back-off. */
export function serviceEnv(retry = DEFAULT_RETRY_POLICY): Record<string, string> {
  return {
    ...BENCH_SERVICE_ENV,
    ...NO_RATE_LIMIT,
    CONSUMER_RETRY_BASE_MS: String(retry.baseMs),
    CONSUMER_RETRY_MAX_DELAY_MS: String(retry.maxDelayMs),
    CONSUMER_RETRY_MAX_ATTEMPTS: String(retry.maxAttempts),
  };
}

export interface Harness {
  stack: ReliabilityStack;
  ledger: Ledger;
  apiKey: string;
  tenantId: string;
  subscriptionIds: string[];
}

/** The stack, a tenant and its subscriptions (each to employee.created and entry.created). */
export async function startHarness(o: HarnessOptions): Promise<Harness> {
  const stack = await ReliabilityStack.start({
    stateDir: o.stateDir ?? join(ROOT, '.local', 'bench', `reliability-${process.pid}`),
    serviceEnv: { ...serviceEnv(o.consumerRetry), ...o.extraEnv },
    slowMs: o.slowMs,
    log: o.log,
    ...o.stack,
  });
  try {
    const { apiKey, tenantId } = await stack.seed();
    const total = o.fastSubscriptions + o.slowSubscriptions;
    const secrets: string[] = [];
    const subscriptionIds: string[] = [];
    for (let i = 0; i < total; i++) {
      const path = i < o.fastSubscriptions ? 'b' : 's';
      const res = await fetch(`${stack.gatewayUrl}/api/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: `https://localhost:${stack.receiver.healthyPort}/${path}/${STEP}/${i}`,
          eventTypes: ['employee.created', 'entry.created'],
        }),
      });
      const body = (await res.json()) as { id?: string; signingSecret?: string };
      if (res.status !== 201 || !body.id || !body.signingSecret)
        throw new Error(`registering subscription ${i}: ${res.status} ${JSON.stringify(body)}`);
      secrets.push(body.signingSecret);
      subscriptionIds.push(body.id);
    }
    await stack.receiver.verifyWith(STEP, secrets);
    const ledger = new Ledger(total);
    stack.receiver.route(STEP, (row) => ledger.onArrival(row));
    return { stack, ledger, apiKey, tenantId, subscriptionIds };
  } catch (err) {
    await stack.shutdown();
    throw err;
  }
}

/** Messages (ready + unacknowledged) in every queue of the run's vhost. */
export async function queueDepths(stack: ReliabilityStack): Promise<Record<string, number>> {
  const res = await fetch(`${stack.infra.managementUrl}/api/queues/${encodeURIComponent(stack.env.vhost)}`, {
    headers: { authorization: managementAuth() },
  });
  if (!res.ok) throw new Error(`queue depths: ${res.status}`);
  const list = (await res.json()) as Array<{ name: string; messages?: number }>;
  return Object.fromEntries(list.map((q) => [q.name, q.messages ?? 0]));
}

/**
 * The broker's memory held by its quorum queues' write-ahead-log tables (`quorum_ets`, MB): entries stay
 * in memory until the WAL file fills (`raft.wal_max_size_bytes`, 512 MiB by default) and rolls over, so
 * the broker's RSS grows by design between two roll-overs.
 */
export async function brokerQuorumTablesMb(stack: ReliabilityStack): Promise<number | undefined> {
  try {
    const auth = { headers: { authorization: managementAuth() } };
    const nodes = (await (await fetch(`${stack.infra.managementUrl}/api/nodes`, auth)).json()) as Array<{
      name: string;
    }>;
    const res = await fetch(
      `${stack.infra.managementUrl}/api/nodes/${encodeURIComponent(nodes[0]!.name)}/memory`,
      auth,
    );
    const { memory } = (await res.json()) as { memory: Record<string, number> };
    return Math.round((memory.quorum_ets ?? 0) / 1048576);
  } catch {
    return undefined;
  }
}

/** The dispatcher's delivery log of the tenant, by status (Succeeded, Pending, Failed, Exhausted). */
export async function deliveryStatuses(h: Harness): Promise<Record<string, number>> {
  const client = mongoClient(ROOT, h.stack.infra.mongoUrl) as unknown as {
    connect(): Promise<unknown>;
    db(name: string): {
      collection(name: string): {
        aggregate(pipeline: object[]): { toArray(): Promise<Array<{ _id: string; n: number }>> };
      };
    };
    close(): Promise<void>;
  };
  await client.connect();
  try {
    const rows = await client
      .db(`${h.stack.env.dbPrefix}webhook_dispatcher`)
      .collection('deliveries')
      .aggregate([{ $match: { tenantId: h.tenantId } }, { $group: { _id: '$status', n: { $sum: 1 } } }])
      .toArray();
    return Object.fromEntries(rows.map((r) => [r._id, r.n]));
  } finally {
    await client.close();
  }
}

/**
 * Events no queue of this stack is bound for (entry-state.changed: payouts consumes it, and payouts is
 * not part of the harness's stack) go to the unroutable parking queue by design (decision 0062): counted
 * apart, not as parked deliveries.
 */
export const UNROUTABLE_PARKING = 'domain.unroutable.parking';

export interface EndChecks {
  deliveryLog: Record<string, number>;
  /** Messages in the consumers' parking queues (poison messages). */
  parked: Record<string, number>;
  /** Events parked as unroutable (no consumer of them in this stack). */
  unroutable: number;
  /** Queues still holding messages after the drain (parking queues included). */
  nonEmptyQueues: Record<string, number>;
}

export async function endChecks(h: Harness): Promise<EndChecks> {
  // The last outcomes are written in batches after their sends (decision 0060): a row may still say
  // Pending for a moment after its delivery arrived. Read until none does, for at most 30 s.
  let deliveryLog = await deliveryStatuses(h);
  for (const until = Date.now() + 30_000; (deliveryLog.Pending ?? 0) > 0 && Date.now() < until;) {
    await sleep(1000);
    deliveryLog = await deliveryStatuses(h);
  }
  const queues = await queueDepths(h.stack);
  const parked = Object.fromEntries(
    Object.entries(queues).filter(([q]) => q.endsWith('.parking') && q !== UNROUTABLE_PARKING),
  );
  return {
    deliveryLog,
    parked,
    unroutable: queues[UNROUTABLE_PARKING] ?? 0,
    nonEmptyQueues: Object.fromEntries(Object.entries(queues).filter(([q, n]) => n > 0 && q !== UNROUTABLE_PARKING)),
  };
}

/**
 * Waits until every write acknowledged by `by` (default: now) is delivered to every subscription, or the
 * bound passes; says whether they were.
 */
export async function drain(h: Harness, maxMs: number, by = Date.now()): Promise<boolean> {
  const until = Date.now() + maxMs;
  const writes = h.ledger.ackedBy(by);
  for (;;) {
    await h.stack.receiver.flush();
    if (h.ledger.pending(writes) === 0) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));
export const seconds = (ms: number | undefined) => (ms === undefined ? null : Math.round(ms / 100) / 10);
