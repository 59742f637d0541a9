import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { operationKey, type DeprecatedResponses } from '@travel/contracts';
import {
  AppError,
  ContractRoutes,
  countRequest,
  methodNotAllowed,
  problem,
  recordRequest,
  refusedPath,
  REQUEST_ID_HEADER,
  startRequest,
  traceIdFor,
  TRAILING_SLASH,
  type ErrorCode,
  type Logger,
  type Metrics,
  UpstreamList,
  warnOfOutage,
} from '@travel/platform';
import type { KeyCheck } from '../app/key-check';
import { clientAddress, limitKeyOf } from '../domain/client-address';
import type { RateLimiter } from '../domain/rate-limit';
import { ownerOf, type Upstream } from '../domain/routes';
import type { CallerTokens } from './caller-token';
import type { ConsoleSessions } from './console/cookie-auth';
import { callerOfKey } from './key-auth';
import { forward } from './proxy';

/** `Authorization: Bearer <key>` or `X-Api-Key: <key>`. */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  if (auth) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return match?.[1];
  }
  const key = headers['x-api-key'];
  return (typeof key === 'string' ? key : key?.[0])?.trim() || undefined;
}

/** The key a client's failures count under (its address, or its /64). */
export const clientKeyOf = (req: IncomingMessage, trustedProxyHops: number): string =>
  limitKeyOf(clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxyHops));

/** An answer in the documented error body, written straight to the socket (no express on this path). */
function sendProblem(res: ServerResponse, code: ErrorCode, traceId: string, detail?: string, errors?: object): number {
  const body = problem(code, traceId, detail, errors as never);
  const text = JSON.stringify(body);
  res.writeHead(body.status, {
    'content-type': 'application/problem+json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
  return body.status;
}

/**
 * A partner whose address spent its bucket of failed authentications is refused before anything else:
 * 429 with Retry-After, counted in the RED metrics (duration 0) and in the key checks (decision 0115). A
 * flood of guesses then costs a map lookup and one write per request.
 */
export function refuseLimitedAddress(res: ServerResponse, method: string, wait: number, metrics: Metrics): void {
  const traceId = randomUUID();
  res.setHeader('retry-after', String(wait));
  res.setHeader(REQUEST_ID_HEADER, traceId);
  const status = sendProblem(
    res,
    'RATE_LIMITED',
    traceId,
    `Too many unknown API keys from this address; retry in ${wait} s.`,
  );
  countRequest(metrics, { method, route: '/api/v1', status }, 0);
}

export interface ApiHopOptions {
  logger: Logger;
  metrics: Metrics;
  keys: KeyCheck;
  sessions: ConsoleSessions;
  limiter: RateLimiter;
  tokens: CallerTokens;
  contract: ContractRoutes;
  deprecations: DeprecatedResponses;
  /** Each upstream's base URL, or its replicas' separated by commas (docs/decisions/0214). */
  upstreams: Record<Upstream, string>;
  trustedProxyHops: number;
}

/** RFC 9745: `Deprecation: @<unix seconds>` and the changelog entry as `Link: …; rel="deprecation"`. */
const deprecationHeaders = (h: { deprecation: string; link: string } | undefined) =>
  h && { deprecation: h.deprecation, link: h.link };

/**
 * The gateway's /api/v1 hop, on Node's request and response without express (docs/decisions/0178): the same
 * checks in the same order as before (limited address, console cookie or key, key check, rate limit, owner,
 * the contract's 405, the signed caller token), and every refusal in the documented error body. The request
 * id, RED metrics and request log line are the platform's one pipeline (request-pipeline.ts, 0232).
 * `path` and `query` are the canonical target (decision 0097).
 */
export function apiHop(o: ApiHopOptions) {
  const route = '/api/v1';
  const upstreams = new Map(Object.entries(o.upstreams).map(([name, urls]) => [name, new UpstreamList(urls)]));

  return async (req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<void> => {
    const method = req.method!;
    const client = clientKeyOf(req, o.trustedProxyHops);
    const wait = o.keys.limitedFor(client);
    if (wait > 0) return refuseLimitedAddress(res, method, wait, o.metrics);
    const start = startRequest(req);
    const { requestId } = start;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const observe = (status: number) => recordRequest(o.metrics, o.logger, start, { method, route, status });
    const refuse = (err: unknown) => {
      if (res.headersSent) return res.destroy();
      let status: number;
      if (err instanceof AppError) {
        warnOfOutage(o.logger, err, { requestId, path });
        status = sendProblem(res, err.code, traceIdFor(requestId), err.message, err.errors);
      } else {
        o.logger.error({ err, requestId, path }, 'unhandled error');
        status = sendProblem(res, 'INTERNAL', traceIdFor(requestId));
      }
      observe(status);
    };
    try {
      if (path.endsWith('/')) throw refusedPath(TRAILING_SLASH);
      // A key in the headers wins; otherwise the console's session cookie stands for its key (0145, 0146).
      const key = presentedKey(req.headers) ?? (await o.sessions.keyOf(req, path));
      o.sessions.strip(req);
      if (!key)
        throw new AppError('UNAUTHORIZED', 'Send the API key as "Authorization: Bearer <key>" or "X-Api-Key: <key>".');
      const caller = await callerOfKey(o.keys, key, client, res);
      const limited = o.limiter.take(caller.apiKeyId);
      if (limited > 0) {
        res.setHeader('retry-after', String(limited));
        throw new AppError('RATE_LIMITED', `Rate limit reached for this API key; retry in ${limited} s.`);
      }
      const owner = ownerOf(path);
      if (!owner) throw new AppError('NOT_FOUND', `No resource at ${path}.`);
      // A path the contract knows, with a method it does not have: 405 here, for every context, built or
      // not, from the one list of paths and methods (docs/decisions/0037).
      const known = o.contract.match(path);
      if (known && !known.allowed.includes(method)) {
        res.setHeader('allow', known.allowed.join(', '));
        throw methodNotAllowed(method, known.template, known.allowed);
      }
      const deprecated = known && o.deprecations.get(operationKey(method, known.template));
      forward(
        req,
        res,
        {
          upstream: upstreams.get(owner)!,
          target: path + query,
          context: o.tokens.tokenFor(caller, requestId),
          requestId,
        },
        {
          answered: observe,
          failed: (cause) =>
            refuse(
              new AppError(
                'SERVICE_UNAVAILABLE',
                'The service that owns this resource did not answer; try again.',
                undefined,
                { cause },
              ),
            ),
        },
        deprecated ? (status) => deprecationHeaders(deprecated.get(status)) : undefined,
      );
    } catch (err) {
      refuse(err);
    }
  };
}
