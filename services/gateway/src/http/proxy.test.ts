import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CLIENT_IDLE_SOCKET_MS, SERVER_KEEP_ALIVE_MS } from '@travel/platform';
import { upstreamAgent } from './proxy';

// A request sent on a kept-alive socket just as the service closes it fails with ECONNRESET: the gateway
// must drop idle upstream sockets well before the services' keep-alive time-out does.
describe('the gateway’s upstream connections', () => {
  let server: Server;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    upstreamAgent.destroy();
    await new Promise((r) => server.close(r));
  });

  it('keeps an idle socket for less time than a service keeps the connection open', async () => {
    expect(CLIENT_IDLE_SOCKET_MS).toBeLessThan(SERVER_KEEP_ALIVE_MS / 2);
    const { port } = server.address() as AddressInfo;
    const socket = await new Promise<Socket>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', agent: upstreamAgent }, (res) => {
        res.resume();
        res.on('end', () => setImmediate(() => resolve(req.socket as Socket)));
      });
      req.on('error', reject);
      req.end();
    });
    const free = Object.values(upstreamAgent.freeSockets).flat();
    expect(free).toContain(socket);
    // The agent arms the idle time-out on the socket when it goes back to the pool.
    expect(socket.timeout).toBe(CLIENT_IDLE_SOCKET_MS);
  });
});
