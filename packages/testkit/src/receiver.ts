import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { TlsMaterial } from './tls';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

/** What the receiver answers; `hang` never answers (to exercise the dispatcher's time-out). */
export type Reply =
  { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | { hang: true };

/**
 * A real HTTPS webhook receiver on 127.0.0.1 with a certificate from the test CA. It records every
 * request with its raw body bytes, and answers with a scripted reply (per request, or a default).
 */
export class HttpsReceiver {
  readonly requests: ReceivedRequest[] = [];
  private server?: Server;
  private replies: Reply[] = [];
  private fallback: Reply = { status: 200, body: '{"ok":true}' };
  private decide?: (req: ReceivedRequest) => Reply | undefined;
  private waiters: Array<() => void> = [];
  port = 0;
  /** Requests arrived and not yet answered (or their connection closed). */
  inFlight = 0;
  /** Each request's arrival with the number in flight it made, to see the sender's concurrency over time. */
  readonly arrivals: Array<{ at: number; inFlight: number }> = [];

  constructor(private readonly tls: TlsMaterial) {}

  /** URL with the host name the certificate names. */
  get url(): string {
    return `https://localhost:${this.port}/hooks`;
  }

  replyAlways(reply: Reply): this {
    this.fallback = reply;
    return this;
  }

  /** Decides per request (e.g. by payload); undefined falls back to the queued or default reply. */
  replyWith(decide: (req: ReceivedRequest) => Reply | undefined): this {
    this.decide = decide;
    return this;
  }

  replyNext(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer({ cert: this.tls.cert, key: this.tls.key }, (req, res) => {
      this.inFlight++;
      this.arrivals.push({ at: Date.now(), inFlight: this.inFlight });
      // Until the answer starts on its way (or the connection drops): the sender's view. Counting until the
      // write's 'finish' would overcount by one now and then: the sender may have the answer, and send its
      // next request, before this process runs the write's callback.
      let answered = false;
      const end = () => {
        if (answered) return;
        answered = true;
        this.inFlight--;
      };
      const endAnswer = res.end.bind(res) as (...args: unknown[]) => typeof res;
      res.end = ((...args: unknown[]) => {
        end();
        return endAnswer(...args);
      }) as typeof res.end;
      res.on('close', end);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: Date.now(),
        };
        this.requests.push(received);
        this.waiters.splice(0).forEach((w) => w());
        const reply = this.decide?.(received) ?? this.replies.shift() ?? this.fallback;
        if ('hang' in reply) return;
        setTimeout(() => {
          res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
          res.end(reply.body ?? '');
        }, reply.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as AddressInfo).port;
    return this;
  }

  /** Resolves once at least `count` requests arrived. */
  async waitForRequests(count: number, timeoutMs = 15_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`receiver got ${this.requests.length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.requests;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
