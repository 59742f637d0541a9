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
import { KeyResolver } from './key-resolver';

const gateway = generateSigningKey();
const signingKey = privateKeyFromText(gateway.privateKey);
/** employees, trusting the gateway. */
const employeesTrust = { audience: 'employees', keyring: parseKeyring(keyringText({ gateway: gateway.publicKey })) };

/** A stand-in for the employees service's key resolution: counts lookups, answers after `delayMs`. */
async function fakeEmployees(delayMs: number) {
  const state = { lookups: 0, revoked: false, context: undefined as InternalContext | undefined };
  const server: Server = createServer((req, res) => {
    state.lookups++;
    state.context = verifyContext(String(req.headers[CONTEXT_HEADER]), employeesTrust);
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        if (state.revoked) res.writeHead(401).end();
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

  it('looks a key up with a service context signed by the gateway and addressed to employees (0100)', async () => {
    const { state, url, server } = await fakeEmployees(0);
    try {
      await new KeyResolver(url, signingKey, 5000).resolve('tek_a');
      expect(state.context).toMatchObject({ kind: 'service', service: 'gateway', audience: 'employees' });
    } finally {
      server.close();
    }
  });
});
