// The store must make every single-document write atomic, as MongoDB does: the delivery state machine,
// counters and the outbox rely on it. FerretDB v1.24 on SQLite does not by itself; our wrapper in
// tools/ferretdb serializes write commands per collection (docs/decisions/0002). This pins it.
import type { Connection } from 'mongoose';
import { connectMongo } from '@travel/platform';
import { createTestEnv, type TestEnv } from '@travel/testkit';

describe('MongoDB-wire store', () => {
  let env: TestEnv;
  let conn: Connection;
  beforeAll(async () => {
    env = await createTestEnv('atomicity');
    conn = await connectMongo(env.infra.mongoUrl, `${env.dbPrefix}atomic`);
  });
  afterAll(async () => {
    await conn?.close();
    await env?.cleanup();
  });

  it('loses no concurrent $inc on one document', async () => {
    const col = conn.db!.collection('counters');
    await col.insertOne({ _id: 'c' as never, n: 0 });
    await Promise.all(Array.from({ length: 40 }, () => col.updateOne({ _id: 'c' as never }, { $inc: { n: 1 } })));
    await Promise.all(
      Array.from({ length: 40 }, () => col.findOneAndUpdate({ _id: 'c' as never }, { $inc: { n: 1 } })),
    );
    expect((await col.findOne({ _id: 'c' as never }))!.n).toBe(80);
  });

  it('lets exactly one of many concurrent compare-and-set updates win', async () => {
    const col = conn.db!.collection('cas');
    await col.insertOne({ _id: 'x' as never, state: 'Pending' });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        col.updateOne({ _id: 'x' as never, state: 'Pending' }, { $set: { state: 'Done', by: i } }),
      ),
    );
    expect(results.filter((r) => r.modifiedCount === 1)).toHaveLength(1);
  });
});
