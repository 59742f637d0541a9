import { createServer, type Server } from 'node:net';
import { acceptsConnections } from './reachable';

describe('acceptsConnections (the gateway readiness check of employees)', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('resolves when the address accepts a connection', async () => {
    await expect(acceptsConnections(`http://127.0.0.1:${port}`)).resolves.toBeUndefined();
  });

  it('rejects, naming the reason, when nothing listens there', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const free = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(acceptsConnections(`http://127.0.0.1:${free}`)).rejects.toThrow('ECONNREFUSED');
  });

  it('of a service’s replicas, resolves when any one accepts and rejects only when none does', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const free = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(acceptsConnections(`http://127.0.0.1:${free}, http://127.0.0.1:${port}`)).resolves.toBeUndefined();
    await expect(acceptsConnections(`http://127.0.0.1:${free},http://127.0.0.1:${free}`)).rejects.toThrow(
      'ECONNREFUSED, ECONNREFUSED',
    );
  });
});
