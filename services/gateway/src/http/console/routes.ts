import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { openApiDocument } from '@travel/contracts';
import { AppError, apiRouter } from '@travel/platform';
import type { KeyCheck } from '../../app/key-check';
import { callerOfKey } from '../key-auth';
import { ConsoleSessions } from './cookie-auth';
import { foreignOriginReason } from './csrf';

/**
 * The console's own files (services/gateway/console): found from this module up to the gateway package's
 * root, which holds them beside src/ in the workspace and beside dist/ in a built image (docs/decisions/0147).
 */
export function consoleFilesDir(from = __dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'console');
  throw new Error(`no package.json above ${from}: the console's files cannot be found`);
}

/** Only the gateway's own files and API: no inline script, no frame, no other host (works offline). */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** What the page needs from the contract: the filters' choices, read from the one document. */
function pageConfig() {
  const schemas = (openApiDocument() as { components: { schemas: Record<string, { enum?: string[] }> } }).components
    .schemas;
  return { eventTypes: schemas.WebhookEventType!.enum ?? [], deliveryStatuses: schemas.DeliveryStatus!.enum ?? [] };
}

export interface ConsoleRouteOptions {
  sessions: ConsoleSessions;
  keys: KeyCheck;
  /** The key a client's failed sign-ins count under (the same as its failed API calls). */
  clientKey: (req: Request, res: Response) => string;
}

/**
 * The delivery console under /console/ (docs/decisions/0145–0147): the page and its files, and the session
 * (sign in with an API key, read the session's CSRF token, sign out). Everything else the page does goes
 * through /api/v1 with the session cookie.
 */
export function consoleRoutes({ sessions, keys, clientKey }: ConsoleRouteOptions): Router {
  const dir = consoleFilesDir();
  const page = readFileSync(join(dir, 'index.html'), 'utf8');
  const config = JSON.stringify(pageConfig());
  const r = apiRouter();

  r.get('/console', (_req, res) => res.redirect(301, '/console/'));
  r.get('/console/', (_req, res) => {
    res.set(PAGE_HEADERS).type('html').send(page);
  });
  r.get('/console/config.json', (_req, res) => {
    res.type('application/json').send(config);
  });
  r.use(
    '/console/assets',
    express.static(join(dir, 'assets'), {
      index: false,
      redirect: false,
      fallthrough: true,
      maxAge: '5m',
      setHeaders: (res) => res.setHeader('x-content-type-options', 'nosniff'),
    }),
  );

  // Readable with the cookie alone: it hands the page its token (no other origin can read the answer).
  r.get('/console/session', async (req, res) => {
    const session = await sessions.liveSessionOf(req);
    if (!session) throw new AppError('UNAUTHORIZED', 'Not signed in to the console.');
    res.set('cache-control', 'no-store').json({
      csrfToken: session.csrfToken,
      expiresAt: new Date(session.expiresAt).toISOString(),
    });
  });

  // Sign-in: JSON only (a cross-site form cannot send it without a preflight the gateway never answers), and
  // from a page of this origin, so no other site can sign a browser in under its own key.
  r.post(
    '/console/session',
    express.json({ limit: '2kb' }),
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const foreign = foreignOriginReason(req.headers);
        if (foreign) throw new AppError('FORBIDDEN', `Refused as a cross-site request: ${foreign}.`);
        const apiKey = (req.body as { apiKey?: unknown } | undefined)?.apiKey;
        if (!req.is('application/json') || typeof apiKey !== 'string' || !apiKey.trim())
          throw new AppError('VALIDATION_FAILED', 'Send {"apiKey": "<key>"} as application/json.', {
            apiKey: ['required'],
          });
        const caller = await callerOfKey(keys, apiKey.trim(), clientKey(req, res), res);
        const session = await sessions.signIn(req, res, apiKey.trim(), caller.apiKeyId);
        res
          .status(201)
          .set('cache-control', 'no-store')
          .json({ csrfToken: session.csrfToken, expiresAt: new Date(session.expiresAt).toISOString() });
      } catch (err) {
        next(err);
      }
    },
  );

  // Sign-out: the same checks as every request made with the cookie; it ends the session on the server,
  // so a copy of the cookie is dead too (0193). A cookie that no longer opens is only cleared.
  r.delete('/console/session', async (req, res) => {
    const session = sessions.sealedSessionOf(req);
    if (session) {
      sessions.checkToken(req, session);
      await sessions.signOut(req, res, session);
    } else sessions.clearCookie(req, res);
    res.status(204).end();
  });
  return r;
}
