import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { notSent, parseUrlList, UpstreamList } from './upstream-list';

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe('UpstreamList: a service’s replicas as its callers see them (docs/decisions/0214)', () => {
  const servers: Server[] = [];
  const served: string[] = [];
  const replica = async (name: string, delayMs = 0): Promise<string> => {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        served.push(`${name} ${req.method} ${body}`);
        setTimeout(() => res.end(name), delayMs);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  beforeEach(() => (served.length = 0));
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
  });

  it('reads one URL or several separated by commas, blanks and trailing slashes ignored', () => {
    expect(parseUrlList('http://a:1')).toEqual(['http://a:1']);
    expect(parseUrlList(' http://a:1/ , http://b:2,, ')).toEqual(['http://a:1', 'http://b:2']);
    expect(() => new UpstreamList(' , ')).toThrow('no base URL');
  });

  it('spreads calls round robin: 6 calls over 3 replicas are 2 each, in turn', async () => {
    const urls = [await replica('a'), await replica('b'), await replica('c')];
    const list = new UpstreamList(urls.join(','));
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) answers.push(await list.send((u) => fetch(u).then((r) => r.text())));
    expect(answers).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('sends a POST that a replica refused to the next one, once, and tries the refusing one last for a while', async () => {
    let now = 1_000_000;
    const down = `http://127.0.0.1:${await closedPort()}`;
    const up = await replica('up');
    const list = new UpstreamList([down, up], 2000, () => now);
    const post = () => list.send((u) => fetch(u, { method: 'POST', body: 'pay' }).then((r) => r.text()));

    // First in turn is the one that refuses: the call lands on the other, and was served once.
    await expect(post()).resolves.toBe('up');
    expect(served).toEqual(['up POST pay']);
    // Within the skip window the refusing replica is tried last, whatever the turn.
    expect(list.order()).toEqual([up, down]);
    expect(list.order()).toEqual([up, down]);
    // After it, it is in the turn again.
    now += 2001;
    const turns = [list.order()[0], list.order()[0]];
    expect(turns.sort()).toEqual([down, up].sort());
  });

  it('does not send again what a replica received: a time-out or a reset after the request is the caller’s', async () => {
    const slow = await replica('slow', 500);
    const other = await replica('other');
    const list = new UpstreamList([slow, other]);
    const call = list.send((u) => fetch(u, { method: 'POST', body: 'once', signal: AbortSignal.timeout(100) }));
    await expect(call).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 600));
    expect(served).toEqual(['slow POST once']);
  });

  it('fails with the last refusal when no replica accepts', async () => {
    const list = new UpstreamList([`http://127.0.0.1:${await closedPort()}`, `http://127.0.0.1:${await closedPort()}`]);
    const err = await list.send((u) => fetch(u)).catch((e: unknown) => e);
    expect(notSent(err)).toBe(true);
  });

  it('counts only failures of the connection as not sent', () => {
    expect(notSent(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }))).toBe(true);
    expect(notSent({ code: 'UND_ERR_CONNECT_TIMEOUT' })).toBe(true);
    expect(notSent({ code: 'ECONNRESET' })).toBe(false);
    expect(notSent({ code: 'UND_ERR_HEADERS_TIMEOUT' })).toBe(false);
    expect(notSent(new Error('aborted'))).toBe(false);
  });
});
