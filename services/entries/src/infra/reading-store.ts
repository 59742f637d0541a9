// entries' projection of the receipts context's readings (docs/decisions/0200): one document per attachment
// read, its id the attachment's, written only by the `receipts.reading.made` consumer and removed with its
// attachment. Versioned per tenant like the entries, so the reading's GET answers conditionally (0155).
import { Schema, type Connection, type Model } from 'mongoose';
import { tenantScoped, type CollectionVersions, type TenantId } from '@travel/platform';
import type { AttachmentReading } from '../domain/reading';

export const READINGS_COLLECTION = 'attachment_readings';

function readingModel(conn: Connection): Model<AttachmentReading> {
  if (conn.models.AttachmentReading) return conn.models.AttachmentReading as Model<AttachmentReading>;
  const schema = new Schema<AttachmentReading>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      entryId: { type: String, required: true },
      state: { type: String, required: true },
      reason: { type: String, default: null },
      engine: { type: String, required: true },
      readAt: { type: Date, required: true },
      attempts: { type: Number, required: true },
      fields: { type: Schema.Types.Mixed, default: {} },
      lines: { type: [String], default: [] },
    },
    { collection: READINGS_COLLECTION, versionKey: false, minimize: false },
  );
  schema.index({ tenantId: 1, entryId: 1 });
  schema.plugin(tenantScoped);
  return conn.model<AttachmentReading>('AttachmentReading', schema);
}

export class ReadingStore {
  readonly collection = READINGS_COLLECTION;
  private readonly model: Model<AttachmentReading>;

  constructor(
    conn: Connection,
    private readonly versions: CollectionVersions,
  ) {
    this.model = readingModel(conn);
  }

  get(tenantId: TenantId, attachmentId: string): Promise<AttachmentReading | null> {
    return this.model.findOne({ tenantId, _id: attachmentId }).lean<AttachmentReading>();
  }

  /** The reading replaces what was kept: a redelivered event writes the same document again. */
  async put(tenantId: TenantId, reading: AttachmentReading): Promise<void> {
    await this.versions.around(tenantId, READINGS_COLLECTION, () =>
      this.model.replaceOne({ tenantId, _id: reading._id }, { ...reading, tenantId }, { upsert: true }),
    );
  }

  async remove(tenantId: TenantId, attachmentId: string): Promise<void> {
    await this.versions.around(tenantId, READINGS_COLLECTION, () =>
      this.model.deleteOne({ tenantId, _id: attachmentId }),
    );
  }
}
