import { createHmac, timingSafeEqual } from 'node:crypto';

// The caller context the gateway mints after resolving an API key, and every service verifies.
// Compact and dependency-free: base64url(JSON) + "." + base64url(HMAC-SHA256). Short-lived, so a
// captured header is useless after a minute; services never trust a context they cannot verify.
export const CONTEXT_HEADER = 'x-internal-context';
export const REQUEST_ID_HEADER = 'x-request-id';

export type Market = 'HR' | 'SI' | 'SK' | 'CZ' | 'PL';

export interface CallerContext {
  kind: 'caller';
  tenantId: string;
  market: Market;
  baseCurrency: string;
  employeeId: string;
  apiKeyId: string;
  permissions: string[];
  requestId: string;
}

/** A service calling another service's internal endpoint (no tenant, no employee). */
export interface ServiceContext {
  kind: 'service';
  service: string;
  requestId: string;
}

export type InternalContext = CallerContext | ServiceContext;

interface Envelope {
  ctx: InternalContext;
  exp: number;
}

const b64 = (buf: Buffer): string => buf.toString('base64url');
const mac = (payload: string, secret: string): Buffer => createHmac('sha256', secret).update(payload).digest();

export function mintContext(ctx: InternalContext, secret: string, ttlSeconds = 60, now = Date.now()): string {
  const payload = b64(
    Buffer.from(JSON.stringify({ ctx, exp: Math.floor(now / 1000) + ttlSeconds } satisfies Envelope)),
  );
  return `${payload}.${b64(mac(payload, secret))}`;
}

/** Returns the context, or undefined when the token is missing, forged, malformed or expired. */
export function verifyContext(
  token: string | undefined,
  secret: string,
  now = Date.now(),
): InternalContext | undefined {
  if (!token) return undefined;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = mac(payload, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const envelope = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Envelope;
    if (typeof envelope.exp !== 'number' || envelope.exp * 1000 < now) return undefined;
    return envelope.ctx;
  } catch {
    return undefined;
  }
}
