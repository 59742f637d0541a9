import { request, Agent, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { Request, Response, NextFunction } from 'express';
import { AppError, CLIENT_IDLE_SOCKET_MS, CONTEXT_HEADER, REQUEST_ID_HEADER } from '@travel/platform';

// An idle socket is dropped long before the service would close it: a partner's request never meets a
// connection the service is closing (a spurious 503).
export const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 256, timeout: CLIENT_IDLE_SOCKET_MS });

// Hop-by-hop headers, the partner's credentials, and anything that could pose as internal context
// never cross the gateway.
const DROP_REQUEST =
  /^(connection|keep-alive|proxy-.*|te|trailer|transfer-encoding|upgrade|host|authorization|x-api-key|x-internal-.*|x-forwarded-.*|x-request-id)$/i;
const DROP_RESPONSE = /^(connection|keep-alive|proxy-.*|te|trailer|transfer-encoding|upgrade)$/i;

function filter(headers: IncomingHttpHeaders, drop: RegExp): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !drop.test(name)) out[name] = value;
  return out;
}

/** Headers the gateway adds to an answer of the given status (the deprecation headers, decision 0134). */
export type AnswerHeaders = (status: number) => OutgoingHttpHeaders | undefined;

/** The answer's headers with the gateway's added; a `Link` of the service is kept beside the gateway's. */
export function withAddedHeaders(headers: OutgoingHttpHeaders, added: OutgoingHttpHeaders | undefined) {
  if (!added) return headers;
  const out = { ...headers };
  for (const [name, value] of Object.entries(added)) {
    const own = out[name];
    out[name] = name === 'link' && own !== undefined ? [own, value].flat().join(', ') : value;
  }
  return out;
}

/** The upstreams' URLs, parsed once each rather than per request. */
const parsedUpstreams = new Map<string, URL>();
const upstreamUrl = (baseUrl: string): URL => {
  let url = parsedUpstreams.get(baseUrl);
  if (!url) parsedUpstreams.set(baseUrl, (url = new URL(baseUrl)));
  return url;
};

/** A request without a body (most GETs): ended at once instead of piped through a stream. */
const hasBody = (req: Request): boolean =>
  req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

/**
 * Streams the request to the owning service with the minted context, and the answer back. `target` (the
 * canonical path and the query as sent) goes out byte for byte: never through URL resolution, which would
 * read dot segments and escapes differently from the check that routed it (decision 0097).
 */
export function forward(
  req: Request,
  res: Response,
  next: NextFunction,
  baseUrl: string,
  target: string,
  context: string,
  addHeaders?: AnswerHeaders,
): void {
  const { protocol, hostname, port } = upstreamUrl(baseUrl);
  const headers = filter(req.headers, DROP_REQUEST);
  headers[CONTEXT_HEADER] = context;
  headers[REQUEST_ID_HEADER] = req.requestId;
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';

  const options = {
    protocol,
    hostname,
    port,
    path: target,
    method: req.method,
    headers,
    agent: upstreamAgent,
    timeout: 30_000,
  };
  const upstream = request(options, (answer) => {
    const status = answer.statusCode ?? 502;
    res.writeHead(status, withAddedHeaders(filter(answer.headers, DROP_RESPONSE), addHeaders?.(status)));
    answer.pipe(res);
  });
  upstream.on('timeout', () => upstream.destroy(new Error('upstream time-out')));
  upstream.on('error', (err) => {
    if (res.headersSent) return res.destroy(err);
    next(new AppError('SERVICE_UNAVAILABLE', 'The service that owns this resource did not answer; try again.'));
  });
  if (hasBody(req)) req.pipe(upstream);
  else upstream.end();
}
