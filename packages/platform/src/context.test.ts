import { createHmac, sign, type KeyObject } from 'node:crypto';
import {
  ContextVerifier,
  mintContext,
  verifyContext,
  type CallerContext,
  type ContextTrust,
  type InternalContext,
  type ServiceContext,
} from './context';
import { generateSigningKey, keyringText, parseKeyring, privateKeyFromText } from './context-keys';

const NOW = Date.UTC(2026, 9, 7, 12, 0, 0); // a fixed instant, whole seconds

/** A process's key pair: the private key it signs with, the public text others list. */
const keyPair = () => {
  const { privateKey, publicKey } = generateSigningKey();
  return { key: privateKeyFromText(privateKey), publicKey };
};
const gateway = keyPair();
const entries = keyPair();
const payouts = keyPair();
const dispatcher = keyPair();

/** What employees accepts: the gateway's caller contexts, and calls of the gateway, entries and payouts. */
const TRUST: ContextTrust = {
  audience: 'employees',
  keyring: parseKeyring(
    keyringText({ gateway: gateway.publicKey, entries: entries.publicKey, payouts: payouts.publicKey }),
  ),
};
/** The same issuers with other keys (another environment). */
const OTHER_TRUST: ContextTrust = {
  audience: 'employees',
  keyring: parseKeyring(keyringText({ gateway: dispatcher.publicKey, payouts: dispatcher.publicKey })),
};

const caller: CallerContext = {
  kind: 'caller',
  tenantId: 'tenant-1',
  market: 'CZ',
  baseCurrency: 'CZK',
  employeeId: 'emp-1',
  apiKeyId: 'key-1',
  permissions: ['ManageVehicles', 'ReadAllEntries'],
  requestId: 'req-1',
};

const service: ServiceContext = { kind: 'service', service: 'payouts', audience: 'employees', requestId: 'req-2' };

/** The key that legitimately signs a context for TRUST: the gateway's for a caller, the issuer's otherwise. */
const signerOf = (ctx: InternalContext): KeyObject => (ctx.kind === 'caller' ? gateway.key : payouts.key);
const mint = (ctx: InternalContext, ttl?: number, now = NOW) => mintContext(ctx, signerOf(ctx), ttl, now);

const b64json = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const signature = (payload: string, key: KeyObject = gateway.key) =>
  sign(null, Buffer.from(payload), key).toString('base64url');
/** A token around an arbitrary payload signed with the gateway's key, to reach the checks after the signature. */
const signedToken = (payload: string): string => `${payload}.${signature(payload)}`;
const decodePayload = (token: string): unknown =>
  JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));

