import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTEXT_HEADER, verifyContext } from '../context';
import { generateSigningKey, keyringText, parseKeyring, privateKeyFromText } from '../context-keys';
import { AppError } from '../errors';
import { InternalClient, tenantPath } from './internal-client';

const entries = generateSigningKey();
const signingKey = privateKeyFromText(entries.privateKey);
/** The target, employees, trusts entries. */
const trust = { audience: 'employees', keyring: parseKeyring(keyringText({ entries: entries.publicKey })) };

describe('InternalClient', () => {
  let server: Server;
  let baseUrl: string;
  const seen: { method?: string; url?: string; context?: unknown; body?: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({
          method: req.method,
          url: req.url,
          context: verifyContext(String(req.headers[CONTEXT_HEADER]), trust),
          body,
        });
        const status = req.url?.includes('missing') ? 404 : req.url?.includes('broken') ? 500 : 200;
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: status === 200 }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const client = () => new InternalClient({ baseUrl, signingKey, caller: 'entries', target: 'employees' });

  it('calls /internal with a service context signed by the caller and addressed to the target, segments encoded', async () => {
    await client().send('POST', tenantPath('t/1', 'employees', 'a b'), { x: 1 });
    const last = seen.at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.url).toBe('/internal/tenants/t%2F1/employees/a%20b');
    expect(last.body).toBe('{"x":1}');
    expect(last.context).toMatchObject({ kind: 'service', service: 'entries', audience: 'employees' });
  });

  it('reads 200 as found and 404 as not found', async () => {
    await expect(client().exists('/tenants/t/employees/present')).resolves.toBe(true);
    await expect(client().exists('/tenants/t/employees/missing')).resolves.toBe(false);
    await expect(client().getOrNull('/tenants/t/employees/present')).resolves.toEqual({ ok: true });
    await expect(client().getOrNull('/tenants/t/employees/missing')).resolves.toBeNull();
  });

  it('turns a failing or unreachable target into 503 SERVICE_UNAVAILABLE naming it, never a wrong answer', async () => {
    const failing = client().exists('/tenants/t/employees/broken');
    await expect(failing).rejects.toBeInstanceOf(AppError);
    await expect(failing).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringMatching(/employees.*500/),
    });
    const gone = new InternalClient({
      baseUrl: 'http://127.0.0.1:9',
      signingKey,
      caller: 'fleet',
      target: 'employees',
    });
    await expect(gone.getOrNull('/x')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('over a service’s replicas: in turn, and a call a refusing replica never saw goes to the next one, once', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const down = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((r) => closed.close(r));
    const replicas = new InternalClient({
      baseUrl: `${down},${baseUrl}`,
      signingKey,
      caller: 'entries',
      target: 'employees',
    });
    const before = seen.length;
    await expect(replicas.postJson('/tenants/t/employees/posted', { n: 1 })).resolves.toEqual({ ok: true });
    await expect(replicas.postJson('/tenants/t/employees/posted', { n: 2 })).resolves.toEqual({ ok: true });
    expect(seen.slice(before).map((s) => s.body)).toEqual(['{"n":1}', '{"n":2}']);
  });
});
