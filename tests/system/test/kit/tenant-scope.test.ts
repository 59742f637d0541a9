// Tenant scope is enforced by the code (issue 8, docs/decisions/0081): on a schema with the `tenantScoped`
// plugin, every query, update, delete, count, distinct and aggregate without tenantId in its filter is
// refused, unless the call is marked cross-tenant with a reason. Against the real store.
import { Schema, type Connection, type Model } from 'mongoose';
import {
  TenantModel,
  TenantScopeError,
  connectMongo,
  crossTenant,
  findOwned,
  parseTenantId,
  tenantOf,
  tenantScoped,
} from '@travel/platform';
import { createTestEnv, type TestEnv } from '@travel/testkit';
import { registerModels as employeesModels } from '@travel/employees/src/infra/models';
import { registerModels as fleetModels } from '@travel/fleet/src/infra/models';
import { AllowListsStore } from '@travel/reference-fx/src/infra/allow-lists-store';
import { registerModels as dispatcherModels } from '@travel/webhook-dispatcher/src/infra/models';

interface Row {
  _id: string;
  tenantId: string;
  name: string;
  n: number;
}

const A = parseTenantId('tenant-a');
const B = tenantOf({ tenantId: 'tenant-b' });
const REFUSED = /without tenantId in its filter|not a \$match on tenantId/;

