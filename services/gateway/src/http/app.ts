import type { Express, NextFunction, Request, Response } from 'express';
import { openApiDocument } from '@travel/contracts';
import {
  AppError,
  ContractRoutes,
  createBaseApp,
  finishApp,
  methodNotAllowed,
  type Logger,
  type Metrics,
} from '@travel/platform';
import { KeyCheck } from '../app/key-check';
import { clientAddress, limitKeyOf } from '../domain/client-address';
import { RateLimiter } from '../domain/rate-limit';
import { ownerOf, type Upstream } from '../domain/routes';
import type { KeyResolver } from '../infra/key-resolver';
import { apiReferenceRoutes } from './api-reference';
import { CallerTokens } from './caller-token';
import { forward } from './proxy';

export interface GatewayOptions {
  logger: Logger;
  metrics: Metrics;
  resolver: KeyResolver;
  upstreams: Record<Upstream, string>;
  contextSecret: string;
  limiter: RateLimiter;
  /** Failed authentications per client address (docs/decisions/0115). */
  authFailures: RateLimiter;
  /** Proxies in front of the gateway whose X-Forwarded-For entries are believed (0: the socket's peer). */
  trustedProxyHops: number;
  /** Paths and methods of the contract (default: contracts/openapi.yaml). */
  contract?: ContractRoutes;
}

/** `Authorization: Bearer <key>` or `X-Api-Key: <key>`. */
export function presentedKey(req: Request): string | undefined {
  const auth = req.header('authorization');
  if (auth) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return match?.[1];
  }
  return req.header('x-api-key')?.trim() || undefined;
}

export function createGatewayApp(options: GatewayOptions): Express {
  const { upstreams, contextSecret, limiter, trustedProxyHops } = options;
  const keys = new KeyCheck(options.resolver, options.authFailures, options.metrics);
  const contract = options.contract ?? new ContractRoutes(openApiDocument());
  const tokens = new CallerTokens(contextSecret);
  const app = createBaseApp({
    logger: options.logger,
    metrics: options.metrics,
    readiness: {
      employees: async () => {
        const res = await fetch(`${upstreams.employees}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (!res.ok) throw new Error(`answered ${res.status}`);
      },
    },
  });
  app.use(apiReferenceRoutes());

  app.use('/api/v1', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const key = presentedKey(req);
      if (!key)
        throw new AppError('UNAUTHORIZED', 'Send the API key as "Authorization: Bearer <key>" or "X-Api-Key: <key>".');
      const client = limitKeyOf(
        clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxyHops),
      );
      let checked;
      try {
        checked = await keys.check(key, client);
      } catch {
        throw new AppError('SERVICE_UNAVAILABLE', 'The API key could not be checked; try again.');
      }
      if (checked.outcome === 'malformed')
        throw new AppError('UNAUTHORIZED', 'This is not an API key: keys are "tek_" and 43 characters of base64url.');
      if (checked.outcome === 'limited') {
        res.setHeader('retry-after', String(checked.retryAfterSeconds));
        throw new AppError(
          'RATE_LIMITED',
          `Too many unknown API keys from this address; retry in ${checked.retryAfterSeconds} s.`,
        );
      }
      if (checked.outcome === 'unknown') throw new AppError('UNAUTHORIZED', 'The API key is unknown or revoked.');
      const { caller } = checked;
      const wait = limiter.take(caller.apiKeyId);
      if (wait > 0) {
        res.setHeader('retry-after', String(wait));
        throw new AppError('RATE_LIMITED', `Rate limit reached for this API key; retry in ${wait} s.`);
      }
      const owner = ownerOf(req.originalUrl);
      if (!owner) throw new AppError('NOT_FOUND', `No resource at ${req.path}.`);
      // A path the contract knows, with a method it does not have: 405 here, for every context, built
      // or not, from the one list of paths and methods (docs/decisions/0037).
      const known = contract.match(req.baseUrl + req.path);
      if (known && !known.allowed.includes(req.method)) {
        res.setHeader('allow', known.allowed.join(', '));
        throw methodNotAllowed(req.method, known.template, known.allowed);
      }
      forward(req, res, next, upstreams[owner], tokens.tokenFor(caller, req.requestId));
    } catch (err) {
      next(err);
    }
  });
  return finishApp(app, options.logger);
}
