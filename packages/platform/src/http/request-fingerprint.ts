import { createHash } from 'node:crypto';

/** An uploaded file as the validator's multer hands it over. */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  buffer: Buffer;
}

export interface FingerprintedRequest {
  method: string;
  /** The path and query as sent. */
  url: string;
  /** The parsed body: a JSON value, or a multipart body's text fields. */
  body: unknown;
  files?: UploadedFile[];
}

/** JSON with every object's keys sorted: the same value however a client library ordered its keys. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What makes two requests with one Idempotency-Key "the same request" (docs/decisions/0195): the method,
 * the path and query, the parsed body with its keys in any order, and for a multipart upload its fields
 * and each file's field, name, type and bytes, in the order sent. Not the raw bytes: a client library may
 * pick a new multipart boundary, or order JSON keys differently, on a retry. A whole SHA-256, compared for
 * equality only.
 */
export function requestFingerprint(req: FingerprintedRequest): string {
  const files = (req.files ?? []).map((f) => [
    f.fieldname,
    f.originalname,
    f.mimetype,
    createHash('sha256').update(f.buffer).digest('hex'),
  ]);
  return createHash('sha256')
    .update(canonicalJson([req.method.toUpperCase(), req.url, req.body ?? null, files]))
    .digest('base64url');
}
