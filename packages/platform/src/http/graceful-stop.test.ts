// The API port's part of a shutdown (decision 0216): readiness fails first, the port keeps answering for
// the readiness pause, a request in flight finishes, and every answer from then on closes its connection.
import { Agent, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from './app';
import { closeServer } from './drain';
import { GracefulStop } from './graceful-stop';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('GracefulStop', () => {
  let server: Server;
  let url: string;
  const agent = new Agent({ keepAlive: true });

  beforeEach(async () => {
    // Every answer takes 300 ms: long enough to be in flight when the stop begins.
    server = await listen(
      (req, res) => {
        setTimeout(() => res.end(`done ${req.url}`), 300);
      },
      0,
      '127.0.0.1',
    );
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => closeServer(server));
  afterAll(() => agent.destroy());

  const get = (path: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(`${url}${path}`, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  // A timer counts from the event loop's cached time, taken when the loop's turn began and truncated to
  // the millisecond, so it can fire a little before N ms of real time have passed (CI saw 799 for 800).
  // The slack is far below the 300 ms answer that tells a pause from none.
  const since = (start: number) => performance.now() - start;
  const TIMER_SLACK_MS = 20;

  it('fails readiness at once, answers the request in flight with Connection: close, then closes the port', async () => {
    const stop = new GracefulStop({ readinessPauseMs: 0, drainTimeoutMs: 5_000 });
    await expect(stop.readiness()).resolves.toBeUndefined();
    const inFlight = get('/in-flight');
    await new Promise((resolve) => setTimeout(resolve, 100));

    const closed = stop.closeApi(server);
    await expect(stop.readiness()).rejects.toThrow('shutting down');
    const answer = await inFlight;
    expect(answer).toMatchObject({ status: 200, body: 'done /in-flight' });
    // The client does not keep a socket the server is closing.
    expect(answer.headers.connection).toBe('close');
    await closed;
    await expect(get('/after')).rejects.toThrow(/ECONNREFUSED/);
    await expect(stop.readiness()).rejects.toThrow('shutting down');
  });

  it('keeps answering for the readiness pause, each answer closing its connection', async () => {
    const stop = new GracefulStop({ readinessPauseMs: 800, drainTimeoutMs: 5_000 });
    const start = performance.now();
    const closed = stop.closeApi(server);
    await expect(stop.readiness()).rejects.toThrow('shutting down');
    // A load balancer that has not noticed yet still gets its answer.
    const duringPause = await get('/during-pause');
    expect(duringPause).toMatchObject({ status: 200, body: 'done /during-pause' });
    expect(duringPause.headers.connection).toBe('close');
    await closed;
    // The pause, then the port closed.
    expect(since(start)).toBeGreaterThanOrEqual(800 - TIMER_SLACK_MS);
    await expect(get('/after')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('cuts a request that outlasts the drain time-out, so the process exits within its grace period', async () => {
    const stop = new GracefulStop({ readinessPauseMs: 0, drainTimeoutMs: 100 });
    const start = performance.now();
    const cut = get('/too-long').then(
      () => 'answered',
      (err: Error) => err.message,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await stop.closeApi(server);
    expect(since(start)).toBeLessThan(300);
    expect(await cut).toMatch(/socket hang up|ECONNRESET/);
  });
});
