import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CONTEXT_HEADER,
  generateSigningKey,
  keyringText,
  parseKeyring,
  privateKeyFromText,
  verifyContext,
  type InternalContext,
} from '@travel/platform';
import { KeyResolver, SuspectLookupsPaced } from './key-resolver';

const gateway = generateSigningKey();
const signingKey = privateKeyFromText(gateway.privateKey);
/** employees, trusting the gateway. */
const employeesTrust = { audience: 'employees', keyring: parseKeyring(keyringText({ gateway: gateway.publicKey })) };

/**
 * A stand-in for the employees service's key resolution: counts lookups (in all and by key), answers after
 * `delayMs`; every key is valid unless `onlyValid` names the valid ones.
 */
async function fakeEmployees(delayMs: number, onlyValid?: string[]) {
  const state = {
    lookups: 0,
    revoked: false,
    byKey: new Map<string, number>(),
    context: undefined as InternalContext | undefined,
  };
  const server: Server = createServer((req, res) => {
    state.lookups++;
    state.context = verifyContext(String(req.headers[CONTEXT_HEADER]), employeesTrust);
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () =>
      setTimeout(() => {
        const { key } = JSON.parse(body) as { key: string };
        state.byKey.set(key, (state.byKey.get(key) ?? 0) + 1);
        if (state.revoked || (onlyValid && !onlyValid.includes(key))) res.writeHead(401).end();
        else
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ tenantId: 't', apiKeyId: 'k', employeeId: 'e', permissions: [] }));
      }, delayMs),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('KeyResolver', () => {
  it('shares one lookup among concurrent requests with the same uncached key', async () => {
    const { state, url, server } = await fakeEmployees(50);
    try {
      const resolver = new KeyResolver(url, signingKey, 5000);
      const answers = await Promise.all(Array.from({ length: 64 }, () => resolver.resolve('tek_a')));
      expect(state.lookups).toBe(1);
      expect(answers.every((a) => a?.apiKeyId === 'k')).toBe(true);
      await resolver.resolve('tek_a'); // cached
      expect(state.lookups).toBe(1);
      await resolver.resolve('tek_b'); // another key: its own lookup
      expect(state.lookups).toBe(2);
    } finally {
      server.close();
    }
  });

  it('looks a key up with a service context signed by the gateway and addressed to employees (0100)', async () => {
    const { state, url, server } = await fakeEmployees(0);
    try {
      await new KeyResolver(url, signingKey, 5000).resolve('tek_a');
      expect(state.context).toMatchObject({ kind: 'service', service: 'gateway', audience: 'employees' });
    } finally {
      server.close();
    }
  });

  it('honours a revocation once the entry is older than its time to live', async () => {
    const { state, url, server } = await fakeEmployees(0);
    try {
      const resolver = new KeyResolver(url, signingKey, 100);
      expect(await resolver.resolve('tek_a')).not.toBeNull();
      state.revoked = true;
      await new Promise((r) => setTimeout(r, 150));
      expect(await resolver.resolve('tek_a')).toBeNull();
    } finally {
      server.close();
    }
  });

  it('a flood of unknown keys never pushes a known key out: both caches are bounded LRUs of their own', async () => {
    const { state, url, server } = await fakeEmployees(0, ['tek_valid']);
    try {
      const resolver = new KeyResolver(url, signingKey, 60_000, 60_000, { known: 10, unknown: 100 });
      expect(await resolver.resolve('tek_valid')).not.toBeNull();
      // Ten times the unknown cache's capacity, in batches of 50 (today's single map was cleared whole
      // once full, taking the valid key with it).
      for (let i = 0; i < 1000; i += 50)
        await Promise.all(Array.from({ length: 50 }, (_, j) => resolver.resolve(`tek_flood${i + j}`)));
      expect(await resolver.resolve('tek_valid')).not.toBeNull();
      expect(state.byKey.get('tek_valid')).toBe(1);
      // The unknown cache kept its newest answers only: the last flood key is still known to be unknown,
      // the first was forgotten and costs a lookup again.
      const before = state.lookups;
      expect(await resolver.resolve('tek_flood999')).toBeNull();
      expect(state.lookups).toBe(before);
      expect(await resolver.resolve('tek_flood0')).toBeNull();
      expect(state.lookups).toBe(before + 1);
    } finally {
      server.close();
    }
  });

  it("the known keys' cache forgets its least recently used key first, never all at once", async () => {
    const { state, url, server } = await fakeEmployees(0);
    try {
      const resolver = new KeyResolver(url, signingKey, 60_000, 1000, { known: 3, unknown: 3 });
      for (const k of ['tek_a', 'tek_b', 'tek_c']) await resolver.resolve(k);
      await resolver.resolve('tek_a'); // a is recent again: b is the coldest
      await resolver.resolve('tek_d');
      expect(state.lookups).toBe(4);
      for (const k of ['tek_a', 'tek_c', 'tek_d']) await resolver.resolve(k);
      expect(state.lookups).toBe(4);
      await resolver.resolve('tek_b');
      expect(state.byKey.get('tek_b')).toBe(2);
    } finally {
      server.close();
    }
  });

  it('calls onLookup only when the call starts a lookup: not on a cached answer, nor when joining one in flight', async () => {
    const { url, server } = await fakeEmployees(30, ['tek_valid']);
    try {
      const resolver = new KeyResolver(url, signingKey, 60_000, 60_000);
      const started: string[] = [];
      const resolve = (key: string, who: string) => resolver.resolve(key, () => started.push(who));
      await Promise.all([resolve('tek_valid', 'first'), resolve('tek_valid', 'joined')]);
      await resolve('tek_valid', 'cached');
      await resolve('tek_unknown', 'unknown');
      await resolve('tek_unknown', 'unknown, cached');
      expect(started).toEqual(['first', 'unknown']);
    } finally {
      server.close();
    }
  });

  it('a valid key whose answer expired is looked up again without onLookup: it is not a guess, even when the lookup fails', async () => {
    const { url, server } = await fakeEmployees(0, ['tek_valid']);
    const resolver = new KeyResolver(url, signingKey, 50, 50);
    const started: string[] = [];
    const resolve = (key: string, who: string) => resolver.resolve(key, () => started.push(who));
    expect(await resolve('tek_valid', 'first')).not.toBeNull();
    await new Promise((r) => setTimeout(r, 80));
    // The employees service goes away (a restart): the lookup fails, and is still not counted.
    await new Promise<void>((r) => server.close(() => r()));
    await expect(resolve('tek_valid', 'expired, employees away')).rejects.toThrow();
    // An unknown key's lookup is announced, whether it fails or not.
    await expect(resolve('tek_other', 'unknown, employees away')).rejects.toThrow();
    expect(started).toEqual(['first', 'unknown, employees away']);
  });

  it('refreshes a known key in use before it expires: requests keep the cached answer, one lookup runs', async () => {
    const { state, url, server } = await fakeEmployees(100);
    try {
      const resolver = new KeyResolver(url, signingKey, 500);
      const answers: string[] = [];
      resolver.onLookupAnswer = (answer) => answers.push(answer);
      await resolver.resolve('tek_a');
      expect(state.lookups).toBe(1);
      await new Promise((r) => setTimeout(r, 420)); // past 80 % of the 500 ms time to live
      const started = Date.now();
      const reads = await Promise.all(Array.from({ length: 10 }, () => resolver.resolve('tek_a')));
      expect(Date.now() - started).toBeLessThan(50); // served from the cache, not after the 100 ms lookup
      expect(reads.every((a) => a?.apiKeyId === 'k')).toBe(true);
      await new Promise((r) => setTimeout(r, 150));
      expect(state.lookups).toBe(2); // one refresh for the ten reads
      expect(answers).toEqual(['known', 'known']); // refreshes are counted too
      // The refreshed answer lives a new time to live: still cached after the first one would have expired.
      await new Promise((r) => setTimeout(r, 100));
      await resolver.resolve('tek_a');
      expect(state.lookups).toBe(2);
    } finally {
      server.close();
    }
  });

  it('a refresh that finds the key revoked drops it at once', async () => {
    const { state, url, server } = await fakeEmployees(0);
    try {
      const resolver = new KeyResolver(url, signingKey, 500);
      await resolver.resolve('tek_a');
      state.revoked = true;
      await new Promise((r) => setTimeout(r, 420));
      expect(await resolver.resolve('tek_a')).not.toBeNull(); // still within its time to live; refresh starts
      await new Promise((r) => setTimeout(r, 30));
      expect(await resolver.resolve('tek_a')).toBeNull();
    } finally {
      server.close();
    }
  });

  it('lookups pass a gate: at most `lookups` at once reach the employees service', async () => {
    let atOnce = 0;
    let most = 0;
    const server: Server = createServer((req, res) => {
      atOnce++;
      most = Math.max(most, atOnce);
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          atOnce--;
          res.writeHead(401).end();
        }, 20),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const resolver = new KeyResolver(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        signingKey,
        5000,
        1000,
        { known: 10, unknown: 100, lookups: 3 },
      );
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => resolver.resolve(`tek_${i}`)));
      expect(answers.every((a) => a === null)).toBe(true);
      expect(most).toBe(3);
    } finally {
      server.close();
    }
  });

  it('a valid key whose answer expired, or a new key from a clean address, is looked up before waiting keys from suspect addresses', async () => {
    const order: string[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const { key } = JSON.parse(body) as { key: string };
        order.push(key);
        setTimeout(() => {
          if (key !== 'tek_valid') return res.writeHead(401).end();
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ tenantId: 't', apiKeyId: 'k', employeeId: 'e', permissions: [] }));
        }, 10);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const resolver = new KeyResolver(url, signingKey, 50, 1000, { known: 10, unknown: 100, lookups: 1 });
      await resolver.resolve('tek_valid');
      await new Promise((r) => setTimeout(r, 80)); // its answer expired (not served any more)
      order.length = 0;
      const flood = Array.from({ length: 10 }, (_, i) => resolver.resolve(`tek_flood${i}`, undefined, true));
      const valid = resolver.resolve('tek_valid');
      expect(await valid).not.toBeNull();
      await Promise.all(flood);
      expect(order.indexOf('tek_valid')).toBe(1); // right after the flood key already running
      order.length = 0;
      const more = Array.from({ length: 5 }, (_, i) => resolver.resolve(`tek_more${i}`, undefined, true));
      const fresh = resolver.resolve('tek_fresh'); // never seen, from an address without failures
      await Promise.all([...more, fresh]);
      expect(order.indexOf('tek_fresh')).toBe(1);
    } finally {
      server.close();
    }
  });

  it('new keys from suspect addresses get `suspectLookupsPerSecond` lookups a second; beyond, they are refused, not queued', async () => {
    const { state, url, server } = await fakeEmployees(0, ['tek_valid']);
    try {
      // The pacing's clock stands still: on a loaded machine the twelve calls may span a refill (20 ms).
      const at = Date.now();
      const resolver = new KeyResolver(
        url,
        signingKey,
        60_000,
        1000,
        { known: 10, unknown: 100, suspectLookupsPerSecond: 50 }, // bursts of 5
        () => at,
      );
      await resolver.resolve('tek_valid');
      const suspect = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => resolver.resolve(`tek_s${i}`, undefined, true)),
      );
      expect(suspect.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      const refused = suspect.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      expect(refused).toHaveLength(7);
      expect(refused.every((r) => r.reason instanceof SuspectLookupsPaced)).toBe(true);
      // Not paced: a new key from a clean address, and a known key from a suspect one.
      expect(await resolver.resolve('tek_clean')).toBeNull();
      expect(await resolver.resolve('tek_valid', undefined, true)).not.toBeNull();
      expect(state.lookups).toBe(1 + 5 + 1);
    } finally {
      server.close();
    }
  });
});
