import { Agent, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedDestination } from './destination';

export const RESPONSE_BODY_LIMIT = 2048;

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

  send(dest: CheckedDestination, body: Buffer, headers: Record<string, string>): Promise<SendResult> {
    const started = Date.now();
    return new Promise((resolve) => {
      let settled = false;
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, durationMs: Date.now() - started });
      };
      const req = request(
        {
          protocol: 'https:',
          hostname: dest.url.hostname.replace(/^\[|\]$/g, ''),
          port: dest.url.port || 443,
          path: `${dest.url.pathname}${dest.url.search}`,
          method: 'POST',
          headers: { ...headers, 'content-length': String(body.length) },
          lookup: pinnedLookup(dest.address, dest.family),
          agent: this.agent,
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
        req.destroy(new Error(`no complete answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      req.on('error', (err) => finish({ body: null, error: err.message }));
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
