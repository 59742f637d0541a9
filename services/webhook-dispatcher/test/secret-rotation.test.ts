// Secret rotation without downtime (issue 24, part 2; docs/decisions/0149). A partner rolls the new secret
// out to its receivers one by one: for a while one receiver knows only the old secret and one only the new.
// Both are real HTTPS receivers built with the SDK (express + webhookMiddleware); a front at the
// subscription's URL mirrors every POST, byte for byte with its headers, to both, so each assertion is
// about the very same signed request. During the grace both verify it; after the grace only the new one.
import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { randomUUID } from 'node:crypto';
import {
  WebhookVerificationError,
  parseSignatureHeader,
  sign,
  verify,
  webhookMiddleware,
} from '@travel/webhook-verify';
import { ensureTestTls, eventually, repoRoot, type TlsMaterial } from '@travel/testkit';
import { parseTenantId } from '@travel/platform';
import { registerModels } from '../src/infra/models';
import { dispatcherRepositories, type SubscriptionDoc } from '../src/infra/repositories';
import { startHarness, type Harness } from './support/harness';

/** What one receiver made of one POST: the event it handled, or the SDK's rejection code. */
type Verdict = { eventId: string } | { rejected: string };

interface Receiver {
  secret: string;
  verdicts: Verdict[];
  server: Server;
  url: string;
}

/** One POST as the front received it: the raw bytes and the headers it passes on. */
interface Mirrored {
  body: Buffer;
  headers: Record<string, string>;
}

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://localhost:${(server.address() as AddressInfo).port}/hooks`;
};

/** A partner's receiver instance that knows one secret. */
async function startReceiver(tls: TlsMaterial, secret: string): Promise<Receiver> {
  const verdicts: Verdict[] = [];
  const app = express();
  app.post(
    '/hooks',
    webhookMiddleware({
      secret,
      onEvent: (_envelope, meta) => void verdicts.push({ eventId: meta.eventId }),
      onError: (error) => {
        if (error instanceof WebhookVerificationError) verdicts.push({ rejected: error.code });
      },
    }),
  );
  const server = createServer({ cert: tls.cert, key: tls.key }, app);
  return { secret, verdicts, server, url: await listen(server) };
}

/** POSTs the bytes with the headers as received; resolves to the status. */
function forward(url: string, body: Buffer, headers: Record<string, string>, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, ca });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The partner's front: every POST goes to both receivers; it answers 200 when one of them accepted it,
 * else 400 (so the dispatcher does not retry what no receiver can verify). `down`: answers 400 without
 * forwarding (an endpoint that fails the delivery for good).
 */
async function startMirror(tls: TlsMaterial, receivers: () => Receiver[]) {
  const ca = readFileSync(tls.caFile);
  const seen: Mirrored[] = [];
  const state = { down: false };
  const server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const name of [
        'content-type',
        'user-agent',
        'svc-event',
        'svc-event-id',
        'svc-signature',
        'svc-delivery-id',
      ])
        headers[name] = String(req.headers[name]);
      seen.push({ body, headers });
      const statuses = state.down ? [] : await Promise.all(receivers().map((r) => forward(r.url, body, headers, ca)));
      res.writeHead(statuses.some((s) => s === 200) ? 200 : 400).end();
    });
  });
  return { server, url: await listen(server), seen, state };
}

const signatureOf = (sent: Mirrored) => parseSignatureHeader(sent.headers['svc-signature']!);
const v1Count = (sent: Mirrored) => signatureOf(sent).signatures.length;

