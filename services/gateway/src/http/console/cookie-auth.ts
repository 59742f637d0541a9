import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { AppError } from '@travel/platform';
import { changesState, cookieValue, CSRF_HEADER, foreignOriginReason, withoutCookie } from './csrf';
import { SESSION_COOKIE, sameToken, type ConsoleSession, type SessionSeal } from '../../domain/console-session';

const firstOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Whether the browser reached the gateway over HTTPS (itself, or the trusted proxy in front of it). */
export function overHttps(req: Request, trustedProxyHops: number): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = req.header('x-forwarded-proto');
  return trustedProxyHops > 0 && proto?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/**
 * The console's session cookie as an API key (docs/decisions/0145, 0146): the one place the gateway turns the
 * cookie into the key it stands for; from there the request takes the same path as a partner's call with
 * that key (the same key check, rate limit and rights at the service).
 */
export class ConsoleSessions {
  constructor(
    readonly seal: SessionSeal,
    private readonly trustedProxyHops: number,
  ) {}

  /** The session of the request's cookie, or null (none, altered, expired). */
  sessionOf(req: IncomingMessage): ConsoleSession | null {
    return this.seal.open(cookieValue(req.headers.cookie, SESSION_COOKIE));
  }

  /**
   * The API key of a request to /api/v1 that carries no key of its own but the console's cookie, or
   * undefined without one. A state-changing request must come from a page of this origin and carry the
   * session's CSRF token: 403 otherwise.
   */
  keyOf(req: IncomingMessage): string | undefined {
    const raw = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (raw === undefined) return undefined;
    const session = this.seal.open(raw);
    if (!session) throw new AppError('UNAUTHORIZED', 'The console session has ended; sign in again.');
    if (changesState(req.method ?? 'GET')) {
      const foreign = foreignOriginReason(req.headers);
      if (foreign) throw new AppError('FORBIDDEN', `Refused as a cross-site request: ${foreign}.`);
      if (!sameToken(firstOf(req.headers[CSRF_HEADER]), session.csrfToken))
        throw new AppError('FORBIDDEN', `A change made with the console session needs its ${CSRF_HEADER} header.`);
    }
    return session.apiKey;
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
