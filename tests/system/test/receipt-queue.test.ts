// The receipts' work queue (docs/decisions/0200) on real FerretDB and RabbitMQ: fair across companies (a
// reading waits at its company's turn, the lowest turn goes first, then the oldest), and several replicas
// drain one queue with leases: every reading is read exactly once, and a replica killed mid-reading leaves
// its reading to another once the lease is over, not lost.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import amqp, { type ChannelModel } from 'amqplib';
import type { Connection } from 'mongoose';
import { connectMongo, createLogger, DOMAIN_EXCHANGE, raiseEvent, type RunningService } from '@travel/platform';
import { ReadingsApp } from '@travel/receipts/src/app/readings';
import type { StoredEvent } from '@travel/receipts/src/domain/reading';
import { ReadingStore } from '@travel/receipts/src/infra/reading-store';
import { childPorts, createTestEnv, eventually, repoRoot, waitReady, type TestEnv } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

describe('the readings queue is fair across companies (real store)', () => {
  let env: TestEnv;
  let conn: Connection;
  let store: ReadingStore;
  let app: ReadingsApp;

  beforeAll(async () => {
    env = await createTestEnv('receipt-queue-fair');
    conn = await connectMongo(env.infra.mongoUrl, `${env.dbPrefix}receipts`);
    store = new ReadingStore(conn);
    const unused = () => {
      throw new Error('not used: only queueing and claiming here');
    };
    // The real use case that queues a stored attachment at its company's turn; nothing is read here.
    app = new ReadingsApp(
      store,
      { bytes: unused },
      { read: unused },
      { timeoutMs: 30_000, maxAttempts: 3, retry: { baseMs: 1000, maxDelayMs: 1000, maxAttempts: 3 } },
      { observe: () => undefined },
      createLogger('receipt-queue-test', 'silent'),
    );
  });
  beforeEach(async () => {
    // One queue per case: claiming takes from every company in the database.
    await conn.db!.collection('readings').deleteMany({});
  });
  afterAll(async () => {
    await conn?.close();
    await env?.cleanup();
  });

  const stored = (tenantId: string): StoredEvent =>
    raiseEvent(
      'entries',
      'attachment.stored',
      tenantId,
      { entryId: randomUUID(), attachmentId: randomUUID(), contentType: 'image/jpeg', size: 1000, market: 'HR' },
      new Date(),
    ) as StoredEvent;

  /** Queues through the use case and answers the attachment's id. */
  async function upload(tenantId: string): Promise<string> {
    const e = stored(tenantId);
    await app.onAttachment(e);
    return e.data.attachmentId.toLowerCase();
  }

  /** One replica's take: the next due reading, held for a minute. */
  const take = async () => (await store.claim(new Date(), 60_000))?._id;

  it("6 of company A, then 1 of company B: B's is taken second, not seventh", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const as: string[] = [];
    for (let i = 0; i < 6; i++) as.push(await upload(a));
    const bs = await upload(b);
    const order: string[] = [];
    for (let i = 0; i < 7; i++) order.push((await take())!);
    expect(order).toEqual([as[0], bs, ...as.slice(1)]);
    expect(await take()).toBeUndefined();
  });

  it("B's arriving while A's are being read (and A's first is done) is still next", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const as: string[] = [];
    for (let i = 0; i < 6; i++) as.push(await upload(a));
    // Two replicas hold A's first two; the first finishes (no longer waiting).
    expect(await take()).toBe(as[0]);
    expect(await take()).toBe(as[1]);
    await conn.db!.collection('readings').updateOne({ _id: as[0] as never }, { $set: { state: 'Read' } });
    const bs = await upload(b);
    expect(await take()).toBe(bs);
    expect(await take()).toBe(as[2]);
  });

  it("B's queued at the very same instant as A's six is among the first two", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const now = new Date();
    // Whatever the clock: the turn decides, and ties of turn go by age only.
    const { queued } = await import('@travel/receipts/src/domain/reading');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const e = stored(a);
      await store.queue(queued(e, await store.waiting(e.tenantId as never), now));
      ids.push(e.data.attachmentId.toLowerCase());
    }
    const e = stored(b);
    await store.queue(queued(e, await store.waiting(e.tenantId as never), now));
    const first = [await take(), await take()];
    expect(first).toContain(e.data.attachmentId.toLowerCase());
  });
});

// The committed samples with their truths (packages/receipt-reading/test/fixtures).
const FIXTURES = join(repoRoot(), 'packages', 'receipt-reading', 'test', 'fixtures');
const SAMPLES = [
  ['hr-002.jpg', 'image/jpeg'],
  ['hr-004.jpg', 'image/jpeg'],
  ['pl-003.jpg', 'image/jpeg'],
  ['si-004.jpg', 'image/jpeg'],
  ['none-000.jpg', 'image/jpeg'],
  ['cz-000.pdf', 'application/pdf'],
] as const;

