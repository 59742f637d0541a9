import { WebhookVerificationError } from './errors';

/** Header names as sent by the dispatcher (HTTP header names are case-insensitive). */
export const WEBHOOK_HEADERS = {
  event: 'Svc-Event',
  eventId: 'Svc-Event-Id',
  signature: 'Svc-Signature',
  deliveryId: 'Svc-Delivery-Id',
} as const;

/** Node/Express style header map, or anything with a Fetch-style `get` (e.g. `Headers`). */
export type HeaderSource = Readonly<Record<string, string | readonly string[] | undefined>> | FetchStyleHeaders;

export interface FetchStyleHeaders {
  get(name: string): string | null;
}

function isFetchStyle(headers: HeaderSource): headers is FetchStyleHeaders {
  return typeof (headers as { get?: unknown }).get === 'function';
}

/** All values for `name`, looked up case-insensitively (a plain object may hold several spellings). */
function valuesOf(headers: HeaderSource, name: string): string[] {
  if (isFetchStyle(headers)) {
    const value = headers.get(name);
    return value === null ? [] : [value];
  }
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (typeof value === 'string') values.push(value);
    else values.push(...value);
  }
  return values;
}

/**
 * One header value, trimmed. Repeated headers are ambiguous (and Node joins unknown ones with ", "),
 * so several values are rejected rather than guessed between.
 */
export function requireSingleHeader(headers: HeaderSource, name: string): string {
  const values = valuesOf(headers, name)
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (values.length === 0) throw new WebhookVerificationError('MISSING_HEADER', `Missing ${name} header`);
  if (new Set(values).size > 1) throw new WebhookVerificationError('MALFORMED_HEADER', `Multiple ${name} headers`);
  return values[0]!;
}

/** The signature header may legitimately be repeated; its parts are comma-joined. */
export function requireSignatureHeader(headers: HeaderSource): string {
  const values = valuesOf(headers, WEBHOOK_HEADERS.signature).filter((v) => v.trim() !== '');
  if (values.length === 0) {
    throw new WebhookVerificationError('MISSING_HEADER', `Missing ${WEBHOOK_HEADERS.signature} header`);
  }
  return values.join(',');
}

export interface ParsedSignatureHeader {
  /** The decimal digits exactly as sent: they are part of the signed string. */
  timestampText: string;
  timestamp: number;
  /** Every `v1=` value, in order. Several appear while a secret is being rotated. */
  signatures: string[];
}

// Up to 15 digits keeps the value an exact integer in a JS number.
const TIMESTAMP = /^\d{1,15}$/;

/**
 * Parses `t=<unix_seconds>,v1=<hex>[,v1=<hex>…]`. Unknown keys (future schemes) are ignored;
 * exactly one `t` and at least one non-empty `v1` are required.
 */
export function parseSignatureHeader(value: string): ParsedSignatureHeader {
  const malformed = (why: string) =>
    new WebhookVerificationError('MALFORMED_HEADER', `Malformed ${WEBHOOK_HEADERS.signature} header: ${why}`);
  let timestampText: string | undefined;
  const signatures: string[] = [];
  for (const rawPart of value.split(',')) {
    const part = rawPart.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw malformed('expected key=value pairs');
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestampText !== undefined) throw malformed('more than one t');
      if (!TIMESTAMP.test(val)) throw malformed('t must be unix seconds');
      timestampText = val;
    } else if (key === 'v1') {
      if (val === '') throw malformed('empty v1');
      signatures.push(val);
    }
  }
  if (timestampText === undefined) throw malformed('missing t');
  if (signatures.length === 0) throw malformed('missing v1');
  return { timestampText, timestamp: Number(timestampText), signatures };
}
