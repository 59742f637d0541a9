import { randomUUID, type KeyObject } from 'node:crypto';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import {
  changelogDocument,
  deprecatedResponses,
  openApiDocument,
  operationKey,
  type DeprecatedResponses,
} from '@travel/contracts';
import {
  AppError,
  canonicalPath,
  ContractRoutes,
  createBaseApp,
  finishApp,
  methodNotAllowed,
  problem,
  REQUEST_ID_HEADER,
  refusedPath,
  TRAILING_SLASH,
  type Logger,
  type Metrics,
} from '@travel/platform';
import { KeyCheck } from '../app/key-check';
import { ConsoleSessions } from './console/cookie-auth';
import { consoleRoutes } from './console/routes';
import { SessionSeal } from '../domain/console-session';
import { clientAddress, limitKeyOf } from '../domain/client-address';
import { RateLimiter } from '../domain/rate-limit';
import { isApiPath, isOperationalPath, ownerOf, type Upstream } from '../domain/routes';
import type { KeyResolver } from '../infra/key-resolver';
import { apiReferenceRoutes } from './api-reference';
import { CallerTokens } from './caller-token';
import { callerOfKey } from './key-auth';
import { forward } from './proxy';

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

/** The key a client's failures count under (its address, or its /64), read once per request. */
function clientKeyOf(req: Request, res: Response, trustedProxyHops: number): string {
  return (res.locals.clientKey ??= limitKeyOf(
    clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxyHops),
  ));
}

/**
 * Every /api/v1 request from an address whose failed authentications spent its bucket is refused first,
 * before request ids, routing and the per-request log line: 429 with Retry-After in the documented body,
 * counted in the RED metrics and in `gateway_api_key_checks_total{outcome="limited"}`. A flood of guesses
 * then costs a map lookup and one write per request, so valid callers queue behind less of it (0115).
 */
function refuseLimitedAddresses(keys: KeyCheck, trustedProxyHops: number, metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    if (!req.url.startsWith('/api/v1/')) return next();
    const client = clientKeyOf(req, res, trustedProxyHops);
    const wait = keys.limitedFor(client);
    if (wait === 0) return next();
    const traceId = randomUUID();
    const body = JSON.stringify(
      problem('RATE_LIMITED', traceId, `Too many unknown API keys from this address; retry in ${wait} s.`),
    );
    res.writeHead(429, {
      'content-type': 'application/problem+json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'retry-after': String(wait),
      [REQUEST_ID_HEADER]: traceId,
    });
    res.end(body);
    const labels = { method: req.method, route: '/api/v1', status: '429' };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, 0);
  };
}

/** RFC 9745: `Deprecation: @<unix seconds>` and the changelog entry as `Link: …; rel="deprecation"`. */
const deprecationHeaders = (h: { deprecation: string; link: string } | undefined) =>
  h && { deprecation: h.deprecation, link: h.link };

export function createGatewayApp(options: GatewayOptions): Express {
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
  // One reading of the path, before anything else: the owner, the contract match and the forwarded
  // target below all use req.canonical, never the raw URL (decision 0097).
  app.use(canonicalPath);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    // Served on each process's own ops port, and /internal only between services: never through here.
    if (isOperationalPath(req.canonical!.path)) return next(new AppError('NOT_FOUND', 'Not served by the gateway.'));
    next();
  });
  app.use(apiReferenceRoutes());
  const sessions = new ConsoleSessions(options.consoleSeal ?? new SessionSeal(signingKey), trustedProxyHops);
  app.use(consoleRoutes({ sessions, keys, clientKey: (req, res) => clientKeyOf(req, res, trustedProxyHops) }));

  app.use(async (req: Request, res: Response, next: NextFunction) => {
    const { path, query } = req.canonical!;
    if (!isApiPath(path)) return next();
    try {
      if (path.endsWith('/')) throw refusedPath(TRAILING_SLASH);
      // A key in the headers wins; otherwise the console's session cookie stands for its key (0145, 0146).
      const key = presentedKey(req) ?? sessions.keyOf(req);
      sessions.strip(req);
      if (!key)
        throw new AppError('UNAUTHORIZED', 'Send the API key as "Authorization: Bearer <key>" or "X-Api-Key: <key>".');
      const client = clientKeyOf(req, res, trustedProxyHops);
      const caller = await callerOfKey(keys, key, client, res);
      const wait = limiter.take(caller.apiKeyId);
      if (wait > 0) {
        res.setHeader('retry-after', String(wait));
        throw new AppError('RATE_LIMITED', `Rate limit reached for this API key; retry in ${wait} s.`);
      }
      const owner = ownerOf(path);
      if (!owner) throw new AppError('NOT_FOUND', `No resource at ${path}.`);
      // A path the contract knows, with a method it does not have: 405 here, for every context, built
      // or not, from the one list of paths and methods (docs/decisions/0037).
      const known = contract.match(path);
      if (known && !known.allowed.includes(req.method)) {
        res.setHeader('allow', known.allowed.join(', '));
        throw methodNotAllowed(req.method, known.template, known.allowed);
      }
      res.locals.route = '/api/v1';
      const deprecated = known && deprecations.get(operationKey(req.method, known.template));
      forward(
        req,
        res,
        next,
        upstreams[owner],
        path + query,
        tokens.tokenFor(caller, req.requestId),
        deprecated && ((status) => deprecationHeaders(deprecated.get(status))),
      );
    } catch (err) {
      next(err);
    }
  });
  return finishApp(app, options.logger);
}
