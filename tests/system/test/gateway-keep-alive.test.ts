// The gateway's API port keeps idle connections as long as every server of ours (decision 0136): 65 s,
// above the 60 s an ingress or load balancer keeps idle upstream connections. With Node's default (5 s)
// a client that reuses its connection after 5 s meets a closed socket ("other side closed" on a POST).
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { startE2eStack, type E2eStack } from './support/stack';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Sent on a connection the client had used before. */
  reused: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the gateway keeps idle connections for 65 s', () => {
  let stack: E2eStack;
  let key: string;

  beforeAll(async () => {
    stack = await startE2eStack('gateway-keep-alive');
    key = (await stack.tenant('SI')).apiKey;
  });
  afterAll(() => stack?.stop());

  /** One client connection: an agent with one socket that it keeps however long it is idle. */
  function connection() {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: object) =>
      new Promise<Answer>((resolve, reject) => {
        const req = request(
          `${stack.gateway.url}/api/v1/employees`,
          {
            method: 'POST',
            agent,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, reused: req.reusedSocket }));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(body));
      });
    return { post, close: () => agent.destroy() };
  }

  /** A POST, `idleMs` of silence, then a POST on the same connection. */
  async function postAfterIdle(idleMs: number): Promise<[Answer, Answer]> {
    const client = connection();
    try {
      const first = await client.post({ firstName: 'Kept', lastName: `Before${idleMs}` });
      await sleep(idleMs);
      return [first, await client.post({ firstName: 'Kept', lastName: `After${idleMs}` })];
    } finally {
      client.close();
    }
  }

  it('announces timeout=65 and takes a POST on a connection idle for 4.5 s, 6 s and 60 s', async () => {
    // Side by side: the file waits about 60 s in all.
    const runs = await Promise.all([4_500, 6_000, 60_000].map((idleMs) => postAfterIdle(idleMs)));
    for (const [first, second] of runs) {
      expect(first).toMatchObject({ status: 201, reused: false });
      expect(first.headers['keep-alive']).toBe('timeout=65');
      // The same socket, still open on the gateway's side: the POST is answered, not cut off.
      expect(second).toMatchObject({ status: 201, reused: true });
      expect(second.headers['keep-alive']).toBe('timeout=65');
    }
  }, 90_000);
});
