import { sign, verify, type KeyObject } from 'node:crypto';
import type { Market } from '@travel/regulations';
import type { Keyring } from './context-keys';

// The caller context the gateway mints after resolving an API key, and the service context a service sends
// with a call to another's /internal routes. Compact and dependency-free: base64url(JSON) + "." +
// base64url(Ed25519 signature). Signed with the issuer's own private key, verified with its public key
// (docs/decisions/0100): a caller context only with the gateway's, a service context only with the key of
// the service it names and only by the service it is addressed to. So no process but the gateway can mint
// a partner's caller context, and a service can call only those that list its key. Short-lived, so a
// captured header is useless after a minute; services never trust a context they cannot verify.
export const CONTEXT_HEADER = 'x-internal-context';
export const REQUEST_ID_HEADER = 'x-request-id';

/** The only issuer of caller contexts: the name whose key signs them in every keyring. */
export const CALLER_CONTEXT_ISSUER = 'gateway';

/** The markets: one list, in @travel/regulations (docs/decisions/0181). */
export type { Market };

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
  /** The calling service: the issuer whose key signed the context. */
  service: string;
  /** The called service: the only one that accepts the context. */
  audience: string;
  requestId: string;
}

export type InternalContext = CallerContext | ServiceContext;

/** What a process accepts: contexts addressed to `audience`, signed by an issuer of its keyring. */
export interface ContextTrust {
  /** This process's name (SERVICE_NAME): a service context must be addressed to it. */
  audience: string;
  keyring: Keyring;
}

interface Envelope {
  ctx: InternalContext;
  exp: number;
}

const b64 = (buf: Buffer): string => buf.toString('base64url');
/** Bytes of an Ed25519 signature. */
const SIGNATURE_BYTES = 64;

/** Signs a context with the issuer's private key (the gateway's for a caller context, the caller's own otherwise). */
export function mintContext(ctx: InternalContext, signingKey: KeyObject, ttlSeconds = 60, now = Date.now()): string {
  const payload = b64(
    Buffer.from(JSON.stringify({ ctx, exp: Math.floor(now / 1000) + ttlSeconds } satisfies Envelope)),
  );
  return `${payload}.${b64(sign(null, Buffer.from(payload), signingKey))}`;
}

/** Returns the context, or undefined when the token is missing, forged, malformed, misaddressed or expired. */
export function verifyContext(
  token: string | undefined,
  trust: ContextTrust,
  now = Date.now(),
): InternalContext | undefined {
  return verifyEnvelope(token, trust, now)?.ctx;
}

/** The issuer whose key must have signed `ctx` for `trust`, or undefined when no key may. */
function issuerOf(ctx: unknown, trust: ContextTrust): string | undefined {
  if (!ctx || typeof ctx !== 'object') return undefined;
  const c = ctx as Partial<ServiceContext> | Partial<CallerContext>;
  if (c.kind === 'caller') return CALLER_CONTEXT_ISSUER;
  if (c.kind === 'service' && typeof c.service === 'string' && c.audience === trust.audience) return c.service;
  return undefined;
}

function verifyEnvelope(token: string | undefined, trust: ContextTrust, now: number): Envelope | undefined {
  if (!token) return undefined;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== SIGNATURE_BYTES) return undefined;
  let envelope: Envelope;
  try {
    envelope = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Envelope;
  } catch {
    return undefined;
  }
  // The issuer the context claims picks the key; a claim without a trusted key is refused unverified.
  const issuer = issuerOf(envelope?.ctx, trust);
  const keys = issuer === undefined ? undefined : trust.keyring.get(issuer);
  if (!keys?.some((key) => verify(null, Buffer.from(payload), key, given))) return undefined;
  if (typeof envelope.exp !== 'number' || envelope.exp * 1000 < now) return undefined;
  return envelope;
}

const deepFreeze = <T extends object>(ctx: T): Readonly<T> => {
  for (const value of Object.values(ctx)) if (value && typeof value === 'object') Object.freeze(value);
  return Object.freeze(ctx);
};

/**
 * verifyContext for one trust, remembering the caller contexts it verified until they expire: the gateway
 * sends the same token for every request of an API key while its key cache holds the key (it mints one per
 * lookup: docs/decisions/0093), so a service checks the signature of a token once, not on every request.
 * A token is accepted exactly when verifyContext would accept it: the same token, the same trust, before
 * its `exp`. Only verified tokens are remembered (a forged one costs its verification every time, as
 * before); service contexts are minted per call and not remembered. The contexts handed out are frozen:
 * they are shared.
 */
export class ContextVerifier {
  private readonly verified = new Map<string, { ctx: InternalContext; expiresAt: number }>();

  constructor(
    private readonly trust: ContextTrust,
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
    const envelope = verifyEnvelope(token, this.trust, now);
    if (!envelope) return undefined;
    const ctx = deepFreeze(envelope.ctx);
    if (ctx.kind === 'caller') {
      if (this.verified.size >= this.maxEntries) this.verified.clear();
      this.verified.set(token, { ctx, expiresAt: envelope.exp * 1000 });
    }
    return ctx;
  }
}
