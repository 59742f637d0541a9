import { createHmac, timingSafeEqual } from 'node:crypto';

export type RawBody = Buffer | Uint8Array | string;
/** One secret, or several while rotating (the full `whsec_…` string is the key). */
export type Secrets = string | readonly string[];

// A string body is taken as the UTF-8 text of the raw bytes; pass a Buffer whenever you have one.
export function toBuffer(body: RawBody): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

export function secretList(secret: Secrets): readonly string[] {
  const list = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(list) || list.length === 0 || list.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError('secret must be a non-empty string (or a non-empty array of them)');
  }
  return list;
}

/** HMAC-SHA256 over `<t>.<raw body>`, keyed with the secret's UTF-8 bytes. */
export function computeSignature(body: Buffer, secret: string, timestampText: string): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestampText}.`, 'utf8').update(body).digest();
}

/**
 * Builds the `Svc-Signature` header value: `t=<seconds>,v1=<hex>` with one `v1` per secret.
 * Byte-exact with the dispatcher's rule, so it doubles as a test helper.
 */
export function sign(rawBody: RawBody, secret: Secrets, timestampSeconds: number): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('timestampSeconds must be a non-negative integer (unix seconds)');
  }
  const body = toBuffer(rawBody);
  const t = String(timestampSeconds);
  const v1 = secretList(secret).map((s) => `v1=${computeSignature(body, s, t).toString('hex')}`);
  return [`t=${t}`, ...v1].join(',');
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/**
 * Constant-time check of the candidates against the expected digests. A candidate of the wrong
 * length or alphabet cannot match: it is skipped, because timingSafeEqual throws on unequal lengths
 * and the length of a hex string is not secret.
 */
export function anySignatureMatches(expected: readonly Buffer[], candidates: readonly string[]): boolean {
  let matched = false;
  for (const candidate of candidates) {
    if (!SHA256_HEX.test(candidate)) continue;
    const given = Buffer.from(candidate, 'hex');
    // No early exit: every well-formed candidate costs the same comparisons.
    for (const digest of expected) matched = timingSafeEqual(digest, given) || matched;
  }
  return matched;
}
