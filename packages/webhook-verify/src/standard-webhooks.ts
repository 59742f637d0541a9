import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors';
import { secretList, toBuffer, type RawBody, type Secrets } from './signature';

/**
 * The headers of a subscription on the Standard Webhooks scheme (standardwebhooks.com, v1): the message id
 * (our envelope `id`, the same on every retry), the unix-seconds timestamp and the signatures.
 */
export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The HMAC key of a Standard Webhooks secret: the base64 text after `whsec_`, decoded. Null for a string
 * that is no such secret (an `Svc-*` scheme's hex secret decodes, but to a key that matches nothing).
 */
export function standardKey(secret: string): Buffer | null {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!BASE64.test(text) || text.length % 4 !== 0) return null;
  const key = Buffer.from(text, 'base64');
  return key.length > 0 ? key : null;
}

/** HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the decoded secret. */
export function computeStandardSignature(body: Buffer, key: Buffer, msgId: string, timestampText: string): Buffer {
  return createHmac('sha256', key).update(`${msgId}.${timestampText}.`, 'utf8').update(body).digest();
}

/**
 * The `webhook-signature` value: `v1,<base64>` per secret, newest first, space-separated (how the standard
 * carries a rotation's two signatures). Byte-exact with the dispatcher, so it doubles as a test helper.
 */
export function signStandard(rawBody: RawBody, secret: Secrets, msgId: string, timestampSeconds: number): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('timestampSeconds must be a non-negative integer (unix seconds)');
  }
  const body = toBuffer(rawBody);
  return secretList(secret)
    .map((s) => {
      const key = standardKey(s);
      if (!key) throw new TypeError('a Standard Webhooks secret is whsec_ followed by base64');
      return `v1,${computeStandardSignature(body, key, msgId, String(timestampSeconds)).toString('base64')}`;
    })
    .join(' ');
}

/** The `v1` signatures of a `webhook-signature` value; other versions (`v1a`, future ones) are skipped. */
export function parseStandardSignatureHeader(value: string): string[] {
  const signatures: string[] = [];
  for (const part of value.split(' ')) {
    if (part === '') continue;
    const comma = part.indexOf(',');
    if (comma <= 0) {
      throw new WebhookVerificationError(
        'MALFORMED_HEADER',
        `Malformed ${STANDARD_WEBHOOK_HEADERS.signature} header: expected version,signature`,
      );
    }
    if (part.slice(0, comma) === 'v1') signatures.push(part.slice(comma + 1));
  }
  if (signatures.length === 0) {
    throw new WebhookVerificationError(
      'MALFORMED_HEADER',
      `Malformed ${STANDARD_WEBHOOK_HEADERS.signature} header: missing v1`,
    );
  }
  return signatures;
}

/** Constant-time, like the `Svc-*` check: a candidate that is not a 32-byte base64 digest cannot match. */
export function anyStandardSignatureMatches(expected: readonly Buffer[], candidates: readonly string[]): boolean {
  let matched = false;
  for (const candidate of candidates) {
    if (!BASE64.test(candidate)) continue;
    const given = Buffer.from(candidate, 'base64');
    if (given.length !== 32) continue;
    for (const digest of expected) matched = timingSafeEqual(digest, given) || matched;
  }
  return matched;
}
