import { randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
// Pure crypto, no I/O: the module itself, as other domains import pure platform rules.
import { SealedBox } from '@travel/platform/src/sealed-box';

/** The console's session cookie (docs/decisions/0145). */
export const SESSION_COOKIE = 'te_console';
/** How long a sign-in lasts; then the console asks for the key again. */
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;

/** What a session carries: its id, the API key it stands for, its CSRF token and when it ends. */
export interface ConsoleSession {
  /** 128 random bits: the name the session is recorded under, so a sign-out ends it everywhere (0193). */
  sessionId: string;
  apiKey: string;
  csrfToken: string;
  expiresAt: number;
}

// v2: sessions carry an id recorded server-side (0193); a v1 cookie, which has none, no longer opens.
const CONTEXT = 'travel-expense console session v2';

/**
 * Seals sessions into the cookie value and opens them again: AES-256-GCM under a key derived (HKDF) from the
 * gateway's signing key, so every replica opens every other replica's cookies with no shared store and no new
 * secret to configure, and neither the browser nor anyone who copies the cookie can read the API key or forge
 * a session. A rotated signing key ends every session (docs/decisions/0145). A sealed session is only a
 * claim: whether it is still live (not signed out) is the session store's answer (docs/decisions/0193).
 */
export class SessionSeal {
  private readonly box: SealedBox;

  constructor(
    signingKey: KeyObject,
    private readonly lifetimeMs = SESSION_LIFETIME_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.box = new SealedBox(signingKey, CONTEXT);
  }

  /** A new session for a key that was just checked. */
  issue(apiKey: string): { session: ConsoleSession; cookieValue: string } {
    const session = {
      sessionId: randomBytes(16).toString('base64url'),
      apiKey,
      csrfToken: randomBytes(32).toString('base64url'),
      expiresAt: this.now() + this.lifetimeMs,
    };
    return { session, cookieValue: this.seal(session) };
  }

  /** The session in a cookie value, or null when it was not sealed here, was altered, or has expired. */
  open(cookieValue: string | undefined): ConsoleSession | null {
    if (!cookieValue || cookieValue.length > 1024) return null;
    const plain = this.box.open(Buffer.from(cookieValue, 'base64url'));
    if (!plain) return null;
    try {
      const session = JSON.parse(plain.toString('utf8')) as ConsoleSession;
      return typeof session.sessionId === 'string' && session.expiresAt > this.now() ? session : null;
    } catch {
      return null;
    }
  }

  private seal(session: ConsoleSession): string {
    return this.box.seal(Buffer.from(JSON.stringify(session), 'utf8')).toString('base64url');
  }
}

/** Constant-time comparison of a presented CSRF token with the session's. */
export function sameToken(presented: string | undefined, expected: string): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
