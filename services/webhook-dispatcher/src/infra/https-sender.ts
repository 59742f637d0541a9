import { Agent, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedDestination } from './destination';

export const RESPONSE_BODY_LIMIT = 2048;

/** How a request fails when the socket it went out on was closed by the other side meanwhile. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

export interface SendResult {
  statusCode?: number;
  /** At most 2 KB of the partner's answer. */
  body: string | null;
  error?: string;
  durationMs: number;
}

/** Connects only to the address that was checked, whatever the resolver would say now. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/**
 * One HTTPS POST: pinned address, TLS verified against the host name, no redirects (Node never
 * follows them), a time-out over the whole exchange, and at most 2 KB of the answer read.
 */
export class HttpsSender {
  // As many idle sockets kept as may be open: a fan-out burst reuses the last one's TLS connections (0088).
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 32, maxFreeSockets: 32, timeout: 30_000 });

  constructor(private readonly timeoutMs: number) {}

  /**
   * A request sent on a kept-alive socket that the partner closed at that very moment fails before any
   * answer (ECONNRESET, EPIPE). That is not the partner failing: it is sent once more, on a new connection,
   * within the same time-out. Safe because a delivery may arrive twice (same event id); Go's HTTP client
   * replays such requests the same way.
   */
  async send(dest: CheckedDestination, body: Buffer | string, headers: Record<string, string>): Promise<SendResult> {
    const started = Date.now();
    const first = await this.attempt(dest, body, headers, this.timeoutMs, this.agent);
    const left = this.timeoutMs - (Date.now() - started);
    const result =
      first.staleSocket && left > 0 ? await this.attempt(dest, body, headers, left, this.freshAgent()) : first;
    return { statusCode: result.statusCode, body: result.body, error: result.error, durationMs: Date.now() - started };
  }

  /** A one-connection agent for the replay: never a pooled socket that may be just as stale. */
  private freshAgent(): Agent {
    return new Agent({ keepAlive: false, maxSockets: 1 });
  }

  private attempt(
    dest: CheckedDestination,
    body: Buffer | string,
    headers: Record<string, string>,
    timeoutMs: number,
    agent: Agent,
  ): Promise<Omit<SendResult, 'durationMs'> & { staleSocket: boolean }> {
    return new Promise((resolve) => {
      let settled = false;
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = (result: Omit<SendResult, 'durationMs'>, staleSocket = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, staleSocket });
      };
      const req = request(
        {
          protocol: 'https:',
          hostname: dest.url.hostname.replace(/^\[|\]$/g, ''),
          port: dest.url.port || 443,
          path: `${dest.url.pathname}${dest.url.search}`,
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: pinnedLookup(dest.address, dest.family),
          agent,
        },
        (res) => {
          res.on('data', (chunk: Buffer) => {
            if (kept < RESPONSE_BODY_LIMIT) {
              const part = chunk.subarray(0, RESPONSE_BODY_LIMIT - kept);
              chunks.push(part);
              kept += part.length;
            }
            // A partner streaming a huge body must not hold the worker: stop reading past the cap.
            if (kept >= RESPONSE_BODY_LIMIT) res.destroy();
          });
          const done = () => finish({ statusCode: res.statusCode, body: Buffer.concat(chunks).toString('utf8') });
          res.on('end', done);
          res.on('close', done);
          res.on('error', done);
        },
      );
      const timer = setTimeout(() => {
        req.destroy(new Error(`no complete answer within ${timeoutMs} ms`));
      }, timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) =>
        finish({ body: null, error: err.message }, req.reusedSocket && STALE_SOCKET_CODES.has(err.code ?? '')),
      );
      // A string body goes out in one write with the headers (a Buffer would be a second, writev).
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
