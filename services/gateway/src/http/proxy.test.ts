import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CLIENT_IDLE_SOCKET_MS, SERVER_KEEP_ALIVE_MS } from '@travel/platform';
import { forward, upstreamPool } from './proxy';

// A request sent on a kept-alive socket just as the service closes it fails with ECONNRESET: the gateway
// must drop idle upstream sockets well before the services' keep-alive time-out does, whatever time-out
// the service's Keep-Alive header offers.
describe('the gateway’s upstream connections', () => {
  let server: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
    server.on('connection', (socket) => sockets.push(socket));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('keeps an idle socket for less time than a service keeps the connection open', async () => {
    expect(CLIENT_IDLE_SOCKET_MS).toBeLessThan(SERVER_KEEP_ALIVE_MS / 2);
    const idleMs = 300;
    const pool = upstreamPool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, idleMs);
    try {
      const answer = await pool.request({ path: '/', method: 'GET' });
      expect(await answer.body.text()).toBe('ok');
      const socket = sockets.at(-1)!;
      const started = Date.now();
      // The client (the gateway) ends the idle connection: the service sees the end of its stream.
      await new Promise<void>((resolve) => socket.once('end', () => resolve()));
      const idle = Date.now() - started;
      expect(idle).toBeGreaterThanOrEqual(idleMs - 50);
      expect(idle).toBeLessThan(SERVER_KEEP_ALIVE_MS / 2);
    } finally {
      await pool.close();
    }
  });
});

describe('forward: the answer relayed as the service sent it', () => {
  const big = Buffer.alloc(1024 * 1024 + 7, 'x');
  let service: Server;
  let gateway: Server;
  let seen: Record<string, string | string[] | undefined> = {};
  beforeAll(async () => {
    service = createServer((req, res) => {
      seen = req.headers;
      const body = req.url === '/big' ? big : Buffer.from('{"ok":true}');
      res.writeHead(200, {
        'content-type': 'application/json',
        link: '</next>; rel="next"',
        'proxy-status': 'service',
      });
      res.end(body);
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    gateway = createServer((req, res) =>
      forward(
        req,
        res,
        { baseUrl, target: req.url!, context: 'ctx', requestId: 'req-1' },
        { answered: () => undefined, failed: () => res.writeHead(503).end() },
        () => ({ link: '</changelog>; rel="deprecation"' }),
      ),
    );
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => gateway.close(r));
    await new Promise((r) => service.close(r));
  });
  const url = (path: string) => `http://127.0.0.1:${(gateway.address() as AddressInfo).port}${path}`;

  it('sends the context and request id, never the partner’s credentials; drops hop-by-hop answer headers', async () => {
    const res = await fetch(url('/small'), {
      headers: { authorization: 'Bearer secret', 'x-api-key': 'k', 'x-custom': 'kept' },
    });
    expect(await res.text()).toBe('{"ok":true}');
    expect(seen['x-internal-context']).toBe('ctx');
    expect(seen['x-request-id']).toBe('req-1');
    expect(seen['x-custom']).toBe('kept');
    expect(seen.authorization).toBeUndefined();
    expect(seen['x-api-key']).toBeUndefined();
    expect(res.headers.get('proxy-status')).toBeNull();
    expect(res.headers.get('link')).toBe('</next>; rel="next", </changelog>; rel="deprecation"');
  });

  it('streams an answer larger than one write intact', async () => {
    const res = await fetch(url('/big'));
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBe(big.length);
    expect(body.equals(big)).toBe(true);
  });
});
