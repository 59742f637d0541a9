import { createHmac } from 'node:crypto';
import {
  ContextVerifier,
  mintContext,
  verifyContext,
  type CallerContext,
  type InternalContext,
  type ServiceContext,
} from './context';

const SECRET = 'context-secret-for-tests';
const OTHER_SECRET = 'a-different-secret';
const NOW = Date.UTC(2026, 9, 7, 12, 0, 0); // a fixed instant, whole seconds

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

const service: ServiceContext = { kind: 'service', service: 'payouts', requestId: 'req-2' };

const b64json = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const sign = (payload: string, secret = SECRET): string =>
  createHmac('sha256', secret).update(payload).digest('base64url');
/** A correctly signed token around an arbitrary payload, to reach the checks after the signature. */
const signedToken = (payload: string): string => `${payload}.${sign(payload)}`;
const decodePayload = (token: string): unknown =>
  JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));

describe('mintContext / verifyContext', () => {
  describe('round trip', () => {
    it.each<[string, InternalContext]>([
      ['caller context', caller],
      ['service context', service],
    ])('returns the %s unchanged', (_name, ctx) => {
      const token = mintContext(ctx, SECRET, 60, NOW);
      expect(verifyContext(token, SECRET, NOW)).toEqual(ctx);
    });

    it('produces a compact token: base64url payload "." base64url HMAC-SHA256', () => {
      const token = mintContext(caller, SECRET, 60, NOW);
      expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      const [payload, signature] = token.split('.');
      expect(signature).toBe(sign(payload!));
    });

    it('puts the expiry (unix seconds) in the payload: now + ttl', () => {
      expect(decodePayload(mintContext(service, SECRET, 60, NOW))).toEqual({ ctx: service, exp: NOW / 1000 + 60 });
      expect(decodePayload(mintContext(service, SECRET, 5, NOW + 999))).toEqual({ ctx: service, exp: NOW / 1000 + 5 });
    });

    it('defaults the time-to-live to 60 seconds', () => {
      expect(decodePayload(mintContext(service, SECRET, undefined, NOW))).toMatchObject({ exp: NOW / 1000 + 60 });
    });
  });

  describe('expiry', () => {
    const token = mintContext(caller, SECRET, 60, NOW);

    it.each([
      ['at minting', NOW, true],
      ['half-way through the ttl', NOW + 30_000, true],
      ['exactly at exp', NOW + 60_000, true],
      ['1 ms after exp', NOW + 60_001, false],
      ['an hour later', NOW + 3_600_000, false],
    ])('%s → valid: %s', (_when, now, valid) => {
      expect(verifyContext(token, SECRET, now)).toEqual(valid ? caller : undefined);
    });

    it('refuses a token minted with a ttl already in the past', () => {
      expect(verifyContext(mintContext(caller, SECRET, -1, NOW), SECRET, NOW)).toBeUndefined();
    });

    it('uses the current clock when no `now` is given', () => {
      expect(verifyContext(mintContext(caller, SECRET), SECRET)).toEqual(caller);
      expect(verifyContext(mintContext(caller, SECRET, 60, Date.now() - 120_000), SECRET)).toBeUndefined();
    });
  });

  describe('forgery', () => {
    const token = mintContext(caller, SECRET, 60, NOW);
    const [payload, signature] = token.split('.') as [string, string];

    it('refuses a payload changed after signing (privilege escalation attempt)', () => {
      const forged = b64json({
        ctx: { ...caller, tenantId: 'tenant-2', permissions: ['ManageCompanyData'] },
        exp: NOW / 1000 + 60,
      });
      expect(verifyContext(`${forged}.${signature}`, SECRET, NOW)).toBeUndefined();
    });

    it('refuses a payload with an extended expiry but the old signature', () => {
      const forged = b64json({ ctx: caller, exp: NOW / 1000 + 3600 });
      expect(verifyContext(`${forged}.${signature}`, SECRET, NOW + 120_000)).toBeUndefined();
    });

    it('refuses a signature with one bit flipped', () => {
      const bytes = Buffer.from(signature, 'base64url');
      bytes[0] = bytes[0]! ^ 0x01;
      expect(verifyContext(`${payload}.${bytes.toString('base64url')}`, SECRET, NOW)).toBeUndefined();
    });

    it('refuses a truncated signature', () => {
      expect(verifyContext(`${payload}.${signature.slice(0, 20)}`, SECRET, NOW)).toBeUndefined();
    });

    it('refuses a token signed with another secret', () => {
      const foreign = mintContext(caller, OTHER_SECRET, 60, NOW);
      expect(verifyContext(foreign, SECRET, NOW)).toBeUndefined();
      expect(verifyContext(foreign, OTHER_SECRET, NOW)).toEqual(caller);
    });

    it('refuses a token verified with another secret', () => {
      expect(verifyContext(token, OTHER_SECRET, NOW)).toBeUndefined();
    });
  });

  describe('malformed tokens', () => {
    const token = mintContext(caller, SECRET, 60, NOW);
    const [payload, signature] = token.split('.') as [string, string];

    it.each<[string, string | undefined]>([
      ['undefined', undefined],
      ['empty string', ''],
      ['no dot', payload],
      ['only a dot', '.'],
      ['empty payload', `.${signature}`],
      ['empty signature', `${payload}.`],
      ['an extra part', `${token}.extra`],
      ['a trailing dot', `${token}.`],
      ['three dots', `${payload}.${signature}.a.b`],
      ['non-base64 garbage', '!!!$$$.%%%^^^'],
      ['whitespace', '   '],
    ])('%s → undefined', (_name, value) => {
      expect(verifyContext(value, SECRET, NOW)).toBeUndefined();
    });

    it.each([
      ['payload that is not base64 JSON', 'not-json-at-all'],
      ['JSON that is not an object', b64json('just a string')],
      ['JSON null', b64json(null)],
      ['an envelope without exp', b64json({ ctx: caller })],
      ['an envelope with a string exp', b64json({ ctx: caller, exp: String(NOW / 1000 + 60) })],
      ['an envelope with a null exp', b64json({ ctx: caller, exp: null })],
      ['an expired, correctly signed envelope', b64json({ ctx: caller, exp: NOW / 1000 - 1 })],
    ])('refuses a correctly signed %s', (_name, body) => {
      expect(verifyContext(signedToken(body), SECRET, NOW)).toBeUndefined();
    });

    it('accepts a hand-built, correctly signed envelope (so the cases above fail for the stated reason)', () => {
      expect(verifyContext(signedToken(b64json({ ctx: service, exp: NOW / 1000 + 1 })), SECRET, NOW)).toEqual(service);
    });
  });
});

