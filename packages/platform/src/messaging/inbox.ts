import type { Connection, Model } from 'mongoose';
import { Schema } from 'mongoose';
import { isDuplicateKey } from '../mongo/connection';

interface InboxRow {
  _id: string;
  consumer: string;
  eventId: string;
  processedAt: Date;
}

/**
 * Ids of events a consumer has fully processed, so a redelivered event is a no-op. Retention is a
 * scheduled delete rather than a TTL index because FerretDB has no TTL indexes (docs/decisions).
 */
export class Inbox {
  private readonly model: Model<InboxRow>;

  constructor(conn: Connection) {
    this.model =
      (conn.models.Inbox as Model<InboxRow>) ??
      conn.model<InboxRow>(
        'Inbox',
        new Schema<InboxRow>(
          { _id: String, consumer: String, eventId: String, processedAt: { type: Date, index: true } },
          { collection: 'inbox', versionKey: false },
        ),
      );
  }

  async seen(consumer: string, eventId: string): Promise<boolean> {
    return (await this.model.exists({ _id: `${consumer}:${eventId}` })) !== null;
  }

  async record(consumer: string, eventId: string): Promise<void> {
    try {
      await this.model.create({ _id: `${consumer}:${eventId}`, consumer, eventId, processedAt: new Date() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  async purgeOlderThan(cutoff: Date): Promise<number> {
    const result = await this.model.deleteMany({ processedAt: { $lt: cutoff } });
    return result.deletedCount;
  }
}
