import sharp from 'sharp';

// Decision 0114: an image is refused by the size its header declares before anything is decoded; the same
// 100-megapixel bound as attachments. sharp runs in libuv's pool, off the event loop.
export const MAX_PIXELS = 100_000_000;
const MIN_SIDE = 120;
/** The long side OCR reads at: a phone photo's receipt text is 15-30 px high there. */
const OCR_LONG_SIDE = 2000;
/** The long side the QR decoder looks at: the code is large on a receipt, and a smaller image is faster. */
const QR_LONG_SIDE = 1200;

export type Prepared = { ok: true; ocr: Buffer; qr: Buffer } | { ok: false; reason: string };

/** Auto-oriented (EXIF), bounded, greyscale PNGs for the OCR and the QR decoder, or why not. */
export async function prepareImage(bytes: Buffer): Promise<Prepared> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(bytes, { limitInputPixels: false }).metadata());
  } catch {
    return { ok: false, reason: 'not an image or PDF' };
  }
  if (!width || !height) return { ok: false, reason: 'not an image or PDF' };
  if (width * height > MAX_PIXELS) return { ok: false, reason: `image too large (${width} × ${height} pixels)` };
  if (Math.min(width, height) < MIN_SIDE) return { ok: false, reason: 'image too small' };
  try {
    const base = sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_PIXELS }).rotate().greyscale();
    const withinSide = (side: number) => ({ width: side, height: side, fit: 'inside' as const, withoutEnlargement: true });
    const [ocr, qr] = await Promise.all([
      base.clone().resize(withinSide(OCR_LONG_SIDE)).normalise().png({ compressionLevel: 1 }).toBuffer(),
      base.clone().resize(withinSide(QR_LONG_SIDE)).png({ compressionLevel: 1 }).toBuffer(),
    ]);
    return { ok: true, ocr, qr };
  } catch {
    return { ok: false, reason: 'image cannot be decoded' };
  }
}

/** The same image turned by 90, 180 or 270 degrees (an upside-down or sideways photo). */
export function rotate(png: Buffer, degrees: 90 | 180 | 270): Promise<Buffer> {
  return sharp(png).rotate(degrees).png({ compressionLevel: 1 }).toBuffer();
}
