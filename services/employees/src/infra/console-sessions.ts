import { Schema, type Connection, type Model } from 'mongoose';
import type { ConsoleSessionRecord } from '../domain/console-session';

interface ConsoleSessionRow {
  _id: string;
  apiKeyId: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * The console's live sessions (docs/decisions/0193): one row per sign-in, removed by its sign-out, and
 * never read after its end. Not tenant data (a random id, the key's id, two instants), looked up by the
 * session id alone. Expired rows are deleted on a schedule: FerretDB has no TTL index.
 */
export class ConsoleSessionStore {
  private readonly model: Model<ConsoleSessionRow>;

  constructor(conn: Connection) {
    this.model =
      (conn.models.ConsoleSession as Model<ConsoleSessionRow>) ??
      conn.model<ConsoleSessionRow>(
        'ConsoleSession',
        new Schema<ConsoleSessionRow>(
          { _id: String, apiKeyId: String, createdAt: Date, expiresAt: { type: Date, index: true } },
          { collection: 'console_sessions', versionKey: false },
        ),
      );
  }

  /** Records the session (a repeat of the same sign-in keeps one row). */
  async put(record: ConsoleSessionRecord): Promise<void> {
    const { sessionId, ...fields } = record;
    await this.model.updateOne({ _id: sessionId }, { $set: fields }, { upsert: true });
  }

  /** The session while it is live at `now`; null once ended, expired or never recorded. */
  async findLive(sessionId: string, now: Date): Promise<ConsoleSessionRecord | null> {
    const row = await this.model.findOne({ _id: sessionId, expiresAt: { $gt: now } }).lean<ConsoleSessionRow>();
    return row && { sessionId: row._id, apiKeyId: row.apiKeyId, createdAt: row.createdAt, expiresAt: row.expiresAt };
  }

  async remove(sessionId: string): Promise<void> {
    await this.model.deleteOne({ _id: sessionId });
  }

  /** Deletes every session that has ended by `now`; how many. */
  async purgeExpired(now: Date): Promise<number> {
    return (await this.model.deleteMany({ expiresAt: { $lte: now } })).deletedCount ?? 0;
  }
}
