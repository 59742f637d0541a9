// The ceiling of a Node hop (issue 25): the least a proxy in Node can do, to set beside the gateway over the
// same bare express. A plain node:http server and one keep-alive upstream agent of the gateway's size; the
// request's method, path and headers go upstream as they came, the answer comes back piped. No express, no
// key check, no limits, no header filtering: what two Node HTTP hops cost on this machine, and nothing else.
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startMinimalProxy(upstreamUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const { hostname, port } = new URL(upstreamUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server: Server = createServer((req, res) => {
    const upstream = request(
      { hostname, port, path: req.url, method: req.method, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined)
      req.pipe(upstream);
    else upstream.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