describe('webhook secret rotation without downtime', () => {
  let h: Harness;
  let tls: TlsMaterial;
  const servers: Server[] = [];

  beforeAll(async () => {
    h = await startHarness('secret-rotation');
    tls = ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'));
  });
  afterAll(async () => {
    for (const s of servers) s.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await h?.stop();
  });

  /** A subscription behind a mirror; its receivers are made once the secrets are known. */
  async function partner() {
    const pair: Receiver[] = [];
    const mirror = await startMirror(tls, () => pair);
    servers.push(mirror.server);
    const sub = await h.register(mirror.url);
    const receivers = async (oldSecret: string, newSecret: string) => {
      const [oldOnly, newOnly] = await Promise.all([startReceiver(tls, oldSecret), startReceiver(tls, newSecret)]);
      servers.push(oldOnly.server, newOnly.server);
      pair.push(oldOnly, newOnly);
      return { oldOnly, newOnly };
    };
    return { sub, mirror, receivers };
  }

  const rotate = (id: string, body?: unknown, tenantId?: string) =>
    h.api('POST', `/api/v1/webhooks/${id}/rotate-secret`, body, tenantId);
  const dashed = (eventId: string) => eventId.toLowerCase();

  it('during the grace both receivers verify the same POST (two v1=, newest first); after it only the new one', async () => {
    const { sub, mirror, receivers } = await partner();
    const rotation = await rotate(sub.id, { gracePeriodSeconds: 15 });
    expect(rotation.status).toBe(200);
    const newSecret: string = rotation.body.signingSecret;
    expect(newSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(newSecret).not.toBe(sub.signingSecret);
    const graceEnd = Date.parse(rotation.body.previousSecretExpiresAt);
    expect(graceEnd).toBeGreaterThan(Date.now() + 10_000);
    expect(graceEnd).toBeLessThanOrEqual(Date.now() + 15_000);
    expect(rotation.body).toMatchObject({ id: sub.id, IsActive: true });
    const { oldOnly, newOnly } = await receivers(sub.signingSecret, newSecret);

    const during = await h.publish();
    const [first] = await h.settled(sub.id, 1);
    expect(first).toMatchObject({ status: 'Succeeded' });
    const sentDuring = mirror.seen[0]!;
    const { timestamp } = signatureOf(sentDuring);
    expect(timestamp * 1000).toBeLessThan(graceEnd);
    // `t=…,v1=<new>,v1=<old>`: one v1 per active secret, newest first.
    expect(sentDuring.headers['svc-signature']).toBe(sign(sentDuring.body, [newSecret, sub.signingSecret], timestamp));
    await eventually(async () => oldOnly.verdicts.length === 1 && newOnly.verdicts.length === 1);
    expect(oldOnly.verdicts).toEqual([{ eventId: dashed(during.id) }]);
    expect(newOnly.verdicts).toEqual([{ eventId: dashed(during.id) }]);
    // The subscription says until when the old secret signs.
    expect((await h.api('GET', `/api/v1/webhooks/${sub.id}`)).body.previousSecretExpiresAt).toBe(
      rotation.body.previousSecretExpiresAt,
    );

    await eventually(async () => Date.now() > graceEnd + 500, 30_000);
    const after = await h.publish();
    await h.settled(sub.id, 2);
    const sentAfter = mirror.seen[1]!;
    expect(sentAfter.headers['svc-signature']).toBe(sign(sentAfter.body, newSecret, signatureOf(sentAfter).timestamp));
    await eventually(async () => oldOnly.verdicts.length === 2 && newOnly.verdicts.length === 2);
    expect(oldOnly.verdicts[1]).toEqual({ rejected: 'SIGNATURE_MISMATCH' });
    expect(newOnly.verdicts[1]).toEqual({ eventId: dashed(after.id) });
    expect((await h.api('GET', `/api/v1/webhooks/${sub.id}`)).body.previousSecretExpiresAt).toBeNull();

    // Nothing the API shows afterwards holds a secret: not the subscription, not the delivery log.
    const shown = JSON.stringify([
      (await h.api('GET', `/api/v1/webhooks/${sub.id}`)).body,
      (await h.api('GET', '/api/v1/webhooks')).body,
      await h.deliveries(sub.id),
      (await h.api('GET', `/api/v1/webhooks/${sub.id}/deliveries/${first.deliveryId}`)).body,
    ]);
    for (const secret of [sub.signingSecret, newSecret]) expect(shown).not.toContain(secret);
    expect(shown).not.toContain('signingSecret');

    // The replaced secret is erased from the store once its grace ended (the retention job's step).
    const repos = dispatcherRepositories(h.dispatcher.deps.mongo);
    expect(await repos.eraseReplacedSecrets(new Date())).toBeGreaterThanOrEqual(1);
    const stored = await repos.subscriptions.of(parseTenantId(h.tenantId)).findById(sub.id).lean<SubscriptionDoc>();
    expect(stored).toMatchObject({ previousSecret: null, previousSecretExpiresAt: null });
    expect(stored!.secret).not.toContain(newSecret.slice(6)); // sealed, never in the clear
  }, 60_000);

  it('a retry after the grace of a delivery made before the rotation is signed with the secrets active then', async () => {
    const { sub, mirror, receivers } = await partner();
    mirror.state.down = true;
    const event = await h.publish();
    const [failed] = await h.settled(sub.id, 1);
    expect(failed).toMatchObject({ status: 'Failed' });
    // Before the rotation: one v1, the old secret's.
    const before = mirror.seen[0]!;
    expect(v1Count(before)).toBe(1);
    expect(() => verify(before.body, before.headers, sub.signingSecret)).not.toThrow();

    const rotation = await rotate(sub.id, { gracePeriodSeconds: 2 });
    const graceEnd = Date.parse(rotation.body.previousSecretExpiresAt);
    const { oldOnly, newOnly } = await receivers(sub.signingSecret, rotation.body.signingSecret);
    mirror.state.down = false;
    await eventually(async () => Date.now() > graceEnd + 500, 30_000);

    const retried = await h.api('POST', `/api/v1/webhooks/${sub.id}/deliveries/${failed.deliveryId}/retry`);
    expect(retried.status).toBe(202);
    await eventually(async () => oldOnly.verdicts.length === 1 && newOnly.verdicts.length === 1);
    expect(mirror.seen[1]!.body.equals(before.body)).toBe(true);
    expect(v1Count(mirror.seen[1]!)).toBe(1);
    expect(oldOnly.verdicts).toEqual([{ rejected: 'SIGNATURE_MISMATCH' }]);
    expect(newOnly.verdicts).toEqual([{ eventId: dashed(event.id) }]);
  }, 60_000);

  it('a grace of 0 cuts over at once: the old-only receiver rejects the next POST', async () => {
    const { sub, mirror, receivers } = await partner();
    const rotation = await rotate(sub.id, { gracePeriodSeconds: 0 });
    expect(rotation.status).toBe(200);
    expect(rotation.body.previousSecretExpiresAt).toBeNull();
    const { oldOnly, newOnly } = await receivers(sub.signingSecret, rotation.body.signingSecret);
    const event = await h.publish();
    await eventually(async () => oldOnly.verdicts.length === 1 && newOnly.verdicts.length === 1);
    expect(v1Count(mirror.seen[0]!)).toBe(1);
    expect(oldOnly.verdicts).toEqual([{ rejected: 'SIGNATURE_MISMATCH' }]);
    expect(newOnly.verdicts).toEqual([{ eventId: dashed(event.id) }]);
  });

  it('rotating again during a grace keeps the newest and the one just replaced; the oldest stops signing', async () => {
    const { sub, mirror } = await partner();
    const second = await rotate(sub.id, { gracePeriodSeconds: 3600 });
    const third = await rotate(sub.id, { gracePeriodSeconds: 3600 });
    expect(third.status).toBe(200);
    await h.publish();
    await h.settled(sub.id, 1);
    const sent = mirror.seen[0]!;
    expect(v1Count(sent)).toBe(2);
    expect(() => verify(sent.body, sent.headers, third.body.signingSecret)).not.toThrow();
    expect(() => verify(sent.body, sent.headers, second.body.signingSecret)).not.toThrow();
    expect(() => verify(sent.body, sent.headers, sub.signingSecret)).toThrow('No v1 signature matches');
  });

  it('two rotations at once both answer; the two secrets they return are the ones that sign', async () => {
    const { sub, mirror } = await partner();
    const [a, b] = await Promise.all([rotate(sub.id), rotate(sub.id)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await h.publish();
    await h.settled(sub.id, 1);
    const sent = mirror.seen[0]!;
    expect(v1Count(sent)).toBe(2);
    for (const secret of [a.body.signingSecret, b.body.signingSecret])
      expect(() => verify(sent.body, sent.headers, secret)).not.toThrow();
    expect(() => verify(sent.body, sent.headers, sub.signingSecret)).toThrow('No v1 signature matches');
  });

  it('answers the documented errors: 400 for a grace over 7 days or below 0, 403 without the right, 404 for another company or a deleted one', async () => {
    const { sub: own } = await partner();
    for (const [grace, message] of [
      [604_801, 'must be <= 604800'],
      [-1, 'must be >= 0'],
    ] as const) {
      const res = await rotate(own.id, { gracePeriodSeconds: grace });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { gracePeriodSeconds: [message] } });
    }
    expect((await rotate(own.id, { gracePeriodSeconds: 604_800 })).status).toBe(200);
    expect((await rotate(own.id)).body.previousSecretExpiresAt).toEqual(expect.any(String));

    const readOnly = await fetch(`${h.dispatcher.url}/api/v1/webhooks/${own.id}/rotate-secret`, {
      method: 'POST',
      headers: h.env.callerHeaders({ tenantId: h.tenantId, permissions: ['ReadAllEntries'] }),
    });
    expect(readOnly.status).toBe(403);
    expect(((await readOnly.json()) as { code: string }).code).toBe('FORBIDDEN');

    const other = await rotate(own.id, {}, randomUUID());
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('NOT_FOUND');

    // A disabled subscription may rotate; it stays disabled. A deleted one is 404.
    const models = registerModels(h.dispatcher.deps.mongo);
    await models.Subscription.updateOne({ _id: own.id, tenantId: h.tenantId }, { $set: { isActive: false } });
    const disabled = await rotate(own.id);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ IsActive: false, signingSecret: expect.stringMatching(/^whsec_/) });
    expect((await h.api('DELETE', `/api/v1/webhooks/${own.id}`)).status).toBe(204);
    expect((await rotate(own.id)).status).toBe(404);
  });
});
