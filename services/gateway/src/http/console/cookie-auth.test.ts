// The console's session through the gateway app itself: a fake key resolver and a fake upstream that records
// what reaches it. The cookie stands for its key on /api/v1; changes need the CSRF token from this origin.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, createLogger, generateSigningKey, listen, Metrics, privateKeyFromText } from '@travel/platform';
import { RateLimiter } from '../../domain/rate-limit';
import { UPSTREAMS, type Upstream } from '../../domain/routes';
import { createGatewayApp } from '../app';
import type { KeyResolver, ResolvedCaller } from '../../infra/key-resolver';
import { SessionSeal } from '../../domain/console-session';
import type { ConsoleSessionRecords } from '../../app/console-session-liveness';

const KEY = 'tek_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const caller = { tenantId: 't1', apiKeyId: 'k1', employeeId: 'e1', permissions: [] } as unknown as ResolvedCaller;
const resolver = { resolve: async (key: string) => (key === KEY ? caller : null) } as unknown as KeyResolver;

/** The session store every replica of these tests shares (the employees service's, in production). */
const live = new Map<string, { apiKeyId: string; expiresAt: string }>();
const records: ConsoleSessionRecords = {
  record: async (id, record) => void live.set(id, record),
  isLive: async (id) => live.has(id),
  end: async (id) => void live.delete(id),
};
const ID = '0b7c2a4e-5f1d-4c3b-9a8e-7d6c5b4a3f21';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

const signingKey = privateKeyFromText(generateSigningKey().privateKey);

