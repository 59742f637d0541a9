// Attachments of an entry: what is accepted, and the record kept in the entry (the bytes are in GridFS).

export interface Attachment {
  _id: string;
  fileName: string;
  contentType: string;
  size: number;
  createdAt: Date;
}

export const MAX_FILES_PER_UPLOAD = 5;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Largest image by the width × height its header declares (a 100-megapixel phone photo passes). */
export const MAX_IMAGE_PIXELS = 100_000_000;

/** The problem of an image whose header declares more pixels than accepted. */
export const tooManyPixels = (width: number, height: number): string =>
  `is an image of ${width} × ${height} pixels; at most ${MAX_IMAGE_PIXELS.toLocaleString('en')} pixels are accepted`;

/** Image types sharp decodes; their bytes are decoded for real before they are stored. */
export const IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/tiff',
  'image/avif',
  'image/heif',
  'image/heic',
]);
export const PDF_TYPE = 'application/pdf';

export const isImageType = (contentType: string): boolean => IMAGE_TYPES.has(contentType.toLowerCase());

/** A PDF starts with `%PDF-` (ISO 32000: the header may follow up to 1024 bytes of leading garbage; we accept it at the start only). */
export const looksLikePdf = (bytes: Uint8Array): boolean =>
  bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';

/** A file name safe to echo and to put in Content-Disposition: no path, no control characters, at most 255 chars. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...base]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f && c !== '"')
    .join('')
    .trim();
  return (clean || 'attachment').slice(0, 255);
}
