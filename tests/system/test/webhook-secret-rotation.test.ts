// Secret rotation without downtime through the gateway (issue 24, part 2; docs/decisions/0149): a real
// employee event is signed with the new and the replaced secret during the grace, so a receiver knowing
// either one verifies it; after the grace only the new secret signs. Writes need ManageCompanyData.
import { verify, WebhookVerificationError } from '@travel/webhook-verify';
import { limitedCaller, allBut } from '@travel/employees/test/support/org-fixtures';
import { eventually, type ReceivedRequest } from '@travel/testkit';
import { startE2eStack, type E2eStack } from './support/stack';

/** What a receiver that knows only `secret` makes of a received POST. */
function verdict(req: ReceivedRequest, secret: string): string {
  try {
    verify(req.body, req.headers as Record<string, string>, secret);
    return 'accepted';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code;
    throw error;
  }
}

describe('webhook secret rotation through the gateway', () => {
  let stack: E2eStack;
  beforeAll(async () => {
    stack = await startE2eStack('secret-rotation');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('signs with both secrets during the grace and with the new one only after it', async () => {
    const { api } = await stack.tenant('HR');
    const receiver = await stack.receiver();
    const sub = await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] });
    expect(sub.status).toBe(201);
    const oldSecret: string = sub.body.signingSecret;

    const rotation = await api.post(`/api/v1/webhooks/${sub.body.id}/rotate-secret`, { gracePeriodSeconds: 10 });
    expect(rotation.status).toBe(200);
    const newSecret: string = rotation.body.signingSecret;
    expect(newSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const graceEnd = Date.parse(rotation.body.previousSecretExpiresAt);

    const hire = async (lastName: string) =>
      expect((await api.post('/api/v1/employees', { firstName: 'Rota', lastName })).status).toBe(201);
    await hire('During');
    const [during] = await receiver.waitForRequests(1);
    expect(during!.at).toBeLessThan(graceEnd);
    expect(String(during!.headers['svc-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect([verdict(during!, oldSecret), verdict(during!, newSecret)]).toEqual(['accepted', 'accepted']);

    await eventually(async () => Date.now() > graceEnd + 500, 30_000);
    await hire('After');
    const after = (await receiver.waitForRequests(2))[1]!;
    expect(String(after.headers['svc-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect([verdict(after, oldSecret), verdict(after, newSecret)]).toEqual(['SIGNATURE_MISMATCH', 'accepted']);
    expect((await api.get(`/api/v1/webhooks/${sub.body.id}`)).body.previousSecretExpiresAt).toBeNull();
  }, 60_000);

  it('answers 400 for a grace over 7 days, 403 without ManageCompanyData, 404 for another company', async () => {
    const { api } = await stack.tenant('CZ');
    const receiver = await stack.receiver();
    const sub = await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] });
    const path = `/api/v1/webhooks/${sub.body.id}/rotate-secret`;

    const tooLong = await api.post(path, { gracePeriodSeconds: 8 * 86_400 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { gracePeriodSeconds: ['must be <= 604800'] },
    });

    const { api: reader } = await limitedCaller(api, allBut('ManageCompanyData'));
    const forbidden = await reader.post(path, {});
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('FORBIDDEN');

    const { api: other } = await stack.tenant('SK');
    expect((await other.post(path, {})).status).toBe(404);
  });
});