describe('mintContext / verifyContext', () => {
  describe('round trip', () => {
    it.each<[string, InternalContext]>([
      ['caller context', caller],
      ['service context', service],
    ])('returns the %s unchanged', (_name, ctx) => {
      expect(verifyContext(mint(ctx), TRUST, NOW)).toEqual(ctx);
    });

    it('produces a compact token: base64url payload "." base64url Ed25519 signature (64 bytes)', () => {
      const token = mint(caller);
      expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
      expect(token.length).toBeLessThan(400);
    });

    it('puts the expiry (unix seconds) in the payload: now + ttl', () => {
      expect(decodePayload(mint(service, 60, NOW))).toEqual({ ctx: service, exp: NOW / 1000 + 60 });
      expect(decodePayload(mint(service, 5, NOW + 999))).toEqual({ ctx: service, exp: NOW / 1000 + 5 });
    });

    it('defaults the time-to-live to 60 seconds', () => {
      expect(decodePayload(mint(service, undefined, NOW))).toMatchObject({ exp: NOW / 1000 + 60 });
    });

    it('accepts every key of an issuer listed twice (a key being rotated)', () => {
      const next = keyPair();
      const rotating: ContextTrust = {
        audience: 'employees',
        keyring: parseKeyring(keyringText({ gateway: gateway.publicKey }) + `,gateway:${next.publicKey}`),
      };
      expect(verifyContext(mintContext(caller, gateway.key, 60, NOW), rotating, NOW)).toEqual(caller);
      expect(verifyContext(mintContext(caller, next.key, 60, NOW), rotating, NOW)).toEqual(caller);
    });
  });

  describe('who may sign what (0100)', () => {
    it('refuses a caller context signed by a service key, even one trusted for service contexts', () => {
      for (const key of [entries.key, payouts.key, dispatcher.key])
        expect(verifyContext(mintContext(caller, key, 60, NOW), TRUST, NOW)).toBeUndefined();
      expect(verifyContext(mintContext(caller, gateway.key, 60, NOW), TRUST, NOW)).toEqual(caller);
    });

    it('refuses a service context addressed to another service, though signed by its trusted issuer', () => {
      const toFleet: ServiceContext = { kind: 'service', service: 'entries', audience: 'fleet', requestId: 'r' };
      const token = mintContext(toFleet, entries.key, 60, NOW);
      expect(verifyContext(token, TRUST, NOW)).toBeUndefined();
      expect(verifyContext(token, { ...TRUST, audience: 'fleet' }, NOW)).toEqual(toFleet);
    });

    it('refuses a service context without an audience', () => {
      const unaddressed = { kind: 'service', service: 'entries', requestId: 'r' } as unknown as ServiceContext;
      expect(verifyContext(mintContext(unaddressed, entries.key, 60, NOW), TRUST, NOW)).toBeUndefined();
    });

    it('refuses a service context signed by another key than that of the issuer it names', () => {
      const asEntries: ServiceContext = { ...service, service: 'entries' };
      expect(verifyContext(mintContext(asEntries, payouts.key, 60, NOW), TRUST, NOW)).toBeUndefined();
      expect(verifyContext(mintContext(asEntries, gateway.key, 60, NOW), TRUST, NOW)).toBeUndefined();
      expect(verifyContext(mintContext(asEntries, entries.key, 60, NOW), TRUST, NOW)).toEqual(asEntries);
    });

    it('refuses a service context of an issuer the keyring does not list (the dispatcher calls nobody)', () => {
      const fromDispatcher: ServiceContext = { ...service, service: 'webhook-dispatcher' };
      expect(verifyContext(mintContext(fromDispatcher, dispatcher.key, 60, NOW), TRUST, NOW)).toBeUndefined();
    });

    it('refuses a context signed with the old shared HMAC secret (INTERNAL_CONTEXT_SECRET)', () => {
      const secret = 'the-old-shared-internal-context-secret-0123456789';
      for (const ctx of [caller, service]) {
        const payload = b64json({ ctx, exp: NOW / 1000 + 60 });
        const hmac = createHmac('sha256', secret).update(payload).digest('base64url');
        expect(verifyContext(`${payload}.${hmac}`, TRUST, NOW)).toBeUndefined();
        expect(new ContextVerifier(TRUST).verify(`${payload}.${hmac}`, NOW)).toBeUndefined();
      }
    });
  });

  describe('expiry', () => {
    const token = mint(caller, 60, NOW);

    it.each([
      ['at minting', NOW, true],
      ['half-way through the ttl', NOW + 30_000, true],
      ['exactly at exp', NOW + 60_000, true],
      ['1 ms after exp', NOW + 60_001, false],
      ['an hour later', NOW + 3_600_000, false],
    ])('%s → valid: %s', (_when, now, valid) => {
      expect(verifyContext(token, TRUST, now)).toEqual(valid ? caller : undefined);
    });

    it('refuses a token minted with a ttl already in the past', () => {
      expect(verifyContext(mint(caller, -1, NOW), TRUST, NOW)).toBeUndefined();
      expect(verifyContext(mint(service, -1, NOW), TRUST, NOW)).toBeUndefined();
    });

    it('uses the current clock when no `now` is given', () => {
      expect(verifyContext(mintContext(caller, gateway.key), TRUST)).toEqual(caller);
      expect(verifyContext(mintContext(caller, gateway.key, 60, Date.now() - 120_000), TRUST)).toBeUndefined();
    });
  });

  describe('forgery', () => {
    const token = mint(caller, 60, NOW);
    const [payload, sig] = token.split('.') as [string, string];

    it('refuses a payload changed after signing (privilege escalation attempt)', () => {
      const forged = b64json({
        ctx: { ...caller, tenantId: 'tenant-2', permissions: ['ManageCompanyData'] },
        exp: NOW / 1000 + 60,
      });
      expect(verifyContext(`${forged}.${sig}`, TRUST, NOW)).toBeUndefined();
    });

    it('refuses a payload with an extended expiry but the old signature', () => {
      const forged = b64json({ ctx: caller, exp: NOW / 1000 + 3600 });
      expect(verifyContext(`${forged}.${sig}`, TRUST, NOW + 120_000)).toBeUndefined();
    });

    it('refuses a signature with one bit flipped', () => {
      const bytes = Buffer.from(sig, 'base64url');
      bytes[0] = bytes[0]! ^ 0x01;
      expect(verifyContext(`${payload}.${bytes.toString('base64url')}`, TRUST, NOW)).toBeUndefined();
    });

    it('refuses a truncated signature', () => {
      expect(verifyContext(`${payload}.${sig.slice(0, 20)}`, TRUST, NOW)).toBeUndefined();
    });

    it('refuses a token verified with other keys for the same issuers', () => {
      expect(verifyContext(token, OTHER_TRUST, NOW)).toBeUndefined();
      expect(verifyContext(mintContext(caller, dispatcher.key, 60, NOW), OTHER_TRUST, NOW)).toEqual(caller);
    });
  });

  describe('malformed tokens', () => {
    const token = mint(caller, 60, NOW);
    const [payload, sig] = token.split('.') as [string, string];

    it.each<[string, string | undefined]>([
      ['undefined', undefined],
      ['empty string', ''],
      ['no dot', payload],
      ['only a dot', '.'],
      ['empty payload', `.${sig}`],
      ['empty signature', `${payload}.`],
      ['an extra part', `${token}.extra`],
      ['a trailing dot', `${token}.`],
      ['three dots', `${payload}.${sig}.a.b`],
      ['non-base64 garbage', '!!!$$$.%%%^^^'],
      ['whitespace', '   '],
    ])('%s → undefined', (_name, value) => {
      expect(verifyContext(value, TRUST, NOW)).toBeUndefined();
    });

    it.each([
      ['payload that is not base64 JSON', 'not-json-at-all'],
      ['JSON that is not an object', b64json('just a string')],
      ['JSON null', b64json(null)],
      ['an envelope without a context', b64json({ exp: NOW / 1000 + 60 })],
      ['a context of an unknown kind', b64json({ ctx: { ...caller, kind: 'admin' }, exp: NOW / 1000 + 60 })],
      ['an envelope without exp', b64json({ ctx: caller })],
      ['an envelope with a string exp', b64json({ ctx: caller, exp: String(NOW / 1000 + 60) })],
      ['an envelope with a null exp', b64json({ ctx: caller, exp: null })],
      ['an expired, correctly signed envelope', b64json({ ctx: caller, exp: NOW / 1000 - 1 })],
    ])('refuses a correctly signed %s', (_name, body) => {
      expect(verifyContext(signedToken(body), TRUST, NOW)).toBeUndefined();
    });

    it('accepts a hand-built, correctly signed envelope (so the cases above fail for the stated reason)', () => {
      expect(verifyContext(signedToken(b64json({ ctx: caller, exp: NOW / 1000 + 1 })), TRUST, NOW)).toEqual(caller);
    });
  });
});

