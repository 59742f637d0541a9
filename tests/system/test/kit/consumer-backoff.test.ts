// The platform consumer on a real broker (decision 0041): a transient failure is redelivered through
// back-off queues after growing delays with its count in a header; poison and permanent failures park
// at once; a message that keeps failing parks when its attempts are used up; the parked depth is a
// metric per queue; the operator command moves parked messages back to their consumer queue only.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import mongoose from 'mongoose';
import {
  AmqpClient,
  DOMAIN_EXCHANGE,
  Metrics,
  PermanentError,
  createLogger,
  declareDomainExchange,
  startConsumer,
  type ConsumerOptions,
  type RetryPolicy,
} from '@travel/platform';
import { createTestEnv, eventually, repoRoot, type TestEnv } from '@travel/testkit';
import { runParkedCommand } from '../../../../scripts/parked';

const logger = createLogger('backoff-test', 'silent');
type ConsumeMessage = Parameters<ConsumerOptions<unknown>['handle']>[1];
type Channel = Awaited<ReturnType<AmqpClient['channel']>>;
const policy: RetryPolicy = { baseMs: 100, maxDelayMs: 400, maxAttempts: 5 };

interface Call {
  at: number;
  retryCount: number | undefined;
  tenant: unknown;
  messageId: unknown;
}

