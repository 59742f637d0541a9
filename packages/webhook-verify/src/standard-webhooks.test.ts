// The SDK on the Standard Webhooks scheme (issue 40 §1, docs/decisions/0226): deliveries signed by the
// maintained `standardwebhooks` library verify here, with either secret of a rotation; ours verify there.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookVerificationError, type WebhookVerificationErrorCode } from './errors';
import { signStandard } from './standard-webhooks';
import { NOW_MS, NOW_S, entryEnvelope } from './test-fixtures';
import { verify } from './verify';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const OLD = newSecret();
const NEW = newSecret();
const now = () => NOW_MS;

/** A delivery whose `webhook-signature` the library computed: one `v1,…` per secret, space-separated. */
function libraryDelivery(secrets: string[], t = NOW_S) {
  const envelope = entryEnvelope();
  const body = JSON.stringify(envelope);
  const signature = secrets.map((s) => new Webhook(s).sign(envelope.id, new Date(t * 1000), body)).join(' ');
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'webhook-id': envelope.id,
    'webhook-timestamp': String(t),
    'webhook-signature': signature,
    'svc-event': envelope.type,
    'svc-delivery-id': 'dlv_0001',
  };
  return { envelope, body, headers };
}

function outcome(run: () => unknown): 'accepted' | WebhookVerificationErrorCode {
  try {
    run();
    return 'accepted';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code;
    throw error;
  }
}

describe('verify on the Standard Webhooks scheme', () => {
  it('accepts a delivery the library signed and names its event by the unprefixed webhook-id', () => {
    const d = libraryDelivery([NEW]);
    const verified = verify(d.body, d.headers, NEW, { now });
    expect(verified.envelope).toEqual(d.envelope);
    expect(verified.eventId.replace(/-/g, '')).toBe(d.envelope.id.slice('evt_'.length));
    expect([verified.deliveryId, verified.timestamp]).toEqual(['dlv_0001', NOW_S]);
  });

  it('accepts a rotation’s two signatures with either secret; rejects a third secret', () => {
    const d = libraryDelivery([NEW, OLD]);
    expect(d.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    const verdicts = [OLD, NEW, newSecret()].map((s) => outcome(() => verify(d.body, d.headers, s, { now })));
    expect(verdicts).toEqual(['accepted', 'accepted', 'SIGNATURE_MISMATCH']);
  });

  it('rejects a changed body, a webhook-id of another event, and a stale timestamp', () => {
    const d = libraryDelivery([NEW]);
    expect(outcome(() => verify(`${d.body} `, d.headers, NEW, { now }))).toBe('SIGNATURE_MISMATCH');
    const otherId = { ...d.headers, 'webhook-id': entryEnvelope().id };
    expect(outcome(() => verify(d.body, otherId, NEW, { now }))).toBe('SIGNATURE_MISMATCH'); // the id is signed
    const old = libraryDelivery([NEW], NOW_S - 301);
    expect(outcome(() => verify(old.body, old.headers, NEW, { now }))).toBe('TIMESTAMP_TOO_OLD');
  });

  it('keys with the base64-decoded secret: the same string as an Svc-* key does not verify', () => {
    const d = libraryDelivery([NEW]);
    expect(outcome(() => verify(d.body, d.headers, 'whsec_test_not-base64', { now }))).toBe('SIGNATURE_MISMATCH');
  });

  it('signs as the library verifies: one v1 per secret, newest first', () => {
    const envelope = entryEnvelope();
    const body = JSON.stringify(envelope);
    const t = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': envelope.id,
      'webhook-timestamp': String(t),
      'webhook-signature': signStandard(body, [NEW, OLD], envelope.id, t),
    };
    expect(new Webhook(NEW).verify(body, headers)).toEqual(envelope);
    expect(new Webhook(OLD).verify(body, headers)).toEqual(envelope);
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow('No matching signature found');
  });
});
