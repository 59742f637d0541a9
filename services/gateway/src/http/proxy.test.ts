import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CLIENT_IDLE_SOCKET_MS, SERVER_KEEP_ALIVE_MS, UpstreamList } from '@travel/platform';
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
        { upstream: new UpstreamList(baseUrl), target: req.url!, context: 'ctx', requestId: 'req-1' },
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

describe('forward: over a service’s replicas (docs/decisions/0214)', () => {
  const servers: Server[] = [];
  const served: string[] = [];
  let down: string;
  let gateway: string;
  const listen = async (server: Server) => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const replica = (name: string) =>
    listen(
      createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          served.push(`${name} ${req.method} ${body}`);
          res.end(name);
        });
      }),
    );
  beforeAll(async () => {
    const closed = createServer();
    down = await listen(closed);
    await new Promise((r) => closed.close(r));
    servers.pop();
    // Replica "a", a replica that refuses every connection (killed), replica "b".
    const upstream = new UpstreamList([await replica('a'), down, await replica('b')]);
    gateway = await listen(
      createServer((req, res) =>
        forward(
          req,
          res,
          { upstream, target: req.url!, context: 'ctx', requestId: 'r' },
          { answered: () => undefined, failed: () => res.writeHead(503).end() },
        ),
      ),
    );
  });
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
  });

  it('spreads requests in turn, sends a POST the refusing replica never saw to the next one, once', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(gateway, { method: 'POST', body: `p${i}` });
      expect(res.status).toBe(200);
      answers.push(await res.text());
    }
    // Turns: a, then the refusing one (the POST goes on to b), then only a and b in turn while it is skipped.
    expect(answers).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    expect(served).toEqual(['a POST p0', 'b POST p1', 'a POST p2', 'b POST p3', 'a POST p4', 'b POST p5']);
  });
});

describe('forward: a request with `Content-Length: 0` under the one body rule (0232): the service sees what it saw before', () => {
  let service: Server;
  let gateway: Server;
  let connections = 0;
  const seen: Array<{ method: string; length: string | undefined; body: string }> = [];
  beforeAll(async () => {
    service = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method!, length: req.headers['content-length'], body });
        res.end('ok');
      });
    });
    service.on('connection', () => (connections += 1));
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    const upstream = new UpstreamList(`http://127.0.0.1:${(service.address() as AddressInfo).port}`);
    gateway = createServer((req, res) =>
      forward(
        req,
        res,
        { upstream, target: req.url!, context: 'ctx', requestId: 'r' },
        { answered: () => undefined, failed: () => res.writeHead(503).end() },
      ),
    );
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => gateway.close(r));
    await new Promise((r) => service.close(r));
  });
  const send = (method: string) =>
    new Promise<number>((resolve, reject) => {
      const port = (gateway.address() as AddressInfo).port;
      request({ host: '127.0.0.1', port, method, path: '/x', headers: { 'content-length': '0' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      })
        .on('error', reject)
        .end();
    });

  it('GETs go without a body on one kept-alive connection; a POST keeps its length of 0', async () => {
    for (let i = 0; i < 3; i++) expect(await send('GET')).toBe(200);
    expect(await send('POST')).toBe(200);
    expect(seen).toEqual([
      { method: 'GET', length: undefined, body: '' },
      { method: 'GET', length: undefined, body: '' },
      { method: 'GET', length: undefined, body: '' },
      { method: 'POST', length: '0', body: '' },
    ]);
    // Three GETs and a POST one after the other: one connection to the service, kept alive.
    expect(connections).toBe(1);
  });
});
