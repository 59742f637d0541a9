import { crc32, createInflate } from 'node:zlib';

// Vehicle documents are PDFs or images (issue 11). The bytes are checked, not the declared content type
// or file name: a file whose structure does not decode is refused (the spec's rule for attachments:
// undecodable bytes are 400, never 500). Pure functions over a buffer (zlib is computation, not I/O).
// An image is bounded by the size its header declares before anything is inflated, and a PNG's data is
// inflated in zlib's thread pool and counted, never kept (docs/decisions/0114).

export const DOCUMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Largest document accepted (the upload limit of the HTTP layer is the same). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Files in one upload request (SPEC Limits: attachment files per request). */
export const MAX_FILES_PER_REQUEST = 5;
/** Largest image, by the width × height its header declares: a 600 dpi A4 scan is 35 megapixels. */
export const MAX_IMAGE_PIXELS = 50_000_000;

export type Checked = { type: DocumentType; problem?: undefined } | { type?: undefined; problem: string };

export async function checkDocumentBytes(bytes: Buffer): Promise<Checked> {
  if (bytes.length === 0) return { problem: 'is empty' };
  if (bytes.length > MAX_DOCUMENT_BYTES) return { problem: `is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB` };
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return check('application/pdf', pdfProblem(bytes));
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return check('image/png', await pngProblem(bytes));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return check('image/jpeg', jpegProblem(bytes));
  return { problem: 'must be a PDF, PNG or JPEG file' };
}

/** A problem that is not a broken file: the image is larger than accepted. */
class TooLarge {
  constructor(readonly problem: string) {}
}

const tooLarge = (width: number, height: number): TooLarge | undefined =>
  width * height > MAX_IMAGE_PIXELS
    ? new TooLarge(
        `is an image of ${width} × ${height} pixels; at most ${MAX_IMAGE_PIXELS.toLocaleString('en')} pixels are accepted`,
      )
    : undefined;

const check = (type: DocumentType, problem: string | TooLarge | undefined): Checked =>
  problem instanceof TooLarge
    ? { problem: problem.problem }
    : problem
      ? { problem: `is not a valid ${type.split('/')[1]!.toUpperCase()} file: ${problem}` }
      : { type };

function pdfProblem(bytes: Buffer): string | undefined {
  if (!/^%PDF-[12]\.\d/.test(bytes.subarray(0, 8).toString('latin1'))) return 'no PDF version header';
  // Incremental updates append after %%EOF; the last one is near the end (trailing whitespace allowed).
  if (
    !bytes
      .subarray(Math.max(0, bytes.length - 1024))
      .toString('latin1')
      .includes('%%EOF')
  )
    return 'no end-of-file marker (truncated?)';
  if (!bytes.includes('startxref') && !bytes.includes('/XRef')) return 'no cross-reference table';
  return undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7 passes: first column and row, column and row steps. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

interface PngHeader {
  width: number;
  height: number;
  depth: number;
  colour: number;
  interlace: number;
}

/** Bytes of the filtered image data IHDR implies: per (pass and) row, a filter byte and its pixels. */
function pngDataBytes(h: PngHeader): number {
  const rowBytes = (width: number) => Math.ceil((width * h.depth * PNG_CHANNELS[h.colour]!) / 8);
  if (h.interlace === 0) return h.height * (rowBytes(h.width) + 1);
  let total = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const w = Math.ceil((h.width - x0) / dx);
    const rows = Math.ceil((h.height - y0) / dy);
    if (w > 0 && rows > 0) total += rows * (rowBytes(w) + 1);
  }
  return total;
}

/**
 * Walks the chunks (lengths and CRCs), refuses an image larger than accepted by its IHDR, then inflates
 * the image data and checks it has the size IHDR implies.
 */
async function pngProblem(bytes: Buffer): Promise<string | TooLarge | undefined> {
  let offset = 8;
  let header: PngHeader | undefined;
  const data: Buffer[] = [];
  let ended = false;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.subarray(offset + 4, offset + 8).toString('latin1');
    if (offset + 12 + length > bytes.length) return `chunk ${type} runs past the end`;
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== bytes.readUInt32BE(offset + 8 + length))
      return `chunk ${type} has a bad checksum`;
    if (!header && type !== 'IHDR') return 'IHDR is not the first chunk';
    if (type === 'IHDR') {
      if (length !== 13) return 'bad IHDR';
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8]!,
        colour: body[9]!,
        interlace: body[12]!,
      };
      if (!header.width || !header.height || PNG_CHANNELS[header.colour] === undefined) return 'bad IHDR';
      const large = tooLarge(header.width, header.height);
      if (large) return large;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    offset += 12 + length;
  }
  if (!header) return 'no IHDR';
  if (!ended) return 'no IEND (truncated?)';
  if (!data.length) return 'no image data';
  const expected = pngDataBytes(header);
  const inflated = await inflatedBytes(data, expected);
  if (inflated === undefined) return 'the image data does not decompress';
  if (inflated !== expected) return 'the image data does not match its size';
  return undefined;
}

/**
 * How many bytes `parts` inflate to, counted as zlib's thread pool hands them over and then dropped;
 * it stops once past `limit` (the count is then above it). Undefined: not a zlib stream.
 */
function inflatedBytes(parts: Buffer[], limit: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const inflate = createInflate();
    let count = 0;
    inflate.on('data', (chunk: Buffer) => {
      count += chunk.length;
      if (count > limit) {
        inflate.destroy();
        resolve(count);
      }
    });
    inflate.once('end', () => resolve(count));
    inflate.once('error', () => resolve(undefined));
    for (const part of parts) inflate.write(part);
    inflate.end();
  });
}

/** Walks the JPEG segments to the first scan (a frame header with a size must precede it) and needs an end marker. */
function jpegProblem(bytes: Buffer): string | TooLarge | undefined {
  let offset = 2;
  let frame = false;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return 'a segment does not start with a marker';
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > bytes.length) return 'a segment runs past the end';
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      if (length < 8) return 'bad frame header';
      const height = bytes.readUInt16BE(offset + 5);
      const width = bytes.readUInt16BE(offset + 7);
      if (!width || !height) return 'the frame has no size';
      const large = tooLarge(width, height);
      if (large) return large;
      frame = true;
    }
    if (marker === 0xda) {
      if (!frame) return 'image data before the frame header';
      const tail = bytes.subarray(Math.max(offset + 2 + length, bytes.length - 64));
      for (let i = tail.length - 2; i >= 0; i--) if (tail[i] === 0xff && tail[i + 1] === 0xd9) return undefined;
      return 'no end-of-image marker (truncated?)';
    }
    offset += 2 + length;
  }
  return 'no image data';
}

/** A file name safe to store and to send back in Content-Disposition: no path, no control characters. */
export function cleanFileName(name: string | undefined, type: DocumentType): string {
  const base = (name ?? '')
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 200);
  return base || `document.${type === 'application/pdf' ? 'pdf' : type === 'image/png' ? 'png' : 'jpg'}`;
}
