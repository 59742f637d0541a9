// The stream of API writes: creates of employees and of travel entries through the gateway, alternated,
// at a fixed rate (open loop) over a bounded pool of keep-alive connections. A write due while every
// connection is busy is not sent and counted as skipped (the client is saturated, e.g. during an outage
// whose requests hang). Writes that fail are not retried: they carry no Idempotency-Key, so a retry
// could create the record twice (docs/decisions/0121). Given an Ingress (several gateway replicas), the
// writes go round robin over the ready ones; a write whose connection was refused (never sent) goes to
// the next ready replica, as an ingress sends it.
import { Agent, request } from 'node:http';
import { CLIENT_IDLE_SOCKET_MS } from '../../../packages/platform/src/http/keep-alive';
import type { Ingress, Pick } from './ingress';
import type { Ledger, WriteKind } from './ledger';

const BODY: Record<WriteKind, (n: number) => object> = {
  employee: (n) => ({ firstName: 'Soak', lastName: `Writer ${n}`, email: `writer-${n}@reliability.test` }),
  entry: () => ({ departureDate: '2026-11-02', returnDate: '2026-11-04' }),
};
const PATH: Record<WriteKind, string> = { employee: '/api/v1/employees', entry: '/api/v1/travel-entries' };

/** One JSON POST on a keep-alive agent; never rejects (status 0 with the error's code when nothing came back). */
export function postJson(agent: Agent, base: URL, apiKey: string, path: string, body: string, timeoutMs: number) {
  return new Promise<{ status: number; body: string; error?: string }>((resolve) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ status: 0, body: '', error: err.code ?? err.message }),
        );
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, body: '', error: err.code ?? err.message }));
    req.end(body);
  });
}

export class WriteStream {
  skipped = 0;
  private timer?: NodeJS.Timeout;
  private inFlight = 0;
  private n = 0;
  private readonly single?: Pick;
  private readonly ingress?: Ingress;
  private readonly running = new Set<Promise<void>>();

  constructor(
    gateway: string | Ingress,
    private readonly apiKey: string,
    private readonly ledger: Ledger,
    private readonly options: { ratePerSecond: number; connections: number; timeoutMs: number },
  ) {
    if (typeof gateway !== 'string') this.ingress = gateway;
    else
      this.single = {
        base: new URL(gateway),
        // Idle sockets dropped before the gateway would close them: a write never goes out on a closing socket.
        agent: new Agent({ keepAlive: true, maxSockets: options.connections, timeout: CLIENT_IDLE_SOCKET_MS }),
        replica: 0,
      };
  }

  start(): void {
    const start = Date.now();
    let due = 0;
    // A 50 ms tick sends every write due by now (k / rate after the start).
    this.timer = setInterval(() => {
      const target = Math.floor(((Date.now() - start) / 1000) * this.options.ratePerSecond);
      for (; due < target; due++) {
        if (this.inFlight >= this.options.connections) {
          this.skipped++;
          continue;
        }
        const p = this.one();
        this.running.add(p);
        void p.finally(() => this.running.delete(p));
      }
    }, 50);
  }

  private async one(): Promise<void> {
    const n = this.n++;
    const kind: WriteKind = n % 2 === 0 ? 'employee' : 'entry';
    this.inFlight++;
    const sentAt = Date.now();
    const body = JSON.stringify(BODY[kind](n));
    const send = (to: Pick) => postJson(to.agent, to.base, this.apiKey, PATH[kind], body, this.options.timeoutMs);
    try {
      let to = this.single ?? this.ingress!.pick()!;
      let res = await send(to);
      let refusedBy: number | undefined;
      const next = res.error === 'ECONNREFUSED' ? this.ingress?.pick(to.replica) : undefined;
      if (next) {
        this.ingress!.refused((refusedBy = to.replica));
        res = await send((to = next));
      }
      let id: string | undefined;
      if (res.status >= 200 && res.status < 300) {
        try {
          id = (JSON.parse(res.body) as { id?: string }).id;
        } catch {
          /* a 2xx without a body to read: counted as not acknowledged */
        }
      }
      this.ledger.writes.push({
        kind,
        sentAt,
        doneAt: Date.now(),
        status: res.status,
        id,
        error: res.error,
        gateway: to.replica,
        refusedBy,
      });
    } finally {
      this.inFlight--;
    }
  }

  /** Stops sending and waits for the writes in flight to be answered. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.running]);
    this.single?.agent.destroy();
  }
}
