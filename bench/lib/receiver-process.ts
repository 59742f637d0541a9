// The benchmark's webhook receiver: one process, two HTTPS listeners on 127.0.0.1 with the test CA's
// certificate. The healthy one serves every subscription URL by path (/b/<step>/<sub>) and answers 200
// as soon as the body is in; the hanging one (/hang/<step>, a different port, as a different partner
// would be) reads the request and never answers. A slow subscription (/s/<step>/<sub> on the healthy
// listener) is answered BENCH_SLOW_MS (default 250) after its body is in, as a partner doing work first. Each request is recorded with its arrival time and the
// envelope's createdAt and streamed to the parent over IPC in batches. For a step whose signing secrets
// the parent sent ({ type: 'secrets', step, secrets }), each request is also verified with the receiver
// SDK (@travel/webhook-verify's verify(): signature, replay window, headers against the envelope) before
// the answer, as a partner's receiver would, and the row says whether it verified.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureTestTls } from '../../packages/testkit/src/tls';
import { verify } from '../../packages/webhook-verify/src';
import type { Arrival, ReceiverMessage } from './protocol';

const tlsDir = process.env.BENCH_TLS_DIR;
if (!tlsDir) throw new Error('BENCH_TLS_DIR is required');
const tls = ensureTestTls(tlsDir);
let pending: Arrival[] = [];
/** TLS connections accepted so far, by listener: keep-alive reuse shows as far fewer than requests. */
const connections = { healthy: 0, hanging: 0 };
/** Signing secrets by step, indexed by subscription path number. */
const secrets = new Map<number, string[]>();
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 250);

function record(req: IncomingMessage, body: Buffer, at: number): void {
  const parts = (req.url ?? '').split('/');
  const hanging = parts[1] === 'hang';
  const step = Number(parts[2]);
  const sub = hanging ? -1 : Number(parts[3]);
  const secret = secrets.get(step)?.[sub];
  let createdAt = NaN;
  const row: Arrival = [step, sub, String(req.headers['svc-event-id'] ?? ''), at, createdAt];
  if (secret !== undefined) {
    try {
      const { envelope } = verify(body, req.headers as Record<string, string>, secret);
      row[4] = Date.parse(envelope.createdAt);
      row[5] = 1;
      row[6] = String((envelope.data as { id?: unknown }).id ?? '');
    } catch {
      row[5] = 0;
    }
  }
  if (row[5] !== 1) {
    try {
      createdAt = Date.parse((JSON.parse(body.toString('utf8')) as { createdAt: string }).createdAt);
    } catch {
      /* recorded as NaN: counted as a malformed delivery by the parent */
    }
    row[4] = createdAt;
  }
  pending.push(row);
}

function handler(hang: boolean) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      record(req, Buffer.concat(chunks), at);
      if (hang) return;
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      };
      if (req.url?.startsWith('/s/')) setTimeout(answer, SLOW_MS);
      else answer();
    });
  };
}

async function listen(hang: boolean): Promise<Server> {
  const server = createServer({ cert: tls.cert, key: tls.key }, handler(hang));
  server.on('secureConnection', () => void connections[hang ? 'hanging' : 'healthy']++);
  // Like a partner behind a load balancer: idle connections are kept longer than the sender's pool keeps them.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function flush(): void {
  if (pending.length === 0) return;
  const rows = pending;
  pending = [];
  process.send?.({ type: 'arrivals', rows } satisfies ReceiverMessage);
}

async function main(): Promise<void> {
  const healthy = await listen(false);
  const hanging = await listen(true);
  const timer = setInterval(flush, 100);
  process.on('message', (msg: { type: string; token?: number }) => {
    if (msg.type === 'secrets') {
      const m = msg as unknown as { step: number; secrets: string[] };
      secrets.set(m.step, m.secrets);
      process.send?.({ type: 'secrets-set' } satisfies ReceiverMessage);
    }
    if (msg.type === 'flush') {
      flush();
      process.send?.({ type: 'flushed', token: msg.token ?? 0, connections } satisfies ReceiverMessage);
    }
    if (msg.type === 'stop') {
      clearInterval(timer);
      flush();
      for (const s of [healthy, hanging]) s.closeAllConnections();
      setTimeout(() => process.exit(0), 50);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({
    type: 'ready',
    healthyPort: (healthy.address() as AddressInfo).port,
    hangingPort: (hanging.address() as AddressInfo).port,
    pid: process.pid,
  } satisfies ReceiverMessage);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
