// SSRF defence: registration refuses every non-public destination; dispatch re-checks, connects only
// to the address it checked, and never follows a redirect.
import { startHarness, verified, type Harness } from './support/harness';

describe('webhook destinations', () => {
  let h: Harness;
  let answer = '127.0.0.1';
  beforeAll(async () => {
    // `hooks.partner.test` exists only in this resolver: the test plays its DNS answers.
    h = await startHarness(
      'ssrf',
      {},
      {
        resolve: async (host) => {
          if (host === 'hooks.partner.test') return [{ address: answer, family: answer.includes(':') ? 6 : 4 }];
          if (host === 'split.partner.test')
            return [
              { address: '127.0.0.1', family: 4 },
              { address: '10.0.0.7', family: 4 },
            ];
          if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
        },
      },
    );
  });
  afterAll(async () => {
    await h?.stop();
  });

  const register = (url: string, eventTypes: unknown = ['employee.created']) =>
    h.api('POST', '/api/v1/webhooks', { url, eventTypes });

  it.each([
    ['plain HTTP', 'http://hooks.partner.test/x'],
    ['credentials in the URL', 'https://user:pw@hooks.partner.test/x'],
    ['not a URL', 'hooks.partner.test/x'],
    ['RFC 1918 10/8', 'https://10.1.2.3/x'],
    ['RFC 1918 172.16/12', 'https://172.20.0.1/x'],
    ['RFC 1918 192.168/16', 'https://192.168.0.10/x'],
    ['link-local / cloud metadata', 'https://169.254.169.254/latest/meta-data'],
    ['CGNAT', 'https://100.64.1.1/x'],
    ['this network', 'https://0.0.0.0/x'],
    ['loopback outside the allowed /32', 'https://127.0.0.2/x'],
    ['IPv6 loopback', 'https://[::1]/x'],
    ['IPv6 unique-local', 'https://[fd00::1]/x'],
    ['IPv6 link-local', 'https://[fe80::1]/x'],
    ['IPv4-mapped IPv6', 'https://[::ffff:10.0.0.1]/x'],
    ['a name with a private answer among public ones', 'https://split.partner.test/x'],
    ['a name that does not resolve', 'https://nowhere.partner.test/x'],
  ])('refuses %s at registration (400, errors.url)', async (_what, url) => {
    const res = await register(url);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(res.body.errors)).toEqual(['url']);
  });

  it.each([
    ['empty', []],
    ['unknown', ['entry.deleted']],
    ['duplicated', ['entry.created', 'entry.created']],
  ])('refuses %s event types (400, errors.eventTypes)', async (_what, eventTypes) => {
    const res = await register('https://hooks.partner.test/x', eventTypes);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)[0]).toMatch(/^eventTypes/);
  });

  it('connects to the address it checked (the name resolves only here), with TLS verified for the name', async () => {
    answer = '127.0.0.1';
    const r = await h.receiver();
    const s = await h.register(`https://hooks.partner.test:${r.port}/hooks`);
    await h.publish();
    const [d] = await h.settled(s.id, 1);
    expect(d.status).toBe('Succeeded');
    expect(r.requests[0]!.headers.host).toBe(`hooks.partner.test:${r.port}`);
    verified(r.requests[0]!, s.signingSecret);
  });

  it('does not contact a host whose DNS answer turned private after registration', async () => {
    answer = '127.0.0.1';
    const r = await h.receiver();
    const s = await h.register(`https://hooks.partner.test:${r.port}/hooks`);
    answer = '10.0.0.5';
    await h.publish();
    const [d] = await h.settled(s.id, 1);
    const full = (await h.api('GET', `/api/v1/webhooks/${s.id}/deliveries/${d.deliveryId}`)).body;
    expect(full.status).toBe('Failed');
    expect(full.attemptLog[0].error).toMatch(/10\.0\.0\.5.*not a public address/);
    expect(r.requests).toHaveLength(0);
    answer = '127.0.0.1';
  });

  it('does not follow a redirect, even to an allowed address', async () => {
    const target = await h.receiver();
    const r = (await h.receiver()).replyAlways({ status: 307, headers: { location: target.url } });
    const s = await h.register(r.url);
    await h.publish();
    const [d] = await h.settled(s.id, 1);
    expect(d).toMatchObject({ status: 'Failed', lastStatusCode: 307 });
    expect(target.requests).toHaveLength(0);
  });
});