describe('ContextVerifier: verifyContext, remembered until expiry (0093)', () => {
  it('accepts a caller token like verifyContext, then answers it from memory with the same frozen context', () => {
    const verifier = new ContextVerifier(SECRET);
    const token = mintContext(caller, SECRET, 60, NOW);
    const first = verifier.verify(token, NOW);
    expect(first).toEqual(caller);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first as CallerContext).permissions)).toBe(true);
    expect(verifier.verify(token, NOW + 30_000)).toBe(first);
  });

  it('refuses a remembered token once it has expired, exactly when verifyContext does', () => {
    const verifier = new ContextVerifier(SECRET);
    const token = mintContext(caller, SECRET, 60, NOW);
    expect(verifier.verify(token, NOW)).toBeDefined();
    expect(verifier.verify(token, NOW + 60_000)).toEqual(verifyContext(token, SECRET, NOW + 60_000));
    expect(verifier.verify(token, NOW + 60_001)).toBeUndefined();
    expect(verifyContext(token, SECRET, NOW + 60_001)).toBeUndefined();
  });

  it('never remembers a forged, foreign or malformed token', () => {
    const verifier = new ContextVerifier(SECRET);
    const forged = mintContext(caller, OTHER_SECRET, 60, NOW);
    for (let i = 0; i < 3; i++) expect(verifier.verify(forged, NOW)).toBeUndefined();
    const token = mintContext(caller, SECRET, 60, NOW);
    const [payload] = token.split('.');
    expect(verifier.verify(`${payload}.${sign(payload!, OTHER_SECRET)}`, NOW)).toBeUndefined();
    expect(verifier.verify(undefined, NOW)).toBeUndefined();
    expect(verifier.verify('', NOW)).toBeUndefined();
    expect(verifier.verify(signedToken(b64json({ ctx: null, exp: NOW / 1000 + 60 })), NOW)).toBeUndefined();
    // Another secret's verifier refuses this secret's tokens, even ones this secret's verifier remembers.
    expect(new ContextVerifier(SECRET).verify(token, NOW)).toEqual(caller);
    expect(new ContextVerifier(OTHER_SECRET).verify(token, NOW)).toBeUndefined();
  });

  it('checks service contexts every time (minted per call, not worth remembering)', () => {
    const verifier = new ContextVerifier(SECRET);
    const token = mintContext(service, SECRET, 60, NOW);
    const first = verifier.verify(token, NOW);
    expect(first).toEqual(service);
    expect(verifier.verify(token, NOW)).not.toBe(first);
  });

  it('stays bounded: past its size it forgets, and still answers correctly', () => {
    const verifier = new ContextVerifier(SECRET, 2);
    const tokens = ['a', 'b', 'c'].map((id) => mintContext({ ...caller, requestId: id }, SECRET, 60, NOW));
    for (const t of tokens) expect(verifier.verify(t, NOW)).toMatchObject({ requestId: expect.any(String) });
    for (const t of tokens) expect(verifier.verify(t, NOW)).toEqual(verifyContext(t, SECRET, NOW));
  });
});
