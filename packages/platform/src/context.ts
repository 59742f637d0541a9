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
  /** The key's effective flags: its employee's, within the cap its issuer gave it (docs/decisions/0104). */
  permissions: string[];
  requestId: string;
  /** Who issued the key, when that is not `employeeId`: the key acts for someone else (audit logs name them). */
  keyIssuedByEmployeeId?: string;
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
  return verifyEnvelope(token, secret, now)?.ctx;
}

function verifyEnvelope(token: string | undefined, secret: string, now: number): Envelope | undefined {
  if (!token) return undefined;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = mac(payload, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const envelope = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Envelope;
    if (typeof envelope.exp !== 'number' || envelope.exp * 1000 < now) return undefined;
    return envelope;
  } catch {
    return undefined;
  }
}

const deepFreeze = <T extends object>(ctx: T): Readonly<T> => {
  for (const value of Object.values(ctx)) if (value && typeof value === 'object') Object.freeze(value);
  return Object.freeze(ctx);
};

/**
 * verifyContext for one secret, remembering the caller contexts it verified until they expire: the gateway
 * sends the same token for every request of an API key while its key cache holds the key (it mints one per
 * lookup: docs/decisions/0093), so a service checks the HMAC of a token once, not on every request. A token
 * is accepted exactly when verifyContext would accept it: the same token, the same secret, before its `exp`.
 * Only verified tokens are remembered (a forged one costs its HMAC every time, as before); service contexts
 * are minted per call and not remembered. The contexts handed out are frozen: they are shared.
 */
export class ContextVerifier {
  private readonly verified = new Map<string, { ctx: InternalContext; expiresAt: number }>();

  constructor(
    private readonly secret: string,
    private readonly maxEntries = 5_000,
  ) {}

  verify(token: string | undefined, now = Date.now()): InternalContext | undefined {
    if (!token) return undefined;
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt >= now) return known.ctx;
      this.verified.delete(token);
      return undefined;
    }
    const envelope = verifyEnvelope(token, this.secret, now);
    if (!envelope?.ctx || typeof envelope.ctx !== 'object') return undefined;
    const ctx = deepFreeze(envelope.ctx);
    if (ctx.kind === 'caller') {
      if (this.verified.size >= this.maxEntries) this.verified.clear();
      this.verified.set(token, { ctx, expiresAt: envelope.exp * 1000 });
    }
    return ctx;
  }
}
