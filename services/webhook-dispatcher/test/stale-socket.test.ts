// A partner's server may close an idle keep-alive connection at the moment the dispatcher sends on it.
// The request then fails before any answer; it is sent once more on a new connection, and counts as one
// attempt. A failure on a new connection is the partner's and is not replayed.
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../../../packages/testkit/src/infra/infra';
import { ensureTestTls } from '../../../packages/testkit/src/tls';
import { HttpsSender } from '../src/infra/https-sender';

type Behaviour = (requestOnConnection: number) => 'answer' | 'close';

describe('a delivery on a connection the partner just closed', () => {
  const tls = ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'));
  let server: Server;
  let behaviour: Behaviour = () => 'answer';
  let requests = 0;
  let connections = 0;
  const perSocket = new WeakMap<Socket, number>();
  let sender: HttpsSender;

  beforeAll(async () => {
    server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
      requests++;
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      req.resume();
      req.on('end', () => {
        if (behaviour(n) === 'close') req.socket.destroy();
        else res.end('ok');
      });
    });
    server.on('secureConnection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  beforeEach(() => {
    requests = 0;
    connections = 0;
    sender = new HttpsSender(5_000);
  });
  afterEach(() => sender.close());
  afterAll(async () => new Promise((r) => server.close(r)));

  const destination = () => {
    const { port } = server.address() as AddressInfo;
    return { url: new URL(`https://localhost:${port}/hooks`), address: '127.0.0.1', family: 4 as const };
  };
  const send = () => sender.send(destination(), Buffer.from('{}'), { 'content-type': 'application/json' });

  it('is sent again on a new connection and succeeds', async () => {
    // The first request of a connection is answered; the next one on it meets a closing connection.
    behaviour = (n) => (n === 1 ? 'answer' : 'close');
    expect((await send()).statusCode).toBe(200);
    const second = await send();
    expect(second).toMatchObject({ statusCode: 200 });
    expect(second.error).toBeUndefined();
    expect(requests).toBe(3);
    expect(connections).toBe(2);
  });

  it('is not sent again when a new connection fails: that is the partner failing', async () => {
    behaviour = () => 'close';
    const result = await send();
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toBeDefined();
    expect(requests).toBe(1);
  });
});
