import { randomUUID } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { Schema } from 'mongoose';
import { isDuplicateKey } from '../mongo/connection';

interface InboxRow {
  _id: string;
  consumer: string;
  eventId: string;
  /** Absent on rows written before claims existed: those are done. */
  state?: 'claimed' | 'done';
  /** The claim's holder (a random id per claim): only it may release the claim. */
  token?: string | null;
  /** A claim not completed by then (its process died) may be taken over by a redelivery. */
  leaseUntil?: Date | null;
  /** When the row was claimed, then when it was done: retention counts from here. */
  processedAt: Date;
}

/** What a delivery of an event may do (decision 0113). */
export type InboxClaim = { kind: 'claimed'; token: string } | { kind: 'done' } | { kind: 'busy'; leaseUntil: Date };

/** A claim's lease: far beyond any handler's time, short enough that a crash delays the event by minutes. */
export const INBOX_CLAIM_LEASE_MS = 5 * 60_000;

/**
 * Per consumer, the events it is handling or has handled. A delivery claims its event id before handling
 * it (an insert that fails on a duplicate), so a redelivered duplicate cannot run beside the original;
 * success marks the claim done (later duplicates are no-ops), a failure releases it (the retry may claim
 * again). A claim left by a process that died expires after its lease (docs/decisions/0113). Retention is
 * a scheduled delete rather than a TTL index because FerretDB has no TTL indexes.
 */
export class Inbox {
  private readonly model: Model<InboxRow>;

  constructor(
    conn: Connection,
    private readonly leaseMs = INBOX_CLAIM_LEASE_MS,
  ) {
    this.model =
      (conn.models.Inbox as Model<InboxRow>) ??
      conn.model<InboxRow>(
        'Inbox',
        new Schema<InboxRow>(
          {
            _id: String,
            consumer: String,
            eventId: String,
            state: String,
            token: String,
            leaseUntil: Date,
            processedAt: { type: Date, index: true },
          },
          { collection: 'inbox', versionKey: false },
        ),
      );
  }

  async claim(consumer: string, eventId: string): Promise<InboxClaim> {
    const _id = `${consumer}:${eventId}`;
    const token = randomUUID();
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + this.leaseMs);
    try {
      await this.model.create({ _id, consumer, eventId, state: 'claimed', token, leaseUntil, processedAt: now });
      return { kind: 'claimed', token };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const row = await this.model.findById(_id).lean<InboxRow>();
    // Released between our insert and this read: the redelivery's back-off brings it here again.
    if (!row) return { kind: 'busy', leaseUntil: now };
    if (row.state !== 'claimed') return { kind: 'done' };
    if (row.leaseUntil && row.leaseUntil > now) return { kind: 'busy', leaseUntil: row.leaseUntil };
    // The holder's lease ran out (its process died mid-message): take the claim over, once.
    const taken = await this.model.updateOne(
      { _id, state: 'claimed', token: row.token },
      { $set: { token, leaseUntil, processedAt: now } },
    );
    return taken.modifiedCount === 1 ? { kind: 'claimed', token } : { kind: 'busy', leaseUntil };
  }

  /** True once the consumer has handled the event (a claim still running is not). */
  async seen(consumer: string, eventId: string): Promise<boolean> {
    return (await this.model.exists({ _id: `${consumer}:${eventId}`, state: { $ne: 'claimed' } })) !== null;
  }

  /** The event was handled: every later delivery of it is a no-op. */
  async complete(consumer: string, eventId: string): Promise<void> {
    await this.model.updateOne(
      { _id: `${consumer}:${eventId}` },
      {
        $set: { state: 'done', processedAt: new Date() },
        $unset: { token: 1, leaseUntil: 1 },
        $setOnInsert: { consumer, eventId },
      },
      { upsert: true },
    );
  }

  /** Handling failed: a redelivery may claim the event again (a claim taken over meanwhile is left alone). */
  async release(consumer: string, eventId: string, token: string): Promise<void> {
    await this.model.deleteOne({ _id: `${consumer}:${eventId}`, state: 'claimed', token });
  }

  async purgeOlderThan(cutoff: Date): Promise<number> {
    const result = await this.model.deleteMany({ processedAt: { $lt: cutoff } });
    return result.deletedCount;
  }
}
