import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the held request got from the upstream once it was let through. */
export interface Forwarded {
  status: number;
  body: string;
}

export interface Hold {
  /** Lets the held request through to the upstream. */
  release(): void;
  /** The upstream's answer to the held request (the caller may have given up on it long before). */
  forwarded: Promise<Forwarded>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);

const bodyOf = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/**
 * A real HTTP proxy in front of a service: it forwards every request as it is, except the next one whose
 * path matches a hold, which it keeps until the test releases it (or `maxMs` passes) — a service that
 * stalls past its caller's time-out, whose work still happens afterwards.
 */
export class StallingProxy {
  private server?: Server;
  private hold?: { match: RegExp; gate: Promise<void>; answered: (f: Forwarded) => void };

  constructor(private readonly target: string) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.forward(req).then(
        (answer) => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
        },
        () => res.destroy(),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** Holds the next request whose path matches `match`. */
  holdNext(match: RegExp, maxMs: number): Hold {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
      setTimeout(resolve, maxMs).unref();
    });
    let answered!: (f: Forwarded) => void;
    const forwarded = new Promise<Forwarded>((resolve) => (answered = resolve));
    this.hold = { match, gate, answered };
    return { release, forwarded };
  }

  private async forward(req: IncomingMessage): Promise<Forwarded> {
    const body = await bodyOf(req);
    const hold = this.hold && this.hold.match.test(req.url ?? '') ? this.hold : undefined;
    if (hold) {
      this.hold = undefined;
      await hold.gate;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !HOP_BY_HOP.has(k.toLowerCase())) headers[k] = v;
    const res = await fetch(`${this.target}${req.url}`, {
      method: req.method,
      headers,
      body: body.length ? body : undefined,
    });
    const answer = { status: res.status, body: await res.text() };
    hold?.answered(answer);
    return answer;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
