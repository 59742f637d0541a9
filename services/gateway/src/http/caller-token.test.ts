import { generateSigningKey, keyringText, parseKeyring, privateKeyFromText, verifyContext } from '@travel/platform';
import type { ResolvedCaller } from '../infra/key-resolver';
import { CallerTokens, CONTEXT_REUSE_MS } from './caller-token';

const gateway = generateSigningKey();
/** A service that trusts the gateway's key. */
const TRUST = { audience: 'entries', keyring: parseKeyring(keyringText({ gateway: gateway.publicKey })) };
const lookup = (permissions: string[]): ResolvedCaller => ({
  tenantId: 't-1',
  market: 'CZ',
  baseCurrency: 'CZK',
  employeeId: 'e-1',
  apiKeyId: 'k-1',
  permissions,
});

describe('CallerTokens: one caller context per key lookup (0093)', () => {
  let now = Date.UTC(2026, 10, 23, 4, 0, 0);
  const tokens = new CallerTokens(privateKeyFromText(gateway.privateKey), () => now);

  it('mints a context signed with the gateway key that services accept, with the caller of the lookup and the minting request id', () => {
    const caller = lookup(['ManageEmployees']);
    const token = tokens.tokenFor(caller, 'req-1');
    expect(verifyContext(token, TRUST, now)).toEqual({ kind: 'caller', ...caller, requestId: 'req-1' });
  });

  it('reuses the token for the same lookup, and mints anew for a new lookup (new permissions at once)', () => {
    const first = lookup(['ManageEmployees']);
    const token = tokens.tokenFor(first, 'req-1');
    expect(tokens.tokenFor(first, 'req-2')).toBe(token);
    const refreshed = lookup([]); // the key cache expired and the key was looked up again
    const next = tokens.tokenFor(refreshed, 'req-3');
    expect(next).not.toBe(token);
    expect(verifyContext(next, TRUST, now)).toMatchObject({ permissions: [] });
  });

  it('re-mints a token after half its lifetime, so one in use is never near expiry', () => {
    const caller = lookup([]);
    const token = tokens.tokenFor(caller, 'req-1');
    now += CONTEXT_REUSE_MS - 1;
    expect(tokens.tokenFor(caller, 'req-2')).toBe(token);
    now += 1;
    const later = tokens.tokenFor(caller, 'req-3');
    expect(later).not.toBe(token);
    expect(verifyContext(later, TRUST, now + 59_000)).toBeDefined();
  });
});
