import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { REQUEST_ID_HEADER, type ContextVerifier, type InternalContext } from '../context';
import { requestLineLogger, type Logger } from '../logger';
import type { Metrics } from '../observability/metrics';

// The steps every answered request goes through once, whichever path answers it: express, the remembered
// reads before it, or the gateway's API hop (docs/decisions/0232). A request is started on arrival (its id,
// its clock), its context is verified once, and it is counted and logged once when answered.

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's id: the one the caller sent when it is well-formed, else a new one. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** What a request carries from its arrival to its answer, whichever path answers it. */
export interface RequestStart {
  readonly requestId: string;
  /** When it arrived (`process.hrtime.bigint()`): a miss of the remembered reads is timed from here too. */
  readonly started: bigint;
  /** The verifier that checked its context, and what it found (`verifiedContext`). */
  verifiedBy: ContextVerifier | undefined;
  context: InternalContext | undefined;
}

const START = Symbol('request start');
type Startable = IncomingMessage & { [START]?: RequestStart };

/**
 * The request's start, taken once: its id and its clock. A later step of the same request (express after
 * the remembered reads missed) gets the same start back. The path that answers writes the id in
 * `X-Request-Id` its own way: the remembered reads within their one `writeHead` (a `setHeader` before it
 * would send every header through Node's slower merge).
 */
export function startRequest(req: IncomingMessage): RequestStart {
  const startable = req as Startable;
  let start = startable[START];
  if (!start) {
    // Every field set here, so the object keeps one shape when the context is added.
    start = {
      requestId: requestIdOf(req.headers),
      started: process.hrtime.bigint(),
      verifiedBy: undefined,
      context: undefined,
    };
    startable[START] = start;
  }
  return start;
}

/**
 * The request's internal context as `verifier` finds it, checked once per request: the remembered reads'
 * check is handed on to express's guard when they miss. A request not started here (a bare handler in a
 * test) is checked each time it asks.
 */
export function verifiedContext(
  req: IncomingMessage,
  verifier: ContextVerifier,
  token: string | undefined,
): InternalContext | undefined {
  const start = (req as Startable)[START];
  if (start?.verifiedBy === verifier) return start.context;
  const context = verifier.verify(token);
  if (start) {
    start.verifiedBy = verifier;
    start.context = context;
  }
  return context;
}

export interface AnsweredRequest {
  method: string;
  /** The route template (bounded label cardinality), never the raw path with ids. */
  route: string;
  status: number;
}

/** One request in the RED metrics. */
export function countRequest(metrics: Metrics, answered: AnsweredRequest, seconds: number): void {
  const labels = { method: answered.method, route: answered.route, status: String(answered.status) };
  metrics.httpRequests.inc(labels);
  metrics.httpDuration.observe(labels, seconds);
}

/** One answered request in the RED metrics and the request log, timed from its start. */
export function recordRequest(metrics: Metrics, logger: Logger, start: RequestStart, answered: AnsweredRequest): void {
  const seconds = Number(process.hrtime.bigint() - start.started) / 1e9;
  countRequest(metrics, answered, seconds);
  requestLineLogger(logger).info(
    {
      requestId: start.requestId,
      method: answered.method,
      route: answered.route,
      status: answered.status,
      ms: Math.round(seconds * 1000),
    },
    'request',
  );
}

/**
 * Whether the request has a body to read (RFC 9112 6.3): chunked, or a length other than 0. A request
 * without one (most GETs) needs no stream read: the remembered reads may answer it, the gateway forwards
 * it without one.
 */
export const requestHasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
