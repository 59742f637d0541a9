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

/**
 * True when sharp decodes the whole image (not only its header): a truncated or corrupt file fails here.
 * Decoding is bounded (pixel limit) and shrunk on load, so a huge image does not hold huge memory.
 */
export async function decodesAsImage(bytes: Buffer): Promise<boolean> {
  try {
    await sharp(bytes, { failOn: 'truncated', limitInputPixels: 100_000_000 })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
    return true;
  } catch {
    return false;
  }
}
