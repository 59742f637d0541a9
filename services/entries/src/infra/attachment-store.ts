import { Readable } from 'node:stream';
import { mongo, type Connection } from 'mongoose';
import sharp from 'sharp';

/**
 * Attachment bytes in a GridFS bucket of the entries database (`attachments.files` / `.chunks`), one file
 * per attachment, its id the attachment's UUID, tenant and entry in its metadata.
 */
export class AttachmentStore {
  private readonly bucket: mongo.GridFSBucket;

  constructor(conn: Connection) {
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

  /** Best effort: a file that is already gone is fine. */
  async remove(id: string): Promise<void> {
    await this.bucket.delete(id as never).catch(() => undefined);
  }
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
