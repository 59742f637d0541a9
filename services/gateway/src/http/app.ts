import type { KeyObject } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { changelogDocument, deprecatedResponses, openApiDocument, type DeprecatedResponses } from '@travel/contracts';
import {
  AppError,
  canonicalPath,
  canonicalTarget,
  ContractRoutes,
  createBaseApp,
  finishApp,
  type Logger,
  type Metrics,
} from '@travel/platform';
import { ConsoleSessionLiveness, type ConsoleSessionRecords } from '../app/console-session-liveness';
import { KeyCheck } from '../app/key-check';
import { SessionSeal } from '../domain/console-session';
import { RateLimiter } from '../domain/rate-limit';
import { isApiPath, isOperationalPath, type Upstream } from '../domain/routes';
import { consoleSessionRecords } from '../infra/console-session-records';
import type { KeyResolver } from '../infra/key-resolver';
import { apiHop, clientKeyOf, refuseLimitedAddress } from './api-hop';
import { apiReferenceRoutes } from './api-reference';
import { CallerTokens } from './caller-token';
import { ConsoleSessions } from './console/cookie-auth';
import { consoleRoutes } from './console/routes';

export interface GatewayOptions {
  logger: Logger;
  metrics: Metrics;
  resolver: KeyResolver;
  upstreams: Record<Upstream, string>;
  /** The gateway's private key, which signs the caller contexts (docs/decisions/0100). */
  signingKey: KeyObject;
  limiter: RateLimiter;
  /** Failed authentications per client address (docs/decisions/0115). */
  authFailures: RateLimiter;
  /** Proxies in front of the gateway whose X-Forwarded-For entries are believed (0: the socket's peer). */
  trustedProxyHops: number;
  /** Paths and methods of the contract (default: contracts/openapi.yaml). */
  contract?: ContractRoutes;
  /** Answers that carry deprecated fields (default: from contracts/openapi.yaml and changelog.yaml). */
  deprecations?: DeprecatedResponses;
  /** The console's sessions (default: sealed under the signing key, 8 hours; docs/decisions/0145). */
  consoleSeal?: SessionSeal;
  /** Where the console's sessions are recorded (default: the employees service; docs/decisions/0193). */
  consoleRecords?: ConsoleSessionRecords;
  /** How long a replica trusts a live session before asking again (API_KEY_CACHE_MS; default 5 s). */
  consoleSessionCacheMs?: number;
}

/**
 * Every /api/v1 request from an address whose failed authentications spent its bucket is refused first,
 * before request ids, routing and the per-request log line (0115): here for targets express sees (one the
 * normaliser refuses), in the API hop for the others.
 */
function refuseLimitedAddresses(keys: KeyCheck, trustedProxyHops: number, metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    if (!req.url.startsWith('/api/v1/')) return next();
    const wait = keys.limitedFor(clientKeyOf(req, trustedProxyHops));
    if (wait === 0) return next();
    refuseLimitedAddress(res, req.method, wait, metrics);
  };
}

/**
 * The gateway: /api/v1 through the lean hop (api-hop.ts, docs/decisions/0178), everything else (the API
 * reference, the console, refusals of paths that are not the API's) through express.
 */
export function createGatewayApp(options: GatewayOptions): RequestListener {
  const { upstreams, signingKey, limiter, trustedProxyHops } = options;
  const keys = new KeyCheck(options.resolver, options.authFailures, options.metrics);
  const contract = options.contract ?? new ContractRoutes(openApiDocument());
  // Read once: which answers carry deprecated fields, dated by the changelog (decision 0134).
  const deprecations = options.deprecations ?? deprecatedResponses(openApiDocument(), changelogDocument());
  const tokens = new CallerTokens(signingKey);
  const app = createBaseApp({
    logger: options.logger,
    metrics: options.metrics,
    first: refuseLimitedAddresses(keys, trustedProxyHops, options.metrics),
  });
  // One reading of the path, before anything else: what follows reads req.canonical, never the raw URL
  // (decision 0097).
  app.use(canonicalPath);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    // Served on each process's own ops port, and /internal only between services: never through here.
    if (isOperationalPath(req.canonical!.path)) return next(new AppError('NOT_FOUND', 'Not served by the gateway.'));
    next();
  });
  app.use(apiReferenceRoutes());
  const liveness = new ConsoleSessionLiveness(
    options.consoleRecords ?? consoleSessionRecords(upstreams.employees, signingKey),
    options.consoleSessionCacheMs,
  );
  const sessions = new ConsoleSessions(options.consoleSeal ?? new SessionSeal(signingKey), liveness, trustedProxyHops);
  app.use(consoleRoutes({ sessions, keys, clientKey: (req) => clientKeyOf(req, trustedProxyHops) }));

  finishApp(app, options.logger);
  const hop = apiHop({
    logger: options.logger,
    metrics: options.metrics,
    keys,
    sessions,
    limiter,
    tokens,
    contract,
    deprecations,
    upstreams,
    trustedProxyHops,
  });
  return (req, res) => {
    const target = canonicalTarget(req.url!);
    if (target.ok && isApiPath(target.path)) void hop(req, res, target.path, target.query);
    else app(req as Request, res as Response);
  };
}
