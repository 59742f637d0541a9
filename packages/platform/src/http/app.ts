import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import express, {
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { openApiDocument } from '@travel/contracts';
import { CONTEXT_HEADER, ContextVerifier, REQUEST_ID_HEADER, type ContextTrust } from '../context';
import { AppError } from '../errors';
import { ContractRoutes, ignoreReadOnlyFields } from './contract';
import type { Logger } from '../logger';
import type { Metrics } from '../observability/metrics';
import { PRIVATE_ANSWER_HEADERS, type ConditionalGets, type RememberedAnswer } from './conditional-read';
import { errorHandler, notFoundHandler } from './error-handler';
import { idempotentPosts } from './idempotency';
import type { IdempotencyKeys } from '../mongo/idempotency-store';
import type { SealedBox } from '../sealed-box';
import { requireCanonicalPath } from './path-guard';
import { keepIdleConnections } from './keep-alive';
import { closeServer, trackAnswers } from './drain';
import { requestId, requireInternalContext } from './request-context';
import { recordRequest, requestHasBody, startRequest, verifiedContext, type RequestStart } from './request-pipeline';

export type ReadinessCheck = () => Promise<void>;

export interface HttpAppOptions extends BaseAppOptions {
  /** Routes under /api/v1, validated against contracts/openapi.yaml. */
  api?: Router;
  /** Service-to-service routes under /internal (not in the public contract). */
  internal?: Router;
  validateResponses?: boolean;
  jsonLimit?: string;
  /** Multipart uploads (held in memory): largest file, most files per request (beyond: 413). Default 10 MiB, 10. */
  upload?: { maxFileBytes?: number; maxFiles?: number };
  /** Resource prefixes this service owns but has not built yet: answered 501, honestly. */
  notImplemented?: string[];
  /** Whose internal contexts this service accepts; requests without a valid one are refused before anything else. */
  contextTrust: ContextTrust;
  /** The conditional GETs of `api`: a GET they answered before is answered again before express (0182). */
  reads?: ConditionalGets;
  /** Where the `Idempotency-Key`s of `api`'s POSTs and their answers are kept (docs/decisions/0195). */
  idempotency?: IdempotencyKeys;
  /** Seals the answers of POSTs that show a secret once before they are kept (docs/decisions/0195). */
  idempotentAnswerSeal?: SealedBox;
}

/** Counts and logs each request express answers, once, timed from its start (request-pipeline.ts). */
function observe(metrics: Metrics, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = startRequest(req);
    res.on('finish', () => {
      // The matched route template keeps label cardinality bounded (never the raw path with ids); a
      // handler without a route template may name its own (`res.locals.route`).
      const route = req.route?.path
        ? `${req.baseUrl}${req.route.path}`
        : typeof res.locals.route === 'string'
          ? res.locals.route
          : res.statusCode === 404
            ? 'unmatched'
            : req.baseUrl || 'other';
      recordRequest(metrics, logger, start, { method: req.method, route, status: res.statusCode });
    });
    next();
  };
}

export interface BaseAppOptions {
  logger: Logger;
  metrics: Metrics;
  /** Runs before anything else (request ids, logs): the gateway's cheap refusal of limited addresses. */
  first?: RequestHandler;
}

/**
 * Case-sensitive, strict routers: `/API/V1/x` is not `/api/v1/x`, `/x/` is not `/x` (decision 0097).
 * Every router of a service is made here, so none matches a spelling the contract validator does not see.
 */
export const apiRouter = (): Router => express.Router({ caseSensitive: true, strict: true });

/** Request ids, RED metrics and request logs, with case-sensitive and strict routing: every API port. */
export function createBaseApp({ logger, metrics, first }: BaseAppOptions): Express {
  const app = express();
  // Before the first route, so the app's router is made with them.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  if (first) app.use(first);
  app.use(requestId);
  app.use(observe(metrics, logger));
  return app;
}

