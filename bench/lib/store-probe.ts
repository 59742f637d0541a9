// Store probe: what one command of the dispatcher's hot path costs on the MongoDB-wire server, as a
// function of how many rows the collection holds. Sequential commands (no queueing), each timed by the
// client, plus the server process's CPU time per command. The filters are the dispatcher's own:
// `{_id, tenantId}` (attempt read), `{_id, tenantId, series, attemptsMade, status}` (attempt record),
// next to the bare `{_id}` form for comparison. The rows read and updated are the newest ones, as in
// the dispatcher (an attempt reads the row its fan-out just inserted); `explain` shows the plan.
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { percentile, processCpuSeconds, round2 } from './system';

interface Coll {
  createIndex(spec: Record<string, 1 | -1>, options?: { unique?: boolean }): Promise<unknown>;
  insertMany(docs: object[], options?: { ordered?: boolean }): Promise<unknown>;
  insertOne(doc: object): Promise<unknown>;
  findOne(filter: object): Promise<unknown>;
  updateOne(filter: object, update: object): Promise<{ modifiedCount: number }>;
}
interface Client {
  connect(): Promise<unknown>;
  /** `listDatabases` through the admin database. */
  db(name: 'admin'): { admin(): { listDatabases(): Promise<{ databases: Array<{ name: string }> }> } };
  db(name: string): {
    collection(name: string): Coll;
    dropDatabase(): Promise<unknown>;
    command(cmd: object): Promise<Record<string, unknown>>;
  };
  close(): Promise<void>;
}

/** The MongoDB driver the services use (through mongoose), loaded from the testkit's dependencies. */
export function mongoClient(root: string, url: string): Client {
  const req = createRequire(join(root, 'packages', 'testkit', 'package.json'));
  const { MongoClient } = (req('mongoose') as { mongo: { MongoClient: new (url: string) => Client } }).mongo;
  return new MongoClient(url);
}

export interface ProbeRow {
  rows: number;
  op: string;
  p50Ms: number;
  p95Ms: number;
  serverCpuMsPerOp: number | null;
}

function deliveryRow(tenantId: string, payload: string) {
  const now = new Date();
  return {
    _id: randomUUID(),
    tenantId,
    subscriptionId: randomUUID(),
    eventId: randomUUID(),
    eventType: 'employee.created',
    occurredAt: now,
    payload,
    status: 'Pending',
    series: 1,
    attemptsMade: 0,
    totalAttempts: 0,
    attemptLog: [],
    lastStatusCode: null,
    responseBody: null,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
}

export interface ProbeResult {
  rows: ProbeRow[];
  /** What the server's `explain` says about the dispatcher's read filter and the bare `_id` one. */
  plans: Record<string, unknown>;
}

export async function storeProbe(
  root: string,
  mongoUrl: string,
  serverPid: number | undefined,
  sizes: number[],
  opsPerSize: number,
): Promise<ProbeResult> {
  const client = mongoClient(root, mongoUrl);
  await client.connect();
  const db = client.db(`bench_probe_${randomBytes(3).toString('hex')}`);
  // Not named `deliveries`: the FerretDB front's write lock is per collection name, shared with any test running now.
  const c = db.collection('probe_deliveries');
  const out: ProbeRow[] = [];
  try {
    await c.createIndex({ tenantId: 1, subscriptionId: 1, eventId: 1 }, { unique: true });
    await c.createIndex({ tenantId: 1, subscriptionId: 1, createdAt: -1 });
    await c.createIndex({ createdAt: 1 });
    // An envelope of the size the benchmark sends (employee.created), stored as the payload text.
    const payload = JSON.stringify({
      id: randomUUID(),
      type: 'employee.created',
      createdAt: new Date().toISOString(),
      data: { x: 'y'.repeat(330) },
    });
    const tenantId = randomUUID();
    let rows = 0;
    let ids: string[] = [];
    for (const size of sizes) {
      // Fill with other tenants' rows, then the newest `opsPerSize` rows are the probed tenant's.
      while (rows < size - opsPerSize) {
        const batch = Array.from({ length: Math.min(250, size - opsPerSize - rows) }, () =>
          deliveryRow(randomUUID(), payload),
        );
        await c.insertMany(batch, { ordered: false });
        rows += batch.length;
      }
      const newest = Array.from({ length: opsPerSize }, () => deliveryRow(tenantId, payload));
      await c.insertMany(newest, { ordered: false });
      rows += newest.length;
      ids = newest.map((d) => d._id);
      const ops: Array<[string, (id: string) => Promise<unknown>]> = [
        ['findOne {_id}', (id) => c.findOne({ _id: id })],
        ['findOne {_id, tenantId}', (id) => c.findOne({ _id: id, tenantId })],
        ['updateOne {_id}', (id) => c.updateOne({ _id: id }, { $set: { updatedAt: new Date() } })],
        [
          'updateOne {_id, tenantId, series, attemptsMade, status}',
          (id) =>
            c.updateOne(
              { _id: id, tenantId, series: 1, attemptsMade: 0, status: 'Pending' },
              { $set: { updatedAt: new Date() }, $inc: { totalAttempts: 1 } },
            ),
        ],
        ['insertOne', () => c.insertOne(deliveryRow(randomUUID(), payload))],
      ];
      for (const [op, run] of ops) {
        const times: number[] = [];
        const cpu0 = serverPid ? processCpuSeconds(serverPid) : undefined;
        for (let i = 0; i < opsPerSize; i++) {
          const id = ids[i % ids.length]!;
          const t0 = performance.now();
          await run(id);
          times.push(performance.now() - t0);
        }
        const cpu1 = serverPid ? processCpuSeconds(serverPid) : undefined;
        times.sort((a, b) => a - b);
        out.push({
          rows,
          op,
          p50Ms: round2(percentile(times, 0.5)),
          p95Ms: round2(percentile(times, 0.95)),
          serverCpuMsPerOp:
            cpu0 !== undefined && cpu1 !== undefined ? round2(((cpu1 - cpu0) * 1000) / opsPerSize) : null,
        });
      }
      rows += opsPerSize; // the insertOne rows
    }
    const plan = async (filter: object) => {
      const e = await explainFind(db, filter);
      return { filterPushdown: e.filterPushdown, plan: (e.queryPlanner as { Plan?: unknown } | undefined)?.Plan };
    };
    const id = ids[0]!;
    const plans = { '{_id, tenantId}': await plan({ _id: id, tenantId }), '{_id}': await plan({ _id: id }) };
    return { rows: out, plans };
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  }
}

function explainFind(db: { command(cmd: object): Promise<Record<string, unknown>> }, filter: object) {
  return db.command({ explain: { find: 'probe_deliveries', filter, limit: 1 } });
}