describe('consumer back-off and parking', () => {
  let env: TestEnv;
  let client: AmqpClient;
  let metrics: Metrics;
  let ch: Channel;

  beforeAll(async () => {
    env = await createTestEnv('backoff');
    client = new AmqpClient(env.amqpUrl, logger, 'backoff-test');
    await client.start();
    await client.onConnect(declareDomainExchange);
    metrics = new Metrics('backoff-test');
    ch = await client.channel();
  });
  afterAll(async () => {
    await client?.stop();
    await env?.cleanup();
  });

  const record = (calls: Call[], raw: ConsumeMessage) =>
    calls.push({
      at: Date.now(),
      retryCount: raw.properties.headers?.['x-retry-count'],
      tenant: raw.properties.headers?.['x-tenant-id'],
      messageId: raw.properties.messageId,
    });

  async function publish(key: string, body: unknown, id: string): Promise<void> {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    await client.publish(DOMAIN_EXCHANGE, key, bytes, { messageId: id, headers: { 'x-tenant-id': 'tenant-1' } });
  }

  async function parked(queue: string): Promise<Array<{ body: string; headers: Record<string, unknown> }>> {
    const out = [];
    const taken = [];
    for (;;) {
      const msg = await ch.get(`${queue}.parking`, { noAck: false });
      if (!msg) break;
      taken.push(msg);
      out.push({ body: msg.content.toString('utf8'), headers: msg.properties.headers ?? {} });
    }
    for (const msg of taken) ch.nack(msg, false, true);
    // Put back asynchronously: wait until the queue counts them as ready again.
    await eventually(async () => (await ch.checkQueue(`${queue}.parking`)).messageCount >= taken.length, 5000, 10);
    return out;
  }

  const handledCount = async (queue: string, outcome: string) => {
    const text = await metrics.registry.metrics();
    const m = new RegExp(
      `amqp_messages_handled_total\\{[^}]*queue="${queue}",outcome="${outcome}"[^}]*\\} (\\d+)`,
    ).exec(text);
    return m ? Number(m[1]) : 0;
  };

  it('redelivers a transient failure after growing delays, counting attempts in a header, and parks nothing', async () => {
    const queue = 'kit.backoff.transient';
    const calls: Call[] = [];
    await startConsumer({
      client,
      logger,
      metrics,
      retry: policy,
      // Made-up routing keys: no schema in contracts/events (the platform's own test).
      validateEvents: false,
      queue: { name: queue, bindings: ['backoff.transient'] },
      handle: async (_m, raw) => {
        record(calls, raw);
        // What the driver throws while the store is away.
        if (calls.length <= 3) throw new mongoose.mongo.MongoNetworkError('connection 7 to 127.0.0.1:27017 closed');
      },
    });
    await publish('backoff.transient', { id: 'evt-transient' }, 'evt-transient');

    await eventually(async () => (await handledCount(queue, 'ok')) === 1, 10_000, 20);
    expect(calls.map((c) => c.retryCount)).toEqual([undefined, 1, 2, 3]);
    // Each redelivery waited at least its back-off delay: 100, 200, 400 ms (no hot loop).
    const gaps = calls.slice(1).map((c, i) => c.at - calls[i]!.at);
    [100, 200, 400].forEach((delay, i) => expect(gaps[i]).toBeGreaterThanOrEqual(delay - 10));
    // The copies are the same message: id and application headers survive.
    expect(new Set(calls.map((c) => c.messageId))).toEqual(new Set(['evt-transient']));
    expect(new Set(calls.map((c) => c.tenant))).toEqual(new Set(['tenant-1']));
    expect(await handledCount(queue, 'retry')).toBe(3);
    expect(await handledCount(queue, 'parked')).toBe(0);
    expect(await parked(queue)).toEqual([]);
  });

  it('parks unparseable, schema-invalid and permanently failing messages at once', async () => {
    const queue = 'kit.backoff.poison';
    const calls: Call[] = [];
    await startConsumer<{ id: string; data?: { permanent?: boolean } }>({
      client,
      logger,
      metrics,
      retry: policy,
      prefetch: 1, // one at a time, so the marker is handled after the messages before it
      // Made-up routing keys: no schema in contracts/events (the platform's own test).
      validateEvents: false,
      queue: { name: queue, bindings: ['backoff.poison'] },
      parse: (body) => {
        const b = body as { id?: unknown };
        if (typeof b.id !== 'string') throw new Error('id is required');
        return body as { id: string };
      },
      handle: async (m, raw) => {
        record(calls, raw);
        if (m.data?.permanent) throw new PermanentError('this event can never be handled');
      },
    });
    await publish('backoff.poison', Buffer.from('{not json'), 'p-unparseable');
    await publish('backoff.poison', { noId: true }, 'p-invalid');
    await publish('backoff.poison', { id: 'p-permanent', data: { permanent: true } }, 'p-permanent');
    await publish('backoff.poison', { id: 'p-marker' }, 'p-marker');

    await eventually(async () => calls.some((c) => c.messageId === 'p-marker'), 10_000, 20);
    expect(calls.map((c) => c.messageId)).toEqual(['p-permanent', 'p-marker']); // no retry of any of them
    const got = await parked(queue);
    expect(got.map((p) => [p.headers['x-parked-reason'], p.headers['x-retry-count']])).toEqual([
      ['poison', 0],
      ['poison', 0],
      ['permanent', 1],
    ]);
    expect(got[0]!.body).toBe('{not json');
    expect(got[2]!.headers['x-last-error']).toBe('this event can never be handled');
    expect(got.every((p) => p.headers['x-tenant-id'] === 'tenant-1')).toBe(true);
    expect(await handledCount(queue, 'retry')).toBe(0);
    expect(await handledCount(queue, 'parked')).toBe(3);
  });

  it('parks a message whose attempts are used up, reports it per queue, and the operator command re-drives it', async () => {
    const queue = 'kit.backoff.exhaust';
    const calls: Call[] = [];
    let fixed = false;
    await startConsumer({
      client,
      logger,
      metrics,
      retry: policy,
      // Made-up routing keys: no schema in contracts/events (the platform's own test).
      validateEvents: false,
      queue: { name: queue, bindings: ['backoff.exhaust'] },
      handle: async (_m, raw) => {
        record(calls, raw);
        if (!fixed) throw new TypeError('a bug nobody foresaw');
      },
    });
    await publish('backoff.exhaust', { id: 'evt-exhaust' }, 'evt-exhaust');

    // An unclassified failure is retried like a transient one, then parked at the 5th attempt.
    const text = await eventually(async () => {
      const t = await metrics.registry.metrics();
      return /amqp_parked_messages\{[^}]*queue="kit\.backoff\.exhaust"[^}]*\} 1/.test(t) ? t : undefined;
    }, 10_000);
    expect(text).toMatch(/amqp_parked_messages\{[^}]*queue="kit\.backoff\.transient"[^}]*\} 0/);
    expect(calls.map((c) => c.retryCount)).toEqual([undefined, 1, 2, 3, 4]);
    const [one] = await parked(queue);
    expect(one!.headers).toMatchObject({
      'x-parked-reason': 'retries-exhausted',
      'x-retry-count': 5,
      'x-last-error': 'a bug nobody foresaw',
      'x-tenant-id': 'tenant-1',
    });

    const listed = (await runParkedCommand(['list', '--queue', queue], env.amqpUrl)) as {
      parked: number;
      sample: Array<{ messageId: string; reason: string; failures: number }>;
    };
    expect(listed.parked).toBe(1);
    expect(listed.sample).toEqual([
      expect.objectContaining({ messageId: 'evt-exhaust', reason: 'retries-exhausted', failures: 5 }),
    ]);

    fixed = true;
    expect(await runParkedCommand(['redrive', '--queue', queue], env.amqpUrl)).toEqual({
      queue,
      parking: `${queue}.parking`,
      moved: 1,
      left: 0,
    });
    await eventually(async () => (await handledCount(queue, 'ok')) === 1, 10_000, 20);
    // Back in its own queue with a fresh budget (no retry count), same id and headers.
    expect(calls.at(-1)).toMatchObject({ retryCount: undefined, messageId: 'evt-exhaust', tenant: 'tenant-1' });
    expect(await parked(queue)).toEqual([]);
  });

  it('re-drives only what was parked when it started, so a cause not yet fixed cannot make it loop', async () => {
    const queue = 'kit.backoff.loop';
    let handled = 0;
    await startConsumer({
      client,
      logger,
      metrics,
      retry: policy,
      // Made-up routing keys: no schema in contracts/events (the platform's own test).
      validateEvents: false,
      queue: { name: queue, bindings: ['backoff.loop'] },
      handle: async () => {
        handled++;
        throw new PermanentError('still broken');
      },
    });
    for (const id of ['l1', 'l2', 'l3']) await publish('backoff.loop', { id }, id);
    await eventually(async () => (await parked(queue)).length === 3, 10_000, 20);

    const result = await runParkedCommand(['redrive', '--queue', `${queue}.parking`], env.amqpUrl);
    expect(result).toMatchObject({ queue, moved: 3 });
    await eventually(async () => handled === 6 && (await parked(queue)).length === 3, 10_000, 20);
  });

  it('runs as a command: JSON on stdout, exit 2 with the usage for bad arguments, 1 for an unknown queue', async () => {
    const queue = 'kit.backoff.cli';
    await ch.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await ch.assertQueue(`${queue}.parking`, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await client.publish('', `${queue}.parking`, Buffer.from('{"id":"c1"}'), { messageId: 'c1' });

    const run = (...args: string[]) =>
      new Promise<{ code: number; out: string; err: string }>((resolve) => {
        const child = spawn('node', ['--import', 'tsx', join(repoRoot(), 'scripts', 'parked.ts'), ...args], {
          cwd: repoRoot(),
          env: { ...process.env, AMQP_URL: env.amqpUrl },
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('exit', (code) => resolve({ code: code ?? 1, out, err }));
      });

    const moved = await run('redrive', '--queue', queue);
    expect(moved.code).toBe(0);
    expect(JSON.parse(moved.out)).toEqual({ queue, parking: `${queue}.parking`, moved: 1, left: 0 });
    expect((await ch.checkQueue(queue)).messageCount).toBe(1);

    const usage = await run('redrive');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('usage: npm run admin -- parked');

    const unknown = await run('list', '--queue', 'kit.no-such-queue');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('no such queue');
  });
});
