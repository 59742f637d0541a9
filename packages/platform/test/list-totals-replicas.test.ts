// A list's total across replicas (docs/decisions/0157, 0233): each replica's repository keeps the totals of
// its own lists, and a write through another replica must never leave one of them served. The write's
// version bump makes the remembered total unreachable, so the next read counts again. Two replicas here are
// two connections to one database, each with its own versions and repository, as two processes have.
import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { CollectionVersions } from '../src/mongo/collection-versions';
import { connectMongo } from '../src/mongo/connection';
import { listPage, type ListRequest } from '../src/mongo/list-page';
import { parseTenantId } from '../src/mongo/tenant-guard';
import { TenantModel } from '../src/mongo/tenant-scope';

interface Row {
  _id: string;
  tenantId: string;
  editedAt: Date;
}

const rowSchema = new Schema<Row>({ _id: String, tenantId: String, editedAt: Date }, { versionKey: false });
const COLLECTION = 'list_rows';

interface Replica {
  conn: Connection;
  model: Model<Row>;
  versions: CollectionVersions;
  rows: TenantModel<Row>;
}

async function replica(url: string, db: string): Promise<Replica> {
  const conn = await connectMongo(url, db);
  const model = conn.model<Row>('ListRow', rowSchema, COLLECTION);
  const versions = new CollectionVersions(conn);
  return { conn, model, versions, rows: new TenantModel(model, versions) };
}

describe('list totals across replicas', () => {
  const db = `t_listtotals_${randomUUID().slice(0, 8)}`;
  let a: Replica;
  let b: Replica;

  beforeAll(async () => {
    const url = process.env.TEST_MONGO_URL;
    if (!url) throw new Error('no test store: run the tests with jest, whose global setup starts it');
    a = await replica(url, db);
    b = await replica(url, db);
  });
  afterAll(async () => {
    await a?.conn.dropDatabase().catch(() => undefined);
    await Promise.all([a?.conn.close(), b?.conn.close()]);
  });

  const row = (tenant: string, n: number) => ({
    _id: `${tenant}-r${n}`,
    editedAt: new Date(Date.UTC(2026, 10, 30, 8, 0, n)),
  });

  /** A list read as a conditional GET reads it: the collection's state first, then the page at that state. */
  async function list(on: Replica, tenant: string, request: Omit<ListRequest, 'asOf'>) {
    const state = await on.versions.state(tenant, COLLECTION);
    const scope = on.rows.of(parseTenantId(tenant));
    return listPage(scope, {}, { ...request, asOf: new Map([[COLLECTION, state]]) }, { _id: 1 }, (r: Row) => r._id);
  }

  it.each([
    ['pages by number', { page: 1, pageSize: 2 }],
    ['delta sync', { page: 1, pageSize: 2, updatedSince: new Date('2026-11-30T00:00:00Z') }],
  ])('%s: a total remembered by one replica is counted again after a write through the other', async (_, request) => {
    const tenant = `t-${randomUUID()}`;
    await b.rows.of(parseTenantId(tenant)).insertMany([row(tenant, 1), row(tenant, 2), row(tenant, 3)]);
    const counts = jest.spyOn(a.model, 'countDocuments');
    try {
      // Three rows, pages of two: the page is full, so only the count can say 3.
      expect((await list(a, tenant, request)).total).toBe(3);
      expect(counts).toHaveBeenCalledTimes(1);
      // Nothing written since: the replica's repository answers the total without a count.
      expect((await list(a, tenant, request)).total).toBe(3);
      expect(counts).toHaveBeenCalledTimes(1);

      await b.rows.of(parseTenantId(tenant)).create(row(tenant, 4));

      // The other replica's write bumped the version: a remembered 3 would be stale; 4 is counted.
      expect((await list(a, tenant, request)).total).toBe(4);
      expect(counts).toHaveBeenCalledTimes(2);
    } finally {
      counts.mockRestore();
    }
  });
});
