// The receipts context's own collection (docs/decisions/0200): one document per attachment, its reading
// and the work queue in one. Replicas take work from it, not from memory: the fair order, the leases and
// the back-offs hold across all of them. A finished reading carries `receipts.reading.made` in its outbox.
import { Schema, type Connection, type Model } from 'mongoose';
import {
  crossTenant,
  nudgeRelayOf,
  outboxSchemaFields,
  outboxUpdate,
  tenantScoped,
  type OutboxEvent,
  type OutboxFields,
  type TenantId,
} from '@travel/platform';
import type { ReadingRecord } from '../domain/reading';

export const READINGS_COLLECTION = 'readings';

type ReadingDoc = ReadingRecord & OutboxFields;

function readingModel(conn: Connection): Model<ReadingDoc> {
  if (conn.models.Reading) return conn.models.Reading as Model<ReadingDoc>;
  const schema = new Schema<ReadingDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      entryId: { type: String, required: true },
      contentType: { type: String, required: true },
      market: { type: String, required: true },
      state: { type: String, required: true },
      turn: { type: Number, required: true },
      queuedAt: { type: Date, required: true },
      notBefore: { type: Date, required: true },
      leaseUntil: { type: Date, default: null },
      attempts: { type: Number, required: true },
      reason: { type: String, default: null },
      engine: { type: String, default: null },
      readAt: { type: Date, default: null },
      fields: { type: Schema.Types.Mixed, default: {} },
      lines: { type: [String], default: [] },
      lastError: { type: String, default: null },
      ...outboxSchemaFields,
    },
    { collection: READINGS_COLLECTION, versionKey: false, minimize: false },
  );
  // The next reading: Pending, due, lowest turn, oldest first.
  schema.index({ state: 1, turn: 1, queuedAt: 1 });
  schema.index({ tenantId: 1, state: 1 });
  // The backlog gauge: the oldest waiting reading (docs/decisions/0202).
  schema.index({ state: 1, queuedAt: 1 });
  schema.plugin(tenantScoped);
  return conn.model<ReadingDoc>('Reading', schema);
}

export class ReadingStore {
  private readonly model: Model<ReadingDoc>;

  constructor(conn: Connection) {
    this.model = readingModel(conn);
  }

  /** How many of the tenant's readings wait: the turn a new one gets. */
  waiting(tenantId: TenantId): Promise<number> {
    return this.model.countDocuments({ tenantId, state: 'Pending' });
  }

  /**
   * The queue's backlog across every company (the gauges, docs/decisions/0202): readings not done yet
   * (waiting, being read or backing off) and when the oldest of them was queued.
   */
  async backlog(): Promise<{ waiting: number; oldestQueuedAt: Date | null }> {
    const all = crossTenant('the readings backlog gauge: a service-wide metric (0202)');
    const [waiting, oldest] = await Promise.all([
      this.model.countDocuments({ state: 'Pending' }).setOptions(all),
      this.model
        .findOne({ state: 'Pending' }, { queuedAt: 1 }, { sort: { queuedAt: 1 }, ...all })
        .lean<Pick<ReadingRecord, 'queuedAt'>>(),
    ]);
    return { waiting, oldestQueuedAt: oldest?.queuedAt ?? null };
  }

  /** Queues a reading; a redelivered event finds it queued (or done) and changes nothing. */
  async queue(record: ReadingRecord): Promise<void> {
    await this.model.updateOne(
      { tenantId: record.tenantId, _id: record._id },
      { $setOnInsert: record },
      { upsert: true },
    );
  }

  async remove(tenantId: TenantId, id: string): Promise<void> {
    await this.model.deleteOne({ tenantId, _id: id });
  }

  /**
   * Takes the next due reading of any tenant for `leaseMs` and counts the attempt; null when none is due.
   * One atomic update, so two replicas never take the same one.
   */
  claim(now: Date, leaseMs: number): Promise<ReadingRecord | null> {
    return this.model
      .findOneAndUpdate(
        {
          state: 'Pending',
          notBefore: { $lte: now },
          $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }],
        },
        { $set: { leaseUntil: new Date(now.getTime() + leaseMs) }, $inc: { attempts: 1 } },
        {
          sort: { turn: 1, queuedAt: 1 },
          new: true,
          ...crossTenant('the fair queue of readings across tenants (0200)'),
        },
      )
      .lean<ReadingRecord>();
  }

  /** Stores the outcome with its event, if the lease is still this replica's and the reading still there. */
  async finish(held: ReadingRecord, set: Partial<ReadingRecord>, event: OutboxEvent): Promise<boolean> {
    const res = await this.model.updateOne(
      { tenantId: held.tenantId, _id: held._id, state: 'Pending', leaseUntil: held.leaseUntil },
      outboxUpdate({ $set: { ...set, leaseUntil: null } }, event),
    );
    if (res.modifiedCount !== 1) return false;
    // Its event leaves now, from this replica's relay, not at a later poll (decision 0243).
    nudgeRelayOf(this.model.db, { collection: READINGS_COLLECTION, id: held._id });
    return true;
  }

  /** Gives the reading back, due at `notBefore`; `countAttempt: false` when the engine was not at fault. */
  async release(held: ReadingRecord, notBefore: Date, lastError: string, countAttempt: boolean): Promise<void> {
    await this.model.updateOne(
      { tenantId: held.tenantId, _id: held._id, state: 'Pending', leaseUntil: held.leaseUntil },
      { $set: { notBefore, leaseUntil: null, lastError }, ...(countAttempt ? {} : { $inc: { attempts: -1 } }) },
    );
  }
}