describe('the console session at the gateway', () => {
  const seen: Seen[] = [];
  let upstream: Server;
  let gateway: Server;
  let base: string;
  let now = Date.now();

  /** A gateway replica; `cacheMs`: how long it trusts a live session before asking the store again. */
  function start(trustedProxyHops = 0, cacheMs = 60_000): Promise<Server> {
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const app = createGatewayApp({
      logger: createLogger('gateway', 'silent'),
      metrics: new Metrics('gateway'),
      resolver,
      upstreams: Object.fromEntries(UPSTREAMS.map((u) => [u, upstreamUrl])) as Record<Upstream, string>,
      signingKey,
      limiter: new RateLimiter(1000, 1000),
      authFailures: new RateLimiter(1000, 1000),
      trustedProxyHops,
      consoleSeal: new SessionSeal(signingKey, 60_000, () => now),
      consoleRecords: records,
      consoleSessionCacheMs: cacheMs,
    });
    return listen(app, 0, '127.0.0.1');
  }

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    gateway = await start();
    base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => gateway.close(r));
    await new Promise((r) => upstream.close(r));
  });
  beforeEach(() => {
    seen.length = 0;
    now = Date.now();
  });

  const signIn = async (url = base, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, 'sec-fetch-site': 'same-origin', ...headers },
      body: JSON.stringify({ apiKey: KEY }),
    });
    const setCookie = res.headers.get('set-cookie') ?? '';
    return { res, setCookie, cookie: setCookie.split(';')[0]!, body: (await res.json()) as any };
  };

  it('records the session at sign-in, under the id sealed in the cookie, with the key id (never the key)', async () => {
    const before = new Set(live.keys());
    const { res } = await signIn();
    expect(res.status).toBe(201);
    const added = [...live.entries()].filter(([id]) => !before.has(id));
    expect(added).toEqual([
      [expect.stringMatching(/^[\w-]{22}$/), { apiKeyId: 'k1', expiresAt: new Date(now + 60_000).toISOString() }],
    ]);
  });

  it('signs in with a valid key: an httpOnly, SameSite=Strict cookie for the whole site, not Secure over http', async () => {
    const { res, setCookie, body } = await signIn();
    expect(res.status).toBe(201);
    expect(body).toEqual({ csrfToken: expect.any(String), expiresAt: new Date(now + 60_000).toISOString() });
    expect(setCookie).toMatch(/^te_console=[\w-]+; Path=\/; Expires=.+; HttpOnly; SameSite=Strict$/);
    expect(setCookie).not.toContain(KEY);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('marks the cookie Secure when the browser came over HTTPS (through the trusted ingress)', async () => {
    const behind = await start(1);
    try {
      const url = `http://127.0.0.1:${(behind.address() as AddressInfo).port}`;
      const { setCookie } = await signIn(url, { 'x-forwarded-proto': 'https' });
      expect(setCookie).toMatch(/; Secure/);
    } finally {
      await new Promise((r) => behind.close(r));
    }
  });

  it.each<[string, RequestInit, number]>([
    ['an unknown key', { body: JSON.stringify({ apiKey: KEY.replace('0', '1') }) }, 401],
    ['no key', { body: '{}' }, 400],
    ['malformed JSON', { body: '{"apiKey":' }, 400],
    ['a body over 2 kB', { body: JSON.stringify({ apiKey: KEY, pad: 'x'.repeat(3000) }) }, 413],
    [
      'a form instead of JSON',
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `apiKey=${KEY}` },
      400,
    ],
    [
      'a page of another site',
      {
        headers: { 'content-type': 'application/json', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      },
      403,
    ],
  ])('refuses a sign-in with %s, and sets no cookie', async (_name, init, status) => {
    const res = await fetch(`${base}/console/session`, {
      method: 'POST',
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
      body: init.body ?? JSON.stringify({ apiKey: KEY }),
    });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('the cookie reads /api/v1 as its key does; neither the cookie nor the token reaches the service', async () => {
    const { cookie, body } = await signIn();
    const res = await fetch(`${base}/api/v1/webhooks`, {
      headers: { cookie: `${cookie}; theme=dark`, 'x-csrf-token': body.csrfToken },
    });
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.cookie).toBe('theme=dark');
    expect(seen[0]!.headers['x-csrf-token']).toBeUndefined();
    expect(seen[0]!.headers['x-internal-context']).toBeDefined();
  });

  it.each<[string, (token: string) => Record<string, string>]>([
    ['without the token', () => ({})],
    ['with a wrong token', (t) => ({ 'x-csrf-token': t.slice(1) + 'x' })],
    ['from a page of another site', (t) => ({ 'x-csrf-token': t, 'sec-fetch-site': 'cross-site' })],
  ])('a read with the cookie %s is 403 and reaches no service', async (_name, extra) => {
    const { cookie, body } = await signIn();
    for (const path of ['/webhooks', `/webhooks/${ID}/deliveries`, '/company']) {
      const res = await fetch(`${base}/api/v1${path}`, { headers: { cookie, ...extra(body.csrfToken) } });
      expect([path, res.status, ((await res.json()) as any).code]).toEqual([path, 403, 'FORBIDDEN']);
    }
    expect(seen).toHaveLength(0);
  });

  it.each<[string, string]>([
    ['GET', `/payouts/${ID}/payment-file?debtorIban=CZ6508000000192000145399`],
    ['POST', `/payouts/${ID}/sent-to-bank`],
    ['GET', '/employees'],
    ['POST', '/api-keys'],
    ['GET', '/travel-entries'],
    ['DELETE', `/api-keys/${ID}`],
  ])(
    "a cookie request outside the console's operations (%s %s) is 403 and reaches no service",
    async (method, path) => {
      const { cookie, body } = await signIn();
      const headers = { cookie, 'x-csrf-token': body.csrfToken, origin: base, 'sec-fetch-site': 'same-origin' };
      const res = await fetch(`${base}/api/v1${path}`, { method, headers });
      const answer = (await res.json()) as any;
      expect([res.status, answer.code]).toEqual([403, 'FORBIDDEN']);
      expect(answer.detail).toMatch(/reaches only the console's own operations/);
      expect(seen).toHaveLength(0);
      // The same request with the key itself is the key's to make.
      const withKey = await fetch(`${base}/api/v1${path}`, { method, headers: { authorization: `Bearer ${KEY}` } });
      expect(withKey.status).toBe(200);
      expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`${method} /api/v1${path}`]);
    },
  );

  it('GET /console/session gives the token to the page of a signed-in browser only', async () => {
    const { cookie, body } = await signIn();
    const mine = await fetch(`${base}/console/session`, { headers: { cookie } });
    expect(await mine.json()).toEqual(body);
    expect((await fetch(`${base}/console/session`)).status).toBe(401);
  });

  it('a change with the cookie and the token, from this origin, goes through', async () => {
    const { cookie, body } = await signIn();
    const res = await fetch(`${base}/api/v1/webhooks/w1/recover`, {
      method: 'POST',
      headers: {
        cookie,
        'x-csrf-token': body.csrfToken,
        origin: base,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
      },
      body: '{"since":"2026-11-20T08:00:00Z"}',
    });
    expect(res.status).toBe(200);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /api/v1/webhooks/w1/recover']);
  });

  it.each<[string, (token: string) => Record<string, string>]>([
    ['without the token', () => ({})],
    ['with a wrong token', (t) => ({ 'x-csrf-token': t.slice(1) + 'x' })],
    [
      'with the token from another origin',
      (t) => ({ 'x-csrf-token': t, origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site' }),
    ],
  ])('a change with the cookie %s is 403 and reaches no service', async (_name, extra) => {
    const { cookie, body } = await signIn();
    for (const [method, path] of [
      ['POST', '/webhooks/w1/recover'],
      ['DELETE', '/webhooks/w1'],
    ] as const) {
      const res = await fetch(`${base}/api/v1${path}`, { method, headers: { cookie, ...extra(body.csrfToken) } });
      expect([method, res.status]).toEqual([method, 403]);
      expect(((await res.json()) as any).code).toBe('FORBIDDEN');
    }
    expect(seen).toHaveLength(0);
  });

  it('a cross-site form post with the cookie is refused', async () => {
    const { cookie } = await signIn();
    const res = await fetch(`${base}/api/v1/webhooks/w1/deliveries/d1/retry`, {
      method: 'POST',
      headers: {
        cookie,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'x=1',
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).detail).toMatch(/cross-site/);
    expect(seen).toHaveLength(0);
  });

  it('an API-key call is unchanged: no token asked, whatever cookie it carries', async () => {
    const { cookie } = await signIn();
    const res = await fetch(`${base}/api/v1/webhooks/w1/recover`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, cookie, 'content-type': 'application/json' },
      body: '{"since":"2026-11-20T08:00:00Z"}',
    });
    expect(res.status).toBe(200);
    expect(seen[0]!.headers.cookie).toBeUndefined();
  });

  it('an expired session is 401 on /api/v1 and on /console/session', async () => {
    const { cookie } = await signIn();
    now += 60_000;
    const res = await fetch(`${base}/api/v1/webhooks`, { headers: { cookie } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).detail).toMatch(/sign in again/);
    expect((await fetch(`${base}/console/session`, { headers: { cookie } })).status).toBe(401);
    expect(seen).toHaveLength(0);
  });

  it('signs out with the token: the cookie is cleared; without the token it is 403', async () => {
    const { cookie, body } = await signIn();
    expect((await fetch(`${base}/console/session`, { method: 'DELETE', headers: { cookie } })).status).toBe(403);
    const out = await fetch(`${base}/console/session`, {
      method: 'DELETE',
      headers: { cookie, 'x-csrf-token': body.csrfToken, origin: base },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(
      /^te_console=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict$/,
    );
  });

  it('sign-out ends the session on the server: a copy of the cookie is dead on this replica and on another', async () => {
    // Another replica that asks the store on every request (API_KEY_CACHE_MS=0); the window's own bound is
    // the liveness cache's unit test.
    const other = await start(0, 0);
    const otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const { cookie, body } = await signIn();
      const read = (url: string) =>
        fetch(`${url}/api/v1/webhooks`, { headers: { cookie, 'x-csrf-token': body.csrfToken } });
      expect([(await read(base)).status, (await read(otherBase)).status]).toEqual([200, 200]);
      const out = await fetch(`${base}/console/session`, {
        method: 'DELETE',
        headers: { cookie, 'x-csrf-token': body.csrfToken, origin: base },
      });
      expect(out.status).toBe(204);
      seen.length = 0;
      for (const url of [base, otherBase]) {
        const res = await read(url);
        expect([url, res.status, ((await res.json()) as any).detail]).toEqual([
          url,
          401,
          'The console session has ended; sign in again.',
        ]);
        expect((await fetch(`${url}/console/session`, { headers: { cookie } })).status).toBe(401);
      }
      expect(seen).toHaveLength(0);
    } finally {
      await new Promise((r) => other.close(r));
    }
  });

  it('a sign-in whose session cannot be recorded is 503 and sets no cookie', async () => {
    const record = records.record;
    records.record = async () => {
      throw new AppError('SERVICE_UNAVAILABLE', 'The employees service did not answer; try again.');
    };
    try {
      const { res, setCookie } = await signIn();
      expect(res.status).toBe(503);
      expect(setCookie).toBe('');
    } finally {
      records.record = record;
    }
  });
});
