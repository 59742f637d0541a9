import { Readable } from 'node:stream';
import { mongo, type Connection } from 'mongoose';
import sharp from 'sharp';

/**
 * Attachment bytes in a GridFS bucket of the entries database (`attachments.files` / `.chunks`), one file
 * per attachment, its id the attachment's UUID, tenant and entry in its metadata.
 */
export class AttachmentStore {
  private readonly bucket: mongo.GridFSBucket;

  constructor(private readonly conn: Connection) {
    this.bucket = new mongo.GridFSBucket(conn.db!, { bucketName: 'attachments' });
  }

  async put(
    id: string,
    bytes: Buffer,
    meta: { tenantId: string; entryId: string; fileName: string; contentType: string },
  ) {
    await new Promise<void>((resolve, reject) => {
      const upload = this.bucket.openUploadStreamWithId(id as never, meta.fileName, {
        metadata: { tenantId: meta.tenantId, entryId: meta.entryId, contentType: meta.contentType },
      });
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      Readable.from([bytes]).pipe(upload);
    });
  }

  open(id: string): NodeJS.ReadableStream {
    return this.bucket.openDownloadStream(id as never);
  }

  /** Best effort: a file that is already gone is fine (false: there was none, or the store failed). */
  async remove(id: string): Promise<boolean> {
    return this.bucket.delete(id as never).then(
      () => true,
      () => false,
    );
  }

  /** Files uploaded before `cutoff`, of every company, in batches by id (the orphan sweep). */
  async *storedBefore(cutoff: Date, batchSize = 500): AsyncGenerator<StoredFile[]> {
    let after = '';
    for (;;) {
      const batch = await this.files
        .find({ uploadDate: { $lt: cutoff }, _id: { $gt: after } })
        .sort({ _id: 1 })
        .limit(batchSize)
        .project<{ _id: string; length: number; metadata?: { tenantId?: string; entryId?: string } }>({
          length: 1,
          'metadata.tenantId': 1,
          'metadata.entryId': 1,
        })
        .toArray();
      if (!batch.length) return;
      yield batch.map((f) => ({
        id: f._id,
        bytes: f.length,
        tenantId: f.metadata?.tenantId,
        entryId: f.metadata?.entryId,
      }));
      after = batch[batch.length - 1]!._id;
    }
  }

  /**
   * Deletes chunks written before `cutoff` whose file document does not exist: an upload that died before
   * GridFS wrote the file document last, or a delete that died between the two. Chunk ids are ObjectIds,
   * which carry their creation time.
   */
  async removeChunksWithoutFile(cutoff: Date): Promise<{ files: number; bytes: number }> {
    const chunks = this.conn.db!.collection<{ files_id: string; data: mongo.Binary }>('attachments.chunks');
    const before = { _id: { $lt: mongo.ObjectId.createFromTime(Math.floor(cutoff.getTime() / 1000)) } };
    const fileIds = (await chunks.distinct('files_id', before)) as string[];
    const existing = new Set(
      (
        await this.files
          .find({ _id: { $in: fileIds } })
          .project<{ _id: string }>({ _id: 1 })
          .toArray()
      ).map((f) => f._id),
    );
    const swept = { files: 0, bytes: 0 };
    for (const id of fileIds.filter((f) => !existing.has(f))) {
      // One chunk at a time, so only what this run deleted is counted (another replica may sweep too).
      let bytes = 0;
      for (let c; (c = await chunks.findOneAndDelete({ files_id: id }));) bytes += c.data.length();
      if (bytes) swept.files++;
      swept.bytes += bytes;
    }
    return swept;
  }

  private get files() {
    return this.conn.db!.collection<{ _id: string; uploadDate: Date }>('attachments.files');
  }
}

/** A stored file as the orphan sweep sees it; tenant and entry from its metadata. */
export interface StoredFile {
  id: string;
  bytes: number;
  tenantId?: string;
  entryId?: string;
}

/** What `inspectImage` found: decodable, not an image, or larger than accepted (by its header). */
export type ImageInspection = 'decodes' | 'undecodable' | { width: number; height: number };

/**
 * Reads the image's header first (no pixel decoded) and refuses one whose declared width × height is
 * above `maxPixels` before anything is inflated; then decodes the whole image (a truncated or corrupt
 * file fails here), shrunk on load and under the same pixel limit. sharp works in libuv's thread pool,
 * off the event loop (docs/decisions/0114).
 */
export async function inspectImage(bytes: Buffer, maxPixels: number): Promise<ImageInspection> {
  try {
    const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!width || !height) return 'undecodable';
    if (width * height > maxPixels) return { width, height };
    await sharp(bytes, { failOn: 'truncated', limitInputPixels: maxPixels })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
    return 'decodes';
  } catch {
    return 'undecodable';
  }
}
