// The Idempotency-Key store on the real MongoDB-wire server (docs/decisions/0195): replicas (connections
// of their own) racing for one key get one claim; the answer's bytes come back whole; a 5xx's release
// frees the key; a claim whose process died is taken over after its lease; an expired key is new again.
import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectMongo, ensureIndexes, IdempotencyStore, type IdempotencyScope } from '@travel/platform';
import { createTestEnv, type TestEnv } from '@travel/testkit';

describe('idempotency key store', () => {
  let env: TestEnv;
  let conns: Connection[];

  beforeAll(async () => {
    env = await createTestEnv('idem-store');
    const db = `${env.dbPrefix}idem`;
    conns = [await connectMongo(env.infra.mongoUrl, db), await connectMongo(env.infra.mongoUrl, db)];
    new IdempotencyStore(conns[0]!);
    await ensureIndexes(conns[0]!);
  });
  afterAll(async () => {
    for (const c of conns ?? []) await c.close();
    await env?.cleanup();
  });

  const scope = (): IdempotencyScope => ({ tenantId: 't-1', apiKeyId: 'k-1', key: randomUUID() });

  it('gives one claim to replicas racing for a key; the others see it running', async () => {
    const s = scope();
    const stores = conns.flatMap((c) => [new IdempotencyStore(c), new IdempotencyStore(c)]);
    const claims = await Promise.all(stores.map((store) => store.claim(s, 'fp')));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'running')).toHaveLength(stores.length - 1);
  });

  it('replays the stored answer byte for byte; another fingerprint is a mismatch', async () => {
    const store = new IdempotencyStore(conns[0]!);
    const s = scope();
    const claim = await store.claim(s, 'fp');
    if (claim.kind !== 'claimed') throw new Error(claim.kind);
    const body = Buffer.from('{"id":"x","name":"Žluťoučký"}');
    expect(
      await store.complete(s, claim.token, {
        status: 201,
        headers: { 'content-type': 'application/json; charset=utf-8', etag: 'W/"1"' },
        body,
      }),
    ).toBe(true);
    const again = await new IdempotencyStore(conns[1]!).claim(s, 'fp');
    expect(again).toEqual({
      kind: 'replay',
      answer: { status: 201, headers: { 'content-type': 'application/json; charset=utf-8', etag: 'W/"1"' }, body },
    });
    expect((await store.claim(s, 'other')).kind).toBe('mismatch');
    expect((await store.claim({ ...s, apiKeyId: 'k-2' }, 'fp')).kind).toBe('claimed');
  });

  it('a released claim (a 5xx) lets the retry claim the key again', async () => {
    const store = new IdempotencyStore(conns[0]!);
    const s = scope();
    const claim = await store.claim(s, 'fp');
    if (claim.kind !== 'claimed') throw new Error(claim.kind);
    await store.release(s, claim.token);
    expect((await store.claim(s, 'fp')).kind).toBe('claimed');
  });

  it('takes over a claim whose lease ran out, once; the old holder can no longer complete it', async () => {
    const shortLease = new IdempotencyStore(conns[0]!, 1);
    const s = scope();
    const dead = await shortLease.claim(s, 'fp');
    if (dead.kind !== 'claimed') throw new Error(dead.kind);
    const later = new Date(Date.now() + 1000);
    const takers = await Promise.all(conns.map((c) => new IdempotencyStore(c).claim(s, 'fp', later)));
    expect(takers.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    expect(await shortLease.complete(s, dead.token, { status: 201, headers: {}, body: Buffer.from('{}') })).toBe(false);
  });

  it('an expired key is a new key; the purge deletes expired rows', async () => {
    const store = new IdempotencyStore(conns[0]!, 60_000, 1_000);
    const s = scope();
    const claim = await store.claim(s, 'fp');
    if (claim.kind !== 'claimed') throw new Error(claim.kind);
    await store.complete(s, claim.token, { status: 201, headers: {}, body: Buffer.from('{}') });
    const tomorrow = new Date(Date.now() + 2_000);
    expect((await store.claim(s, 'another body', tomorrow)).kind).toBe('claimed');
    expect(await store.purgeExpired(new Date(Date.now() + 10_000))).toBeGreaterThanOrEqual(1);
    expect((await store.claim(s, 'fp')).kind).toBe('claimed');
  });
});
