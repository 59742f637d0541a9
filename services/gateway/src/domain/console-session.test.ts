import { generateSigningKey, privateKeyFromText } from '@travel/platform';
import { SESSION_LIFETIME_MS, SessionSeal, sameToken } from './console-session';

const KEY = 'tek_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const signingKey = () => privateKeyFromText(generateSigningKey().privateKey);

describe('SessionSeal', () => {
  it('opens the session it issued: the key, a CSRF token and the end of the session', () => {
    const seal = new SessionSeal(signingKey(), SESSION_LIFETIME_MS, () => 1_000);
    const { session, cookieValue } = seal.issue(KEY);
    expect(session).toEqual({
      sessionId: expect.stringMatching(/^[\w-]{22}$/),
      apiKey: KEY,
      csrfToken: expect.stringMatching(/^[\w-]{43}$/),
      expiresAt: 1_000 + SESSION_LIFETIME_MS,
    });
    expect(seal.open(cookieValue)).toEqual(session);
  });

  it('sessions last 8 hours', () => {
    expect(SESSION_LIFETIME_MS).toBe(8 * 60 * 60 * 1000);
  });

  it('the cookie never shows the key, in clear or in base64', () => {
    const { cookieValue } = new SessionSeal(signingKey()).issue(KEY);
    const decoded = Buffer.from(cookieValue, 'base64url').toString('latin1');
    for (const text of [cookieValue, decoded]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(KEY.slice(4, 20));
    }
  });

  it('a session has expired at its end, not a millisecond before', () => {
    let now = 0;
    const seal = new SessionSeal(signingKey(), 60_000, () => now);
    const { cookieValue } = seal.issue(KEY);
    now = 59_999;
    expect(seal.open(cookieValue)).not.toBeNull();
    now = 60_000;
    expect(seal.open(cookieValue)).toBeNull();
  });

  it('two sessions of one key have different tokens and cookies', () => {
    const seal = new SessionSeal(signingKey());
    const [a, b] = [seal.issue(KEY), seal.issue(KEY)];
    expect(a.cookieValue).not.toBe(b.cookieValue);
    expect(a.session.csrfToken).not.toBe(b.session.csrfToken);
    expect(a.session.sessionId).not.toBe(b.session.sessionId);
  });

  it('every replica with the same signing key opens it; another signing key does not', () => {
    const key = generateSigningKey().privateKey;
    const { cookieValue } = new SessionSeal(privateKeyFromText(key)).issue(KEY);
    expect(new SessionSeal(privateKeyFromText(key)).open(cookieValue)?.apiKey).toBe(KEY);
    expect(new SessionSeal(signingKey()).open(cookieValue)).toBeNull();
  });

  it('an altered, cut or foreign cookie is no session', () => {
    const seal = new SessionSeal(signingKey());
    const { cookieValue } = seal.issue(KEY);
    const raw = Buffer.from(cookieValue, 'base64url');
    for (const i of [0, 13, raw.length - 1]) {
      const altered = Buffer.from(raw);
      altered[i] = altered[i]! ^ 1;
      expect(seal.open(altered.toString('base64url'))).toBeNull();
    }
    for (const value of [undefined, '', 'abc', cookieValue.slice(0, 30), cookieValue.slice(0, -2), 'x'.repeat(2000)])
      expect(seal.open(value)).toBeNull();
  });
});

describe('sameToken', () => {
  it('matches only the same token', () => {
    expect(sameToken('abc', 'abc')).toBe(true);
    expect(sameToken('abd', 'abc')).toBe(false);
    expect(sameToken('ab', 'abc')).toBe(false);
    expect(sameToken(undefined, 'abc')).toBe(false);
    expect(sameToken('', 'abc')).toBe(false);
  });
});