describe('ContextVerifier: verifyContext, remembered until expiry (0093)', () => {
  it('accepts a caller token like verifyContext, then answers it from memory with the same frozen context', () => {
    const verifier = new ContextVerifier(TRUST);
    const token = mint(caller, 60, NOW);
    const first = verifier.verify(token, NOW);
    expect(first).toEqual(caller);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first as CallerContext).permissions)).toBe(true);
    expect(verifier.verify(token, NOW + 30_000)).toBe(first);
  });

  it('refuses a remembered token once it has expired, exactly when verifyContext does', () => {
    const verifier = new ContextVerifier(TRUST);
    const token = mint(caller, 60, NOW);
    expect(verifier.verify(token, NOW)).toBeDefined();
    expect(verifier.verify(token, NOW + 60_000)).toEqual(verifyContext(token, TRUST, NOW + 60_000));
    expect(verifier.verify(token, NOW + 60_001)).toBeUndefined();
    expect(verifyContext(token, TRUST, NOW + 60_001)).toBeUndefined();
  });

  it('never remembers a forged, foreign or malformed token', () => {
    const verifier = new ContextVerifier(TRUST);
    const forged = mintContext(caller, entries.key, 60, NOW);
    for (let i = 0; i < 3; i++) expect(verifier.verify(forged, NOW)).toBeUndefined();
    const token = mint(caller, 60, NOW);
    const [payload] = token.split('.');
    expect(verifier.verify(`${payload}.${signature(payload!, dispatcher.key)}`, NOW)).toBeUndefined();
    expect(verifier.verify(undefined, NOW)).toBeUndefined();
    expect(verifier.verify('', NOW)).toBeUndefined();
    expect(verifier.verify(signedToken(b64json({ ctx: null, exp: NOW / 1000 + 60 })), NOW)).toBeUndefined();
    // Another trust's verifier refuses this trust's tokens, even ones this trust's verifier remembers.
    expect(new ContextVerifier(TRUST).verify(token, NOW)).toEqual(caller);
    expect(new ContextVerifier(OTHER_TRUST).verify(token, NOW)).toBeUndefined();
  });

  it('checks service contexts every time (minted per call, not worth remembering)', () => {
    const verifier = new ContextVerifier(TRUST);
    const token = mint(service, 60, NOW);
    const first = verifier.verify(token, NOW);
    expect(first).toEqual(service);
    expect(verifier.verify(token, NOW)).not.toBe(first);
  });

  it('stays bounded: past its size it forgets, and still answers correctly', () => {
    const verifier = new ContextVerifier(TRUST, 2);
    const tokens = ['a', 'b', 'c'].map((id) => mint({ ...caller, requestId: id }, 60, NOW));
    for (const t of tokens) expect(verifier.verify(t, NOW)).toMatchObject({ requestId: expect.any(String) });
    for (const t of tokens) expect(verifier.verify(t, NOW)).toEqual(verifyContext(t, TRUST, NOW));
  });
});
