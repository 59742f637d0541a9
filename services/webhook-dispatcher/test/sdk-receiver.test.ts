// The receiver SDK as a partner deploys it (express + webhookMiddleware over HTTPS), fed by the real
// dispatcher. A partner that processes an event but answers after the dispatcher's time-out gets the
// retry, which the SDK recognises as a duplicate: the event is handled exactly once.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express, { type RequestHandler } from 'express';
import { MemoryDedupeStore, webhookMiddleware } from '@travel/webhook-verify';
import { ensureTestTls, eventually, repoRoot } from '@travel/testkit';
import { startHarness, type Harness } from './support/harness';

describe('receiver SDK against the dispatcher', () => {
  let h: Harness;
  let server: Server;
  let url: string;
  let handler: RequestHandler = (_req, res) => void res.status(503).end();
  const answers: string[] = [];

  beforeAll(async () => {
    h = await startHarness('sdk-receiver', { WEBHOOK_TIMEOUT_MS: '1000' });
    const app = express();
    app.post('/hooks', (req, res, next) => {
      const send = res.send.bind(res);
      res.send = (body?: unknown) => {
        answers.push(String(body));
        return send(body);
      };
      handler(req, res, next);
    });
    const tls = ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'));
    server = createServer({ cert: tls.cert, key: tls.key }, app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://localhost:${(server.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await h?.stop();
  });

  it('handles a slow-acknowledged event once; the retry is answered as a duplicate', async () => {
    const sub = await h.register(url);
    const handled: string[] = [];
    let calls = 0;
    handler = webhookMiddleware({
      secret: sub.signingSecret,
      dedupe: new MemoryDedupeStore(),
      onEvent: async (envelope) => {
        // The first delivery is processed too slowly for the dispatcher, which gives up and retries.
        if (calls++ === 0) await new Promise((r) => setTimeout(r, 1500));
        handled.push(envelope.id);
      },
    });
    const event = await h.publish();
    const [d] = await h.settled(sub.id, 1);
    expect(d).toMatchObject({ status: 'Succeeded', attempts: 2 });
    await eventually(async () => answers.length === 2);
    expect(handled).toEqual([`evt_${event.id.replace(/-/g, '')}`]);
    expect(answers.map((a) => JSON.parse(a))).toEqual(
      expect.arrayContaining([
        { received: true, duplicate: true },
        { received: true, duplicate: false },
      ]),
    );
  });

  it('refuses a delivery signed with another secret (400), which the dispatcher records as Failed', async () => {
    const sub = await h.register(url);
    handler = webhookMiddleware({ secret: `whsec_${'0'.repeat(64)}`, onEvent: async () => undefined });
    await h.publish();
    const [d] = await h.settled(sub.id, 1);
    expect(d).toMatchObject({ status: 'Failed', lastStatusCode: 400 });
  });
});