describe('two receipts replicas drain one queue with the real engine', () => {
  let stack: EntriesStack;
  const replicas: RunningService[] = [];
  let killed: ChildProcess | undefined;
  let mq: ChannelModel;
  let conn: Connection;
  /** Per attachment, the ids of the `receipts.reading.made` events published for it. */
  const made = new Map<string, Set<string>>();

  const receiptsEnv = () => ({
    ...process.env,
    ...stack.env.vars,
    ENTRIES_URL: stack.entries.url,
    READING_IDLE_POLL_MS: '100',
  });

  beforeAll(async () => {
    stack = await startEntriesStack('receipt-queue-replicas');
    conn = await connectMongo(stack.env.infra.mongoUrl, `${stack.env.dbPrefix}receipts`);
    // Every `receipts.reading.made` published, counted per attachment.
    mq = await amqp.connect(stack.env.amqpUrl);
    const ch = await mq.createChannel();
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, DOMAIN_EXCHANGE, 'receipts.reading.made');
    await ch.consume(queue, (msg) => {
      if (!msg) return;
      const event = JSON.parse(msg.content.toString()) as { id: string; data: { attachmentId: string } };
      made.set(event.data.attachmentId, (made.get(event.data.attachmentId) ?? new Set()).add(event.id));
      ch.ack(msg);
    });
  }, 120_000);
  afterAll(async () => {
    killed?.kill('SIGKILL');
    for (const r of replicas) await r.stop();
    await mq?.close();
    await conn?.close();
    await stack?.stop();
  });

  /** A replica in a process of its own, as a pod runs it: it can be killed mid-reading. */
  async function childReplica(): Promise<ChildProcess> {
    const ports = await childPorts();
    const proc = spawn('node', ['--import', 'tsx', join(repoRoot(), 'services', 'receipts', 'src', 'main.ts')], {
      cwd: repoRoot(),
      env: { ...receiptsEnv(), ...ports.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr!.on('data', (d) => process.stderr.write(`[receipts child] ${d}`));
    await waitReady(ports.opsUrl, 60_000);
    return proc;
  }

  /** Engine runs of the in-process replicas: every outcome of `receipt_readings_total`. */
  async function engineRuns(): Promise<number> {
    let n = 0;
    for (const r of replicas) {
      const metric = r.deps.metrics.registry.getSingleMetric('receipt_readings_total');
      for (const v of (await metric!.get()).values) n += v.value;
    }
    return n;
  }

  it('every reading is made exactly once; a replica killed mid-reading leaves its reading to the others after the lease', async () => {
    const { api, apiKey } = await stack.tenant('HR');
    const entry = (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-19', returnDate: '2026-11-20' }))
      .body;
    // The first replica alone: it queues the uploads and takes the first reading.
    killed = await childReplica();
    const ids: string[] = [];
    for (const batch of [SAMPLES.slice(0, 3), SAMPLES.slice(3)]) {
      const form = new FormData();
      for (const [name, type] of batch)
        form.append('files', new Blob([readFileSync(join(FIXTURES, name))], { type }), name);
      const res = await fetch(`${stack.gateway.url}/api/v1/travel-entries/${entry.id}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}` },
        body: form,
      });
      expect(res.status).toBe(201);
      ids.push(...((await res.json()) as { items: Array<{ id: string }> }).items.map((i) => i.id.toLowerCase()));
    }
    const readings = conn.db!.collection<{ _id: string; state: string; leaseUntil: Date | null }>('readings');
    // Killed (no graceful stop) once every reading is queued and it holds a lease: its reading is neither
    // done nor given back.
    const leased = () => readings.findOne({ state: 'Pending', leaseUntil: { $gt: new Date() } });
    await eventually(
      async () => (await readings.countDocuments({ _id: { $in: ids } })) === ids.length && (await leased()),
      60_000,
      10,
    );
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed!.once('exit', resolve));
    const held = (await leased())!._id;
    // What it finished before dying stands (and is not read again).
    const doneBefore = await readings.countDocuments({ _id: { $in: ids }, state: { $ne: 'Pending' } });

    // Two replicas on the same database and broker drain the rest.
    replicas.push(await startReceipts(receiptsEnv()), await startReceipts(receiptsEnv()));
    const path = (id: string) => `/api/v1/travel-entries/${entry.id}/attachments/${id}/reading`;
    const done = async (id: string) => (await api.get(path(id))).body.state !== 'Pending';
    const others = ids.filter((id) => id !== held);
    await eventually(async () => (await Promise.all(others.map(done))).every(Boolean), 180_000, 250);
    // The killed replica's lease still holds: nobody took its reading meanwhile.
    expect(await done(held)).toBe(false);
    expect(await engineRuns()).toBe(others.length - doneBefore);

    // The lease is the time-out plus a minute; it is moved to its end here instead of waiting it out.
    await readings.updateOne({ _id: held }, { $set: { leaseUntil: new Date(Date.now() - 1) } });
    await eventually(() => done(held), 120_000, 250);

    for (const id of ids) expect(['Read', 'Unreadable']).toContain((await api.get(path(id))).body.state);
    // Each reading read once by the replicas left, and made once: none read twice, none lost. (The broker
    // may carry one event twice after the kill, the relay being at least once; consumers' inboxes drop the
    // copy by its id. A second reading would be a second event.)
    expect(await engineRuns()).toBe(ids.length - doneBefore);
    await eventually(async () => made.size === ids.length, 30_000);
    expect(Object.fromEntries([...made].map(([id, events]) => [id, events.size]))).toEqual(
      Object.fromEntries(ids.map((id) => [id, 1])),
    );
  }, 300_000);
});

const startReceipts = async (env: NodeJS.ProcessEnv) => (await import('@travel/receipts/src/service')).start(env);
