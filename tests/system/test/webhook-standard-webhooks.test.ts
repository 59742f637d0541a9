// Issue 40 §1 (docs/decisions/0226): a subscription registered with `signatureScheme: "standard-webhooks"`
// gets the same body signed as the Standard Webhooks specification defines, verified here by the maintained
// `standardwebhooks` and `svix` packages (not by our code): `webhook-id` is the envelope id on every retry,
// a rotation's grace carries `v1,<new> v1,<old>`, either secret verifies. Without the field nothing changes.
import { Webhook } from 'standardwebhooks';
import { verify } from '@travel/webhook-verify';
import { eventually, type ApiClient, type ReceivedRequest } from '@travel/testkit';
import { startE2eStack, type E2eStack } from './support/stack';
import { svixVerdict } from './support/svix-verdict';

const STANDARD_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/; // base64 of 32 bytes
const ONE_V1 = '[A-Za-z0-9+/]{43}=';

/** What a receiver using the `standardwebhooks` package makes of a received POST. */
function standardVerdict(req: ReceivedRequest, secret: string): string {
  try {
    new Webhook(secret).verify(req.body.toString('utf8'), req.headers as Record<string, string>);
    return 'accepted';
  } catch (error) {
    return (error as Error).message;
  }
}

const bothLibraries = (req: ReceivedRequest, secret: string) => [
  standardVerdict(req, secret),
  svixVerdict(req, secret),
];

describe('Standard Webhooks signature scheme through the gateway', () => {
  let stack: E2eStack;
  beforeAll(async () => {
    // A second before attempt 2, so the retry of a refused first attempt comes within the test.
    stack = await startE2eStack('standard-webhooks', {
      WEBHOOK_RETRY_SCHEDULE: '1s,50ms,50ms,50ms,50ms,50ms,50ms,50ms',
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const hire = async (api: ApiClient, lastName: string) =>
    expect((await api.post('/api/v1/employees', { firstName: 'Std', lastName })).status).toBe(201);

  it('signs as the standard defines, the same webhook-id on the retry, verified by standardwebhooks and svix', async () => {
    const { api } = await stack.tenant('HR');
    const receiver = (await stack.receiver()).replyNext({ status: 503 });
    const sub = await api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['employee.created'],
      signatureScheme: 'standard-webhooks',
    });
    expect(sub.status).toBe(201);
    const secret: string = sub.body.signingSecret;
    expect(secret).toMatch(STANDARD_SECRET);
    expect(sub.body.signatureScheme).toBe('standard-webhooks');
    const read = await api.get(`/api/v1/webhooks/${sub.body.id}`);
    expect(read.body.signatureScheme).toBe('standard-webhooks');

    await hire(api, 'Retried');
    const [refused, retried] = await receiver.waitForRequests(2);
    for (const req of [refused!, retried!]) {
      const h = req.headers;
      const envelope = JSON.parse(req.body.toString('utf8'));
      expect(h['webhook-id']).toBe(envelope.id); // the event id, which receivers de-duplicate on
      expect(String(h['webhook-signature'])).toMatch(new RegExp(`^v1,${ONE_V1}$`));
      expect(Math.abs(Number(h['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      // Instead of the Svc-* signing and identity headers, not besides them; the unsigned two stay.
      expect([h['svc-signature'], h['svc-event-id']]).toEqual([undefined, undefined]);
      expect(h['svc-event']).toBe('employee.created');
      expect(h['svc-delivery-id']).toEqual(expect.any(String));
      expect(bothLibraries(req, secret)).toEqual(['accepted', 'accepted']);
      expect(verify(req.body, h as Record<string, string>, secret).envelope).toEqual(envelope); // our SDK too
    }
    expect(retried!.body.equals(refused!.body)).toBe(true);
    expect(retried!.headers['webhook-id']).toBe(refused!.headers['webhook-id']);
    // Another subscription's secret is refused by both libraries.
    const other = await api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['employee.updated'],
      signatureScheme: 'standard-webhooks',
    });
    expect(bothLibraries(retried!, other.body.signingSecret)).toEqual([
      'No matching signature found',
      'No matching signature found',
    ]);
  }, 60_000);

  it('during a rotation’s grace carries both signatures, either secret verifies; after it only the new one', async () => {
    const { api } = await stack.tenant('SI');
    const receiver = await stack.receiver();
    const sub = await api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['employee.created'],
      signatureScheme: 'standard-webhooks',
    });
    const oldSecret: string = sub.body.signingSecret;
    const rotation = await api.post(`/api/v1/webhooks/${sub.body.id}/rotate-secret`, { gracePeriodSeconds: 8 });
    expect(rotation.status).toBe(200);
    const newSecret: string = rotation.body.signingSecret;
    expect(newSecret).toMatch(STANDARD_SECRET);
    expect(rotation.body.signatureScheme).toBe('standard-webhooks');
    const graceEnd = Date.parse(rotation.body.previousSecretExpiresAt);

    await hire(api, 'During');
    const [during] = await receiver.waitForRequests(1);
    expect(during!.at).toBeLessThan(graceEnd);
    expect(String(during!.headers['webhook-signature'])).toMatch(new RegExp(`^v1,${ONE_V1} v1,${ONE_V1}$`));
    expect([...bothLibraries(during!, oldSecret), ...bothLibraries(during!, newSecret)]).toEqual([
      'accepted',
      'accepted',
      'accepted',
      'accepted',
    ]);

    await eventually(async () => Date.now() > graceEnd + 500, 30_000);
    await hire(api, 'After');
    const after = (await receiver.waitForRequests(2))[1]!;
    expect(String(after.headers['webhook-signature'])).toMatch(new RegExp(`^v1,${ONE_V1}$`));
    expect([...bothLibraries(after, oldSecret), ...bothLibraries(after, newSecret)]).toEqual([
      'No matching signature found',
      'No matching signature found',
      'accepted',
      'accepted',
    ]);
  }, 60_000);

  it('keeps the Svc-* scheme for a registration without the field, and for one that echoes its "svc"', async () => {
    const { api } = await stack.tenant('CZ');
    const receiver = await stack.receiver();
    const plain = await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] });
    expect(plain.status).toBe(201);
    expect(plain.body.signingSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const read = await api.get(`/api/v1/webhooks/${plain.body.id}`);
    expect(read.body.signatureScheme).toBe('svc');
    const echoed = await api.post('/api/v1/webhooks', {
      url: receiver.url,
      eventTypes: ['employee.updated'],
      signatureScheme: read.body.signatureScheme,
    });
    expect([echoed.status, echoed.body.signatureScheme]).toEqual([201, 'svc']);

    await hire(api, 'Plain');
    const [req] = await receiver.waitForRequests(1);
    expect(String(req!.headers['svc-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(Object.keys(req!.headers).filter((h) => h.startsWith('webhook-'))).toEqual([]);
    expect(verify(req!.body, req!.headers as Record<string, string>, plain.body.signingSecret).eventId).toBe(
      req!.headers['svc-event-id'],
    );
  });

  it('answers 400 for a scheme that is not one of the two', async () => {
    const { api } = await stack.tenant('PL');
    const receiver = await stack.receiver();
    for (const signatureScheme of ['svix', 'Standard-Webhooks', null]) {
      const bad = await api.post('/api/v1/webhooks', {
        url: receiver.url,
        eventTypes: ['employee.created'],
        signatureScheme,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(bad.body.errors)).toEqual(['signatureScheme']);
    }
    expect((await api.get('/api/v1/webhooks')).body.total).toBe(0);
  });
});
