import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import {
  CLIENT_IDLE_SOCKET_MS,
  CONTEXT_HEADER,
  notSent,
  REQUEST_ID_HEADER,
  requestHasBody,
  type UpstreamList,
} from '@travel/platform';

/**
 * One keep-alive pool per upstream (undici: a leaner client than node:http's agent, docs/decisions/0178). An
 * idle socket is dropped long before the service would close it (`idleMs`, however long the service's
 * Keep-Alive hint allows): a partner's request never meets a connection the service is closing (a spurious
 * 503). 30 s without headers or without body data ends the request, as the agent's socket time-out did.
 */
export function upstreamPool(baseUrl: string, idleMs = CLIENT_IDLE_SOCKET_MS): Pool {
  return new Pool(baseUrl, {
    connections: 256,
    keepAliveTimeout: idleMs,
    keepAliveMaxTimeout: idleMs,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
}

const pools = new Map<string, Pool>();
const poolOf = (baseUrl: string): Pool => {
  let pool = pools.get(baseUrl);
  if (!pool) pools.set(baseUrl, (pool = upstreamPool(baseUrl)));
  return pool;
};

// Hop-by-hop headers, the partner's credentials, and anything that could pose as internal context never
// cross the gateway. `Expect` was answered here (Node's server sends the 100 Continue).
const DROP_REQUEST =
  /^(connection|keep-alive|proxy-.*|te|trailer|transfer-encoding|upgrade|host|expect|authorization|x-api-key|x-internal-.*|x-forwarded-.*|x-request-id)$/;
const DROP_RESPONSE = /^(connection|keep-alive|proxy-.*|te|trailer|transfer-encoding|upgrade)$/;

/** The request's headers for the service, as a flat name/value list (no object per request). */
function requestHeaders(req: IncomingMessage, context: string, requestId: string): string[] {
  const out: string[] = [];
  const headers = req.headers;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || DROP_REQUEST.test(name)) continue;
    if (typeof value === 'string') out.push(name, value);
    else for (const one of value) out.push(name, one);
  }
  out.push(CONTEXT_HEADER, context, REQUEST_ID_HEADER, requestId, 'x-forwarded-for', req.socket.remoteAddress ?? '');
  return out;
}

/** Headers the gateway adds to an answer of the given status (the deprecation headers, decision 0134). */
export type AnswerHeaders = (status: number) => OutgoingHttpHeaders | undefined;

/**
 * The answer's headers (a flat name/value list, names in lower case) with the gateway's added: an added
 * header replaces the service's of that name, except `Link`, which is kept beside the gateway's.
 */
export function withAddedHeaders(headers: string[], added: OutgoingHttpHeaders | undefined): string[] {
  if (!added) return headers;
  let out = headers;
  for (const [name, value] of Object.entries(added)) {
    if (value === undefined) continue;
    const own = out.filter((_, i) => i % 2 === 1 && out[i - 1] === name);
    const rest: string[] = [];
    for (let i = 0; i < out.length; i += 2) if (out[i] !== name) rest.push(out[i]!, out[i + 1]!);
    const values = [value].flat().map(String);
    rest.push(name, (name === 'link' ? [...own, ...values] : values).join(', '));
    out = rest;
  }
  return out;
}

/** The service's answer headers less the hop-by-hop ones. */
function answerHeaders(raw: Buffer[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    if (!DROP_RESPONSE.test(name)) out.push(name, raw[i + 1]!.toString('latin1'));
  }
  return out;
}

/** Answers up to this size are sent in one write with their headers; larger ones stream. */
const WHOLE_ANSWER_BYTES = 64 * 1024;

/** What the forward tells its caller: the status it answered with, or that the service did not answer. */
export interface ForwardOutcome {
  answered(status: number): void;
  /** The service did not answer (no connection, a time-out) before any byte went back: answer 503. */
  failed(err: Error): void;
}

/** What the relay does when the request could not be sent at all (no connection): the next replica. */
type NotSent = (err: Error) => boolean;

/** Relays one answer: small ones whole, in one write; large ones streamed with back-pressure. */
class Relay implements Dispatcher.DispatchHandlers {
  private abort?: (err?: Error) => void;
  private resume?: () => void;
  private status = 502;
  private chunks: Buffer[] | null = [];
  private bytes = 0;
  private waiting = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly outcome: ForwardOutcome,
    private readonly addHeaders: AnswerHeaders | undefined,
    private readonly elsewhere: NotSent,
  ) {}

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
  }

  onHeaders(status: number, raw: Buffer[], resume: () => void): boolean {
    if (status < 200) return true; // 1xx: undici reads on to the final answer.
    this.status = status;
    this.resume = resume;
    this.res.writeHead(status, withAddedHeaders(answerHeaders(raw), this.addHeaders?.(status)));
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.chunks && this.bytes + chunk.length <= WHOLE_ANSWER_BYTES) {
      this.chunks.push(chunk);
      this.bytes += chunk.length;
      return true;
    }
    if (this.chunks) {
      for (const held of this.chunks) this.res.write(held);
      this.chunks = null;
    }
    if (this.res.write(chunk)) return true;
    if (!this.waiting) {
      this.waiting = true;
      this.res.on('drain', () => this.resume?.());
      // A partner that went away never drains: the upstream request ends with it.
      this.res.once('close', () => this.abort?.(new Error('the client closed the connection')));
    }
    return false;
  }

  onComplete(): void {
    const chunks = this.chunks;
    if (!chunks || chunks.length === 0) this.res.end();
    else this.res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, this.bytes));
    this.outcome.answered(this.status);
  }

  onError(err: Error): void {
    if (this.res.headersSent) this.res.destroy();
    else if (!this.elsewhere(err)) this.outcome.failed(err);
  }
}

/**
 * Sends the request to the owning service with the minted context, and the answer back. `target` (the
 * canonical path and the query as sent) goes out byte for byte: never through URL resolution, which would
 * read dot segments and escapes differently from the check that routed it (decision 0097). The service's
 * replicas take the requests in turn; one that refused the connection never saw the request (not a byte of
 * its body was read), so the next replica gets it, a POST too (docs/decisions/0214).
 */
export function forward(
  req: IncomingMessage,
  res: ServerResponse,
  request: { upstream: UpstreamList; target: string; context: string; requestId: string },
  outcome: ForwardOutcome,
  addHeaders?: AnswerHeaders,
): void {
  const order = request.upstream.order();
  const body = requestHasBody(req); // none (most GETs): no stream to read
  const sendTo = (i: number): void => {
    const baseUrl = order[i]!;
    const elsewhere: NotSent = (err) => {
      if (!notSent(err)) return false;
      request.upstream.refused(baseUrl);
      if (i + 1 >= order.length || (body && req.readableDidRead)) return false;
      sendTo(i + 1);
      return true;
    };
    poolOf(baseUrl).dispatch(
      {
        path: request.target,
        method: req.method as Dispatcher.HttpMethod,
        headers: requestHeaders(req, request.context, request.requestId),
        body: body ? req : null,
      },
      new Relay(res, outcome, addHeaders, elsewhere),
    );
  };
  sendTo(0);
}
