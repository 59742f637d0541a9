import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CLIENT_IDLE_SOCKET_MS, SERVER_KEEP_ALIVE_MS } from '@travel/platform';
import { upstreamPool } from './proxy';

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
