// Decision 0242: a host's answers are kept for the time to live, one lookup shared by concurrent sends,
// failures not kept; what is kept is still checked by the address policy at every send.
import { checkDestination, DestinationRefused, type Resolve } from './destination';
import { MAX_CACHED_HOSTS, cachingResolve } from './dns-cache';

/** A DNS of the test's own: `answers[host]` is what a lookup returns now; every lookup is counted. */
function playedDns(answers: Record<string, string>) {
  const lookups: string[] = [];
  const pending: Array<() => void> = [];
  let held = false;
  const resolve: Resolve = async (host) => {
    lookups.push(host);
    if (held) await new Promise<void>((r) => pending.push(r));
    const address = answers[host];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  };
  return {
    resolve,
    lookups,
    hold: () => void (held = true),
    release: () => {
      held = false;
      pending.splice(0).forEach((r) => r());
    },
  };
}

describe('cachingResolve', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => (clock = 1_000_000));

  it('asks DNS once per host per time to live, then again', async () => {
    const dns = playedDns({ 'a.example': '203.0.113.1', 'b.example': '203.0.113.2' });
    const resolve = cachingResolve(dns.resolve, 5000, now);
    expect(await resolve('a.example')).toEqual([{ address: '203.0.113.1', family: 4 }]);
    clock += 4999;
    expect(await resolve('a.example')).toEqual([{ address: '203.0.113.1', family: 4 }]);
    expect(await resolve('b.example')).toEqual([{ address: '203.0.113.2', family: 4 }]);
    expect(dns.lookups).toEqual(['a.example', 'b.example']);
    clock += 1; // 5000 ms after a.example was asked for
    await resolve('a.example');
    expect(dns.lookups).toEqual(['a.example', 'b.example', 'a.example']);
  });

  it('gives concurrent sends to one host one lookup', async () => {
    const dns = playedDns({ 'a.example': '203.0.113.1' });
    const resolve = cachingResolve(dns.resolve, 5000, now);
    dns.hold();
    const all = Promise.all(Array.from({ length: 20 }, () => resolve('a.example')));
    dns.release();
    expect((await all).map((a) => a[0]!.address)).toEqual(Array(20).fill('203.0.113.1'));
    expect(dns.lookups).toEqual(['a.example']);
  });

  it('does not keep a failed lookup: the next send asks again', async () => {
    const answers: Record<string, string> = {};
    const dns = playedDns(answers);
    const resolve = cachingResolve(dns.resolve, 5000, now);
    await expect(resolve('late.example')).rejects.toThrow('ENOTFOUND');
    answers['late.example'] = '203.0.113.9';
    expect(await resolve('late.example')).toEqual([{ address: '203.0.113.9', family: 4 }]);
    expect(dns.lookups).toEqual(['late.example', 'late.example']);
  });

  it('keeps at most MAX_CACHED_HOSTS hosts, dropping the longest kept first', async () => {
    const dns = playedDns(new Proxy({}, { get: () => '203.0.113.1' }));
    const resolve = cachingResolve(dns.resolve, 5000, now);
    for (let i = 0; i <= MAX_CACHED_HOSTS; i++) await resolve(`h${i}.example`);
    expect(dns.lookups).toHaveLength(MAX_CACHED_HOSTS + 1);
    await resolve(`h${MAX_CACHED_HOSTS}.example`); // the newest: kept
    await resolve('h1.example'); // kept
    expect(dns.lookups).toHaveLength(MAX_CACHED_HOSTS + 1);
    await resolve('h0.example'); // the first: dropped for the last
    expect(dns.lookups.at(-1)).toBe('h0.example');
  });

  it('0 turns it off: every send asks', async () => {
    const dns = playedDns({ 'a.example': '203.0.113.1' });
    const resolve = cachingResolve(dns.resolve, 0, now);
    await resolve('a.example');
    await resolve('a.example');
    expect(dns.lookups).toEqual(['a.example', 'a.example']);
  });

  it('a kept answer is checked at every send, and a name turned private is refused once it expires', async () => {
    const answers = { 'hooks.example': '93.184.215.14' }; // a public address (example.com's)
    const dns = playedDns(answers);
    const resolve = cachingResolve(dns.resolve, 5000, now);
    const check = () => checkDestination('https://hooks.example/in', [], resolve);
    expect(await check()).toMatchObject({ address: '93.184.215.14' });
    // Rebinding to a private address: until the time to live ends, sends keep the checked public address.
    answers['hooks.example'] = '10.0.0.5';
    clock += 4000;
    expect(await check()).toMatchObject({ address: '93.184.215.14' });
    clock += 1000;
    await expect(check()).rejects.toThrow(DestinationRefused);
    await expect(check()).rejects.toThrow(/10\.0\.0\.5.*not a public address/);
    // An answer the policy refuses is refused however it was got: a kept one is not waved through.
    const kept = cachingResolve(async () => [{ address: '192.168.1.1', family: 4 }], 5000, now);
    await expect(checkDestination('https://lan.example/', [], kept)).rejects.toThrow(DestinationRefused);
    await expect(checkDestination('https://lan.example/', [], kept)).rejects.toThrow(DestinationRefused);
  });
});