describe('tenantScoped plugin', () => {
  let env: TestEnv;
  let conn: Connection;
  let Rows: Model<Row>;
  let Free: Model<Row>;

  beforeAll(async () => {
    env = await createTestEnv('tenantscope');
    conn = await connectMongo(env.infra.mongoUrl, `${env.dbPrefix}scope`);
    const schema = new Schema<Row>(
      { _id: String, tenantId: { type: String, required: true }, name: String, n: Number },
      { collection: 'rows', versionKey: false },
    );
    schema.plugin(tenantScoped);
    Rows = conn.model<Row>('Row', schema);
    // Opt-in per schema: a model without the plugin behaves as before.
    Free = conn.model<Row>(
      'Free',
      new Schema<Row>({ _id: String, tenantId: String, name: String, n: Number }, { collection: 'free' }),
    );
    await Rows.create([
      { _id: 'a1', tenantId: A, name: 'one', n: 1 },
      { _id: 'a2', tenantId: A, name: 'two', n: 2 },
      { _id: 'b1', tenantId: B, name: 'one', n: 3 },
    ]);
    await Free.create({ _id: 'f1', tenantId: A, name: 'free', n: 0 });
  });
  afterAll(async () => {
    await conn?.close();
    await env?.cleanup();
  });

  const unscoped: Array<[string, () => PromiseLike<unknown>]> = [
    ['find', () => Rows.find({ name: 'one' })],
    ['findOne', () => Rows.findOne({ _id: 'a1' })],
    ['findById', () => Rows.findById('a1')],
    ['exists', () => Rows.exists({ name: 'one' })],
    ['findOneAndUpdate', () => Rows.findOneAndUpdate({ _id: 'a1' }, { $set: { n: 9 } })],
    ['findOneAndDelete', () => Rows.findOneAndDelete({ _id: 'a1' })],
    ['findOneAndReplace', () => Rows.findOneAndReplace({ _id: 'a1' }, { tenantId: A, name: 'x', n: 9 })],
    ['updateOne', () => Rows.updateOne({ _id: 'a1' }, { $set: { n: 9 } })],
    ['updateMany', () => Rows.updateMany({}, { $set: { n: 9 } })],
    ['replaceOne', () => Rows.replaceOne({ _id: 'a1' }, { tenantId: A, name: 'x', n: 9 })],
    ['deleteOne', () => Rows.deleteOne({ _id: 'a1' })],
    ['deleteMany', () => Rows.deleteMany({ name: 'one' })],
    ['countDocuments', () => Rows.countDocuments({})],
    ['estimatedDocumentCount', () => Rows.estimatedDocumentCount()],
    ['distinct', () => Rows.distinct('name')],
    ['aggregate', () => Rows.aggregate([{ $group: { _id: '$tenantId', n: { $sum: '$n' } } }])],
    ['aggregate, tenant in a later $match', () => Rows.aggregate([{ $sort: { n: 1 } }, { $match: { tenantId: A } }])],
    ['bulkWrite', () => Rows.bulkWrite([{ updateOne: { filter: { _id: 'a1' }, update: { $set: { n: 9 } } } }])],
    ['a tenantId that is not an equality', () => Rows.find({ tenantId: { $in: [A, B] } })],
    ['a tenantId nested under $or', () => Rows.find({ $or: [{ tenantId: A }, { tenantId: B }] })],
    ['an empty tenantId', () => Rows.find({ tenantId: '' })],
  ];

  it.each(unscoped)('refuses %s without tenantId', async (_, call) => {
    await expect(call()).rejects.toThrow(TenantScopeError);
    await expect(call()).rejects.toThrow(REFUSED);
  });

  it('changed nothing while refusing', async () => {
    const rows = await Rows.find({}, null, crossTenant('test: read back every row')).sort({ _id: 1 }).lean();
    expect(rows.map((r) => [r._id, r.n])).toEqual([
      ['a1', 1],
      ['a2', 2],
      ['b1', 3],
    ]);
  });

  it('refuses a cross-tenant mark without a reason', async () => {
    await expect(Rows.find({}).setOptions({ crossTenant: '' })).rejects.toThrow(/needs a reason/);
    await expect(Rows.find({}).setOptions({ crossTenant: true })).rejects.toThrow(/needs a reason/);
    expect(() => crossTenant(' ')).toThrow(TenantScopeError);
  });

  it('lets scoped calls through and finds only the tenant’s records', async () => {
    expect(await Rows.find({ tenantId: A }).countDocuments()).toBe(2);
    expect(await Rows.findOne({ _id: 'b1', tenantId: A })).toBeNull();
    expect((await Rows.findOne({ _id: 'b1', tenantId: B }).lean())?.name).toBe('one');
    expect(await Rows.distinct('name', { tenantId: A })).toEqual(['one', 'two']);
    const scopedBulk = await Rows.bulkWrite([
      { updateOne: { filter: { _id: 'a1', tenantId: B }, update: { $set: { n: 9 } } } },
      { insertOne: { document: { _id: 'a3', tenantId: A, name: 'three', n: 0 } } },
      { deleteOne: { filter: { _id: 'a3', tenantId: A } } },
    ]);
    expect([scopedBulk.matchedCount, scopedBulk.insertedCount, scopedBulk.deletedCount]).toEqual([0, 1, 1]);
    const sums = await Rows.aggregate([{ $match: { tenantId: A } }, { $group: { _id: null, n: { $sum: '$n' } } }]);
    expect(sums[0].n).toBe(3);
    expect((await Rows.updateOne({ _id: 'b1', tenantId: A }, { $set: { n: 7 } })).matchedCount).toBe(0);
    expect(await findOwned(Rows, 'a1', A)).toMatchObject({ _id: 'a1', name: 'one' });
    expect(await findOwned(Rows, 'a1', B)).toBeNull();
  });

  it('lets calls marked cross-tenant through, with every way of passing the mark', async () => {
    expect(await Rows.countDocuments({}).setOptions(crossTenant('test: metrics over every tenant'))).toBe(3);
    expect(await Rows.find({ name: 'one' }, null, crossTenant('test: a lookup by a global key'))).toHaveLength(2);
    expect(
      (await Rows.updateMany({ name: 'one' }, { $inc: { n: 10 } }, crossTenant('test: a migration'))).modifiedCount,
    ).toBe(2);
    const total = await Rows.aggregate([{ $group: { _id: null, n: { $sum: '$n' } } }]).option(
      crossTenant('test: a report'),
    );
    expect(total[0].n).toBe(26);
    expect(await Rows.estimatedDocumentCount().setOptions(crossTenant('test: a gauge'))).toBe(3);
    expect((await Rows.deleteMany({ n: { $gt: 100 } }, crossTenant('test: retention'))).deletedCount).toBe(0);
    const bulk = await Rows.bulkWrite(
      [{ updateOne: { filter: { _id: 'a2' }, update: { $set: { n: 2 } } } }],
      crossTenant('test: a batch'),
    );
    expect(bulk.matchedCount).toBe(1);
  });

  it('scopes every call made through a repository to its TenantId', async () => {
    const rows = new TenantModel(Rows);
    expect((await rows.of(A).find().lean()).map((r) => r._id).sort()).toEqual(['a1', 'a2']);
    expect(await rows.of(A).findById('b1')).toBeNull();
    expect((await rows.of(A).updateMany({}, { $inc: { n: 1 } })).modifiedCount).toBe(2);
    expect((await rows.of(B).deleteOne({ _id: 'a1' })).deletedCount).toBe(0);
    await rows.of(B).create({ _id: 'b2', name: 'new', n: 0 });
    expect(await rows.of(B).count()).toBe(2);
    expect(() => rows.of(A).create({ _id: 'x', tenantId: B, name: 'stolen', n: 0 })).toThrow(TenantScopeError);
  });

  it('leaves a schema without the plugin as it was', async () => {
    expect(await Free.findOne({ _id: 'f1' }).lean()).toMatchObject({ name: 'free' });
  });

  it('applies to every tenant collection of the services that went through repositories', async () => {
    new AllowListsStore(conn);
    const models: Record<string, Model<any>> = {
      ...employeesModels(conn),
      ...fleetModels(conn),
      ...dispatcherModels(conn),
      AllowList: conn.models.AllowList!,
    };
    expect(Object.keys(models).sort()).toEqual(
      [
        'AllowList',
        'ApiKey',
        'Company',
        'CostCenter',
        'Deadline',
        'Delegations',
        'Delivery',
        'Department',
        'DocumentContent',
        'Employee',
        'Envelope',
        'Subscription',
        'UsageRefusal',
        'Vehicle',
        'VehicleCost',
        'VehicleDocument',
      ].sort(),
    );
    for (const [name, model] of Object.entries(models)) {
      await expect(model.findOne({ _id: 'x' })).rejects.toThrow(`${name}.findOne without tenantId`);
      await expect(model.countDocuments({ tenantId: A })).resolves.toBe(0);
    }
  });

  it('makes a TenantId only from a caller or by parsing', () => {
    expect(tenantOf({ tenantId: 'c0ffee00-0000-4000-8000-000000000001' })).toBe('c0ffee00-0000-4000-8000-000000000001');
    for (const bad of ['', 'a b', { $ne: null }, undefined, 42])
      expect(() => parseTenantId(bad)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});
