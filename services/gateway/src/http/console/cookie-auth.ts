import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { AppError } from '@travel/platform';
import { cookieValue, CSRF_HEADER, foreignOriginReason, withoutCookie } from './csrf';
import { consoleMayReach } from './reach';
import type { ConsoleSessionLiveness } from '../../app/console-session-liveness';
import { SESSION_COOKIE, sameToken, type ConsoleSession, type SessionSeal } from '../../domain/console-session';

const ENDED = 'The console session has ended; sign in again.';

const firstOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Whether the browser reached the gateway over HTTPS (itself, or the trusted proxy in front of it). */
export function overHttps(req: Request, trustedProxyHops: number): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = req.header('x-forwarded-proto');
  return trustedProxyHops > 0 && proto?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/**
 * The console's session cookie as an API key (docs/decisions/0145, 0146, 0193): the one place the gateway
 * turns the cookie into the key it stands for; from there the request takes the same path as a partner's
 * call with that key (the same key check, rate limit and rights at the service). The cookie reaches only
 * the console's own operations (`CONSOLE_REACH`), every request with it carries the session's CSRF token,
 * and a session is live only while the session store says so (a sign-out ends it on every replica).
 */
export class ConsoleSessions {
  constructor(
    readonly seal: SessionSeal,
    private readonly liveness: ConsoleSessionLiveness,
    private readonly trustedProxyHops: number,
  ) {}

  /** The sealed session of the request's cookie, live or not, or null (none, altered, expired). */
  sealedSessionOf(req: IncomingMessage): ConsoleSession | null {
    return this.seal.open(cookieValue(req.headers.cookie, SESSION_COOKIE));
  }

  /** The session of the request's cookie while it is live (not signed out), or null. */
  async liveSessionOf(req: IncomingMessage): Promise<ConsoleSession | null> {
    const session = this.sealedSessionOf(req);
    return session && (await this.liveness.isLive(session.sessionId, session.expiresAt)) ? session : null;
  }

  /**
   * 403 unless the request comes from a page of this origin and carries the session's CSRF token: every
   * request made with the cookie, reads included (a read can be steered too, 0193), and the sign-out.
   */
  checkToken(req: IncomingMessage, session: ConsoleSession): void {
    const foreign = foreignOriginReason(req.headers);
    if (foreign) throw new AppError('FORBIDDEN', `Refused as a cross-site request: ${foreign}.`);
    if (!sameToken(firstOf(req.headers[CSRF_HEADER]), session.csrfToken))
      throw new AppError('FORBIDDEN', `A request made with the console session needs its ${CSRF_HEADER} header.`);
  }

  /**
   * The API key of a request to /api/v1 (`path`: its canonical path) that carries no key of its own but
   * the console's cookie, or undefined without one. Outside the console's operations, from another
   * origin or without the token: 403; an ended session: 401. All before the key is looked up.
   */
  async keyOf(req: IncomingMessage, path: string): Promise<string | undefined> {
    const raw = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (raw === undefined) return undefined;
    const session = this.seal.open(raw);
    if (!session) throw new AppError('UNAUTHORIZED', ENDED);
    if (!consoleMayReach(req.method ?? 'GET', path))
      throw new AppError(
        'FORBIDDEN',
        `The console session reaches only the console's own operations, not ${req.method} ${path}; call it with an API key.`,
      );
    this.checkToken(req, session);
    if (!(await this.liveness.isLive(session.sessionId, session.expiresAt))) throw new AppError('UNAUTHORIZED', ENDED);
    return session.apiKey;
  }

  /** Starts a session for a key just checked: recorded in the session store, then its cookie set. */
  async signIn(req: Request, res: Response, apiKey: string, apiKeyId: string): Promise<ConsoleSession> {
    const { session, cookieValue: sealed } = this.seal.issue(apiKey);
    await this.liveness.record(session.sessionId, apiKeyId, session.expiresAt);
    this.setCookie(req, res, sealed, session.expiresAt);
    return session;
  }

  /** Ends the session in the session store (every replica: within the liveness window) and in this browser. */
  async signOut(req: Request, res: Response, session: ConsoleSession): Promise<void> {
    await this.liveness.end(session.sessionId, session.expiresAt);
    this.clearCookie(req, res);
  }

  /** The session cookie and the CSRF token never go further than the gateway. */
  strip(req: IncomingMessage): void {
    const rest = withoutCookie(req.headers.cookie, SESSION_COOKIE);
    if (rest === undefined) delete req.headers.cookie;
    else req.headers.cookie = rest;
    delete req.headers[CSRF_HEADER];
  }

  /** Sets the session cookie: httpOnly, SameSite=Strict, Secure over HTTPS, for the whole site (/api/v1 too). */
  setCookie(req: Request, res: Response, value: string, expiresAt: number): void {
    res.cookie(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      secure: overHttps(req, this.trustedProxyHops),
      path: '/',
      expires: new Date(expiresAt),
      encode: String,
    });
  }

  clearCookie(req: Request, res: Response): void {
    res.clearCookie(SESSION_COOKIE, {
      httpOnly: true,
      sameSite: 'strict',
      secure: overHttps(req, this.trustedProxyHops),
      path: '/',
    });
  }
}
