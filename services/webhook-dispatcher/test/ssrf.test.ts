// SSRF defence: registration refuses every non-public destination; dispatch re-checks, connects only
// to the address it checked, and never follows a redirect. Sends keep a host's answers for a while (0242).
import { startHarness, verified, type Harness } from './support/harness';

/** How long the dispatcher under test keeps a host's DNS answers for its sends. */
const DNS_CACHE_MS = 1500;

describe('webhook destinations', () => {
  let h: Harness;
  let answer = '127.0.0.1';
  const lookups: string[] = [];
  beforeAll(async () => {
    // `hooks.partner.test` exists only in this resolver: the test plays its DNS answers.
    h = await startHarness(
      'ssrf',
      { WEBHOOK_DNS_CACHE_MS: String(DNS_CACHE_MS) },
      {
        resolve: async (host) => {
          lookups.push(host);
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

  it('sends on a kept answer for a while, and refuses a host turned private once it expires, contacting it no more', async () => {
    answer = '127.0.0.1';
    const r = await h.receiver();
    const s = await h.register(`https://hooks.partner.test:${r.port}/hooks`);
    const lookupsOfHost = () => lookups.filter((host) => host === 'hooks.partner.test').length;
    const registered = lookupsOfHost();
    const before = Date.now();
    await Promise.all([h.publish(), h.publish(), h.publish()]);
    const sent = await h.settled(s.id, 3);
    expect(sent.map((d) => d.status)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
    // Three sends, at most one lookup between them (none if the test before left the answer kept), while
    // they took less than the time to live.
    if (Date.now() - before < DNS_CACHE_MS) expect(lookupsOfHost() - registered).toBeLessThanOrEqual(1);

    // The name turns private: once the kept answers have expired, the next send looks up, and refuses.
    answer = '10.0.0.5';
    await new Promise((resolve) => setTimeout(resolve, DNS_CACHE_MS + 100));
    await h.publish();
    const all = await h.settled(s.id, 4);
    expect(all.map((d) => d.status).sort()).toEqual(['Failed', 'Succeeded', 'Succeeded', 'Succeeded']);
    const refused = all.find((d) => d.status === 'Failed');
    const full = (await h.api('GET', `/api/v1/webhooks/${s.id}/deliveries/${refused.deliveryId}`)).body;
    expect(full.attemptLog[0].error).toMatch(/10\.0\.0\.5.*not a public address/);
    expect(r.requests).toHaveLength(3);
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