export interface OpsAppOptions {
  logger: Logger;
  metrics: Metrics;
  /** Each must resolve when its dependency answers; /readyz is 503 otherwise. */
  readiness: Record<string, ReadinessCheck>;
}

/**
 * /healthz, /readyz and /metrics, on a port of their own (OPS_PORT): never on the API port, so no
 * path through the gateway can reach them (decision 0097). Probes and Prometheus only; not logged.
 */
export function createOpsApp({ logger, metrics, readiness }: OpsAppOptions): Express {
  const app = express();
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.disable('x-powered-by');
  app.use(requestId);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      Object.entries(readiness).map(async ([name, check]) => {
        try {
          await check();
          return [name, 'ok'] as const;
        } catch (err) {
          return [name, (err as Error).message || 'unavailable'] as const;
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return finishApp(app, logger);
}

/** Listens on host:port (0: a free port); rejects when it cannot (a port in use: `EADDRINUSE`). */
export function listen(app: RequestListener, port: number, host: string): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    // A plain listener as well as an express app (the gateway answers /api/v1 before express: 0178).
    const server = createServer(app);
    trackAnswers(server);
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** The API and the ops listeners, both or neither: a start that fails leaves no port open. */
export async function listenApiAndOps(
  app: RequestListener,
  ops: Express,
  ports: { port: number; opsPort: number; host: string },
): Promise<{ server: Server; opsServer: Server }> {
  const server = await listen(app, ports.port, ports.host);
  keepIdleConnections(server);
  try {
    return { server, opsServer: await listen(ops, ports.opsPort, ports.host) };
  } catch (err) {
    await closeServer(server);
    throw err;
  }
}

/** The documented 404 for unknown routes and the one error handler; mount last. */
export function finishApp(app: Express, logger: Logger): Express {
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  // Reached only when response validation refused the error body the handler above sent: a 500.
  app.use(errorHandler(logger));
  return app;
}

/**
 * GETs answered from what was remembered, before express (docs/decisions/0182): a partner's GET with the
 * same URL and view as one that reached its handler's conditional answer before gets that answer's 304
 * or remembered body, with the same headers, metrics and log line, and no router, validator or handler.
 * One pipeline with express (0232): the request is started here (id, clock) and its context verified here
 * with the process's verifier; a miss hands both on to `app`, which neither takes nor checks them again.
 */
function rememberedFirst(
  app: Express,
  reads: ConditionalGets,
  verifier: ContextVerifier,
  { metrics, logger }: BaseAppOptions,
): RequestListener {
  const send = (res: ServerResponse, start: RequestStart, answer: RememberedAnswer) => {
    const headers = { [REQUEST_ID_HEADER]: start.requestId, ...PRIVATE_ANSWER_HEADERS, etag: answer.tag };
    const status = answer.body === undefined ? 304 : 200;
    if (answer.body === undefined) res.writeHead(304, headers).end();
    else
      res
        .writeHead(200, {
          ...headers,
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(answer.body),
        })
        .end(answer.body);
    recordRequest(metrics, logger, start, { method: 'GET', route: answer.route, status });
  };
  return (req, res) => {
    if (req.method !== 'GET' || requestHasBody(req) || !req.url!.startsWith('/api/v1/')) return app(req, res);
    const start = startRequest(req);
    const token = req.headers[CONTEXT_HEADER];
    const caller = verifiedContext(req, verifier, typeof token === 'string' ? token : undefined);
    const remembered = caller?.kind === 'caller' && reads.remembered(caller, req.url!, req.headers['if-none-match']);
    if (!remembered) return app(req, res);
    remembered.then(
      (answer) => (answer ? send(res, start, answer) : app(req, res)),
      () => app(req, res), // the versions unreadable: the whole path answers (and says why)
    );
  };
}

/** A service's listener: the remembered GETs first (with `reads`), then the app; one context verifier. */
export function createHttpListener(options: HttpAppOptions): RequestListener {
  const verifier = new ContextVerifier(options.contextTrust);
  const app = serviceApp(options, verifier);
  return options.reads ? rememberedFirst(app, options.reads, verifier, options) : app;
}

/** A service's app: the base, internal routes, and the public API validated against the contract. */
export function createHttpApp(options: HttpAppOptions): Express {
  return serviceApp(options, new ContextVerifier(options.contextTrust));
}

/** The app, checking contexts with `verifier` (the remembered reads' own on a listener). */
function serviceApp(options: HttpAppOptions, verifier: ContextVerifier): Express {
  const app = createBaseApp(options);
  // Before every router: a path not in canonical form, or /API/V1 in another case, reaches none.
  app.use(requireCanonicalPath);
  if (options.internal) {
    app.use(
      '/internal',
      requireInternalContext(verifier, ['service']),
      express.json({ limit: '256kb' }),
      options.internal,
    );
  }
  if (options.api || options.notImplemented) {
    app.use('/api/v1', requireInternalContext(verifier, ['caller']));
    const apiSpec = openApiDocument();
    const contractRoutes = new ContractRoutes(apiSpec);
    for (const prefix of options.notImplemented ?? []) {
      app.use(prefix, (req: Request, _res: Response, next: NextFunction) => {
        const path = req.originalUrl.split('?')[0]!;
        // An operation the contract documents in `paths` is built, even under a prefix not built yet.
        if (contractRoutes.documents(req.method, path)) return next();
        next(new AppError('NOT_IMPLEMENTED', `${req.method} ${path} is not implemented yet.`));
      });
    }
    // Any operation the contract lists only under x-planned-operations (e.g. an action on a built
    // resource: POST /travel-entries/{id}/submit) is 501, not the 404 of an unknown route.
    app.use('/api/v1', (req: Request, _res: Response, next: NextFunction) => {
      const path = req.originalUrl.split('?')[0]!;
      if (contractRoutes.planned(req.method, path))
        return next(new AppError('NOT_IMPLEMENTED', `${req.method} ${path} is not implemented yet.`));
      next();
    });
    app.use(express.json({ limit: options.jsonLimit ?? '1mb' }));
    // A body a GET returned is a valid PUT body: read-only fields are dropped here, for every operation,
    // before the validator (which would refuse them); unknown fields still fail validation (0035).
    app.use(ignoreReadOnlyFields(contractRoutes));
    app.use(
      OpenApiValidator.middleware({
        apiSpec: apiSpec as never,
        // Bodies are strict (a JSON number is never coerced into a string); query and path values are coerced anyway.
        validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
        validateResponses: options.validateResponses ?? false,
        validateSecurity: false,
        ignoreUndocumented: false,
        // Whatever the case: a spelling the validator skipped must never reach a handler (decision 0097).
        ignorePaths: (path: string) => !/^\/api\/v1(\/|$)/i.test(path),
        validateFormats: true,
        // multer in memory, bounded: without limits one request could hold any amount of memory.
        fileUploader: {
          limits: {
            fileSize: options.upload?.maxFileBytes ?? 10 * 1024 * 1024,
            files: options.upload?.maxFiles ?? 10,
            fields: 20,
          },
        },
      }),
    );
    // After the validator (body and files parsed, the key's form checked), before any handler.
    if (options.idempotency)
      app.use(
        '/api/v1',
        idempotentPosts({
          store: options.idempotency,
          routes: contractRoutes,
          logger: options.logger,
          answerSeal: options.idempotentAnswerSeal,
        }),
      );
    if (options.api) app.use(options.api);
  }
  return finishApp(app, options.logger);
}

/** Wraps an async route handler so a rejection reaches the error handler. */
export const route =
  (fn: (req: Request, res: Response) => Promise<unknown>) =>
  (req: Request, res: Response, next: NextFunction): void => {
    fn(req, res).catch(next);
  };
