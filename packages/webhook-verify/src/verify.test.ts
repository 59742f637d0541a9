import { createHmac } from 'node:crypto';
import { WebhookVerificationError, type WebhookVerificationErrorCode } from './errors';
import { parseSignatureHeader, type HeaderSource } from './headers';
import { NOW_MS, NOW_S, SECRET, delivery, entryEnvelope } from './test-fixtures';
import type { TravelEntryWebhookDto } from './types';
import { envelopeIdFromEventId, eventIdFromEnvelopeId, sameEvent, sign, verify, type VerifyOptions } from './verify';

const now = () => NOW_MS;

function codeOf(run: () => unknown): WebhookVerificationErrorCode {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code;
    throw error;
  }
  throw new Error('expected a WebhookVerificationError');
}

function reject(body: string | Buffer, headers: HeaderSource, opts: VerifyOptions = {}, secret = SECRET) {
  return codeOf(() => verify(body, headers, secret, { now, ...opts }));
}

describe('sign: test vector', () => {
  // Fixed inputs; the expected value was produced outside this package with
  // `printf '%s' "1791360000.$BODY" | openssl dgst -sha256 -hmac "$SECRET"`.
  const body =
    '{"id":"evt_3f2b8c1e9a4d4b7c8e1f0a2b3c4d5e6f","type":"entry.approved","createdAt":"2026-10-07T08:15:00.000Z","data":{"id":"e1","amount":12.5,"note":"Zürich"}}';
  const expectedHex = '6d0b039f0a11e342e830515d064387728f5c835b065d47a987f9f7ea08c6a18c';

  it('matches the openssl vector and an independent node:crypto HMAC', () => {
    const independent = createHmac('sha256', SECRET).update(`${NOW_S}.${body}`).digest('hex');
    expect(independent).toBe(expectedHex);
    expect(sign(body, SECRET, NOW_S)).toBe(`t=${NOW_S},v1=${expectedHex}`);
    expect(sign(Buffer.from(body, 'utf8'), SECRET, NOW_S)).toBe(`t=${NOW_S},v1=${expectedHex}`);
    expect(sign(new Uint8Array(Buffer.from(body, 'utf8')), SECRET, NOW_S)).toBe(`t=${NOW_S},v1=${expectedHex}`);
  });

  it('keys with the full secret including whsec_', () => {
    const withoutPrefix = createHmac('sha256', SECRET.slice('whsec_'.length)).update(`${NOW_S}.${body}`);
    expect(sign(body, SECRET, NOW_S)).not.toContain(withoutPrefix.digest('hex'));
  });

  it('emits one v1 per secret, in order', () => {
    const header = sign(body, ['whsec_new', 'whsec_old'], NOW_S);
    const hmac = (key: string) => createHmac('sha256', key).update(`${NOW_S}.${body}`).digest('hex');
    expect(header).toBe(`t=${NOW_S},v1=${hmac('whsec_new')},v1=${hmac('whsec_old')}`);
  });

  it('rejects bad timestamps and secrets as programming errors', () => {
    expect(() => sign(body, SECRET, 1.5)).toThrow(RangeError);
    expect(() => sign(body, SECRET, -1)).toThrow(RangeError);
    expect(() => sign(body, '', NOW_S)).toThrow(TypeError);
    expect(() => sign(body, [], NOW_S)).toThrow(TypeError);
  });
});

describe('verify: accepted deliveries', () => {
  it('returns envelope, eventId, deliveryId and timestamp', () => {
    const { body, headers, eventId } = delivery();
    const result = verify(body, headers, SECRET, { now });
    expect(result).toEqual({ envelope: JSON.parse(body), eventId, deliveryId: 'dlv_0001', timestamp: NOW_S });
    if (result.envelope.type === 'entry.approved') {
      const data: TravelEntryWebhookDto = result.envelope.data; // narrowed by the discriminant
      expect(data.phase).toBe(0);
    }
  });

  it('looks headers up case-insensitively and accepts Node-style arrays and Fetch Headers', () => {
    const { body, headers } = delivery();
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(() => verify(body, lower, SECRET, { now })).not.toThrow();
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect(() => verify(body, upper, SECRET, { now })).not.toThrow();
    expect(() => verify(body, new Headers(headers), SECRET, { now })).not.toThrow();
  });

  it('lowercases the event id from the header', () => {
    const d = delivery();
    const headers = { ...d.headers, 'Svc-Event-Id': d.eventId.toUpperCase() };
    expect(verify(d.body, headers, SECRET, { now }).eventId).toBe(d.eventId);
  });

  it('accepts a body given as Buffer or string, including non-ASCII bytes', () => {
    const eventId = '3f2b8c1e-9a4d-4b7c-8e1f-0a2b3c4d5e6f';
    const env = entryEnvelope(eventId);
    const body = JSON.stringify({ ...env, data: { ...env.data, note: 'Škoda – Zürich ✓' } });
    const { headers } = delivery({ eventId, body });
    expect(verify(Buffer.from(body), headers, SECRET, { now }).envelope.data.note).toBe('Škoda – Zürich ✓');
    expect(() => verify(body, headers, SECRET, { now })).not.toThrow();
  });

  it('accepts if any of several v1 values matches (rotation), whichever position', () => {
    const { body, headers } = delivery({ secret: ['whsec_other', SECRET] });
    expect(() => verify(body, headers, SECRET, { now })).not.toThrow();
    const single = delivery({ secret: SECRET });
    const sig = single.headers['Svc-Signature']!;
    const withJunk = `${sig},v1=${'0'.repeat(64)},v1=short`;
    expect(() => verify(single.body, { ...single.headers, 'Svc-Signature': withJunk }, SECRET, { now })).not.toThrow();
  });

  it('accepts a receiver holding several secrets', () => {
    const { body, headers } = delivery({ secret: 'whsec_new' });
    expect(() => verify(body, headers, ['whsec_old', 'whsec_new'], { now })).not.toThrow();
  });

  it('tolerates spaces after commas, unknown schemes and a repeated signature header', () => {
    const { body, headers } = delivery();
    const [t, v1] = headers['Svc-Signature']!.split(',');
    for (const value of [`${t}, ${v1}`, `${v1},${t}`, `${t},v0=abc,${v1},v2=zzz`]) {
      expect(() => verify(body, { ...headers, 'Svc-Signature': value }, SECRET, { now })).not.toThrow();
    }
    expect(() => verify(body, { ...headers, 'Svc-Signature': [t!, v1!] }, SECRET, { now })).not.toThrow();
  });

  it('accepts timestamps exactly at the tolerance and skew limits', () => {
    const old = delivery({ t: NOW_S - 300 });
    expect(() => verify(old.body, old.headers, SECRET, { now })).not.toThrow();
    const ahead = delivery({ t: NOW_S + 30 });
    expect(() => verify(ahead.body, ahead.headers, SECRET, { now })).not.toThrow();
  });
});

describe('verify: rejections', () => {
  it('MISSING_HEADER for each required header, and for an empty value', () => {
    const { body, headers } = delivery();
    for (const name of ['Svc-Signature', 'Svc-Event-Id', 'Svc-Event', 'Svc-Delivery-Id']) {
      const { [name]: _dropped, ...rest } = headers;
      expect(reject(body, rest)).toBe('MISSING_HEADER');
      expect(reject(body, { ...rest, [name]: '  ' })).toBe('MISSING_HEADER');
      expect(reject(body, { ...rest, [name]: [] })).toBe('MISSING_HEADER');
    }
  });

  it.each([
    ['no t', (_t: string, v1: string) => v1],
    ['no v1', (t: string, _v1: string) => t],
    ['t not a number', (_t: string, v1: string) => `t=abc,${v1}`],
    ['negative t', (_t: string, v1: string) => `t=-5,${v1}`],
    ['fractional t', (_t: string, v1: string) => `t=1791360000.5,${v1}`],
    ['two t', (t: string, v1: string) => `${t},${t},${v1}`],
    ['empty v1', (t: string, _v1: string) => `${t},v1=`],
    ['no key=value', (t: string, v1: string) => `${t};${v1}`],
    ['bare token', (t: string, v1: string) => `${t},${v1},garbage`],
  ])('MALFORMED_HEADER: signature with %s', (_name, build) => {
    const { body, headers } = delivery();
    const [t, v1] = headers['Svc-Signature']!.split(',') as [string, string];
    expect(reject(body, { ...headers, 'Svc-Signature': build(t, v1) })).toBe('MALFORMED_HEADER');
  });

  it('MALFORMED_HEADER for a non-GUID event id or an ambiguous repeated header', () => {
    const { body, headers, eventId } = delivery();
    expect(reject(body, { ...headers, 'Svc-Event-Id': eventId.replace(/-/g, '') })).toBe('MALFORMED_HEADER');
    expect(reject(body, { ...headers, 'Svc-Event-Id': `evt_${eventId}` })).toBe('MALFORMED_HEADER');
    expect(reject(body, { ...headers, 'Svc-Event-Id': `${eventId}, ${eventId}` })).toBe('MALFORMED_HEADER');
    expect(reject(body, { ...headers, 'Svc-Event': ['entry.approved', 'entry.updated'] })).toBe('MALFORMED_HEADER');
  });

  it('TIMESTAMP_TOO_OLD beyond the tolerance (default and custom)', () => {
    const { body, headers } = delivery({ t: NOW_S - 301 });
    expect(reject(body, headers)).toBe('TIMESTAMP_TOO_OLD');
    const recent = delivery({ t: NOW_S - 61 });
    expect(reject(recent.body, recent.headers, { toleranceSeconds: 60 })).toBe('TIMESTAMP_TOO_OLD');
  });

  it('TIMESTAMP_IN_FUTURE beyond the skew (default and custom)', () => {
    const { body, headers } = delivery({ t: NOW_S + 31 });
    expect(reject(body, headers)).toBe('TIMESTAMP_IN_FUTURE');
    const near = delivery({ t: NOW_S + 6 });
    expect(reject(near.body, near.headers, { futureSkewSeconds: 5 })).toBe('TIMESTAMP_IN_FUTURE');
  });

  it('checks the clock before the HMAC, and uses Date.now by default', () => {
    const { body, headers } = delivery({ t: NOW_S });
    // NOW_S is in 2026-10; a real clock far from it must be rejected either way.
    const code = codeOf(() => verify(body, headers, SECRET));
    const realNow = Date.now() / 1000;
    expect(code).toBe(realNow > NOW_S ? 'TIMESTAMP_TOO_OLD' : 'TIMESTAMP_IN_FUTURE');
  });

  it('SIGNATURE_MISMATCH for a wrong secret, a stripped whsec_ prefix, or a replayed signature with a new t', () => {
    const { body, headers } = delivery();
    expect(reject(body, headers, {}, 'whsec_wrong')).toBe('SIGNATURE_MISMATCH');
    expect(reject(body, headers, {}, SECRET.slice('whsec_'.length))).toBe('SIGNATURE_MISMATCH');
    const v1 = headers['Svc-Signature']!.split(',')[1];
    expect(reject(body, { ...headers, 'Svc-Signature': `t=${NOW_S + 1},${v1}` })).toBe('SIGNATURE_MISMATCH');
  });

  it('SIGNATURE_MISMATCH when the body is re-serialized: whitespace and key order matter', () => {
    const { body, headers } = delivery();
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const pretty = JSON.stringify(parsed, null, 2);
    const reordered = JSON.stringify({
      type: parsed.type,
      id: parsed.id,
      createdAt: parsed.createdAt,
      data: parsed.data,
    });
    expect(JSON.parse(pretty)).toEqual(JSON.parse(body));
    expect(reject(pretty, headers)).toBe('SIGNATURE_MISMATCH');
    expect(reject(reordered, headers)).toBe('SIGNATURE_MISMATCH');
    expect(reject(`${body}\n`, headers)).toBe('SIGNATURE_MISMATCH');
    expect(reject(` ${body}`, headers)).toBe('SIGNATURE_MISMATCH');
  });

  it('SIGNATURE_MISMATCH (never a RangeError) for v1 of the wrong length or alphabet', () => {
    const { body, headers } = delivery();
    const good = headers['Svc-Signature']!.split(',')[1]!.slice(3);
    const t = `t=${NOW_S}`;
    for (const v1 of [good.slice(0, 63), `${good}00`, good.slice(0, 32), 'zz'.repeat(32), `${good.slice(0, 62)}zz`]) {
      expect(reject(body, { ...headers, 'Svc-Signature': `${t},v1=${v1}` })).toBe('SIGNATURE_MISMATCH');
    }
  });

  it('accepts uppercase hex as the same signature (hex case carries no information)', () => {
    const { body, headers } = delivery();
    const upper = headers['Svc-Signature']!.replace(/v1=([0-9a-f]+)/, (_m, hex: string) => `v1=${hex.toUpperCase()}`);
    expect(() => verify(body, { ...headers, 'Svc-Signature': upper }, SECRET, { now })).not.toThrow();
  });

  it.each([
    ['not JSON', 'not json'],
    ['a JSON array', '[]'],
    ['id without evt_', JSON.stringify({ ...entryEnvelope(), id: 'abc' })],
    ['id with uppercase hex', JSON.stringify({ ...entryEnvelope(), id: `evt_${'A'.repeat(32)}` })],
    ['a type that is not an event type', JSON.stringify({ ...entryEnvelope(), type: 'Entry Deleted!' })],
    ['a type that is not a string', JSON.stringify({ ...entryEnvelope(), type: 42 })],
    ['missing createdAt', JSON.stringify({ ...entryEnvelope(), createdAt: undefined })],
    ['data not an object', JSON.stringify({ ...entryEnvelope(), data: 'x' })],
  ])('MALFORMED_BODY (correctly signed) when the body is %s', (_name, body) => {
    const { headers } = delivery({ body });
    expect(reject(body, headers)).toBe('MALFORMED_BODY');
  });

  it('accepts an event type newer than this SDK (the catalog grows by release)', () => {
    const eventId = '0b7e7d3e-5f4a-4c1e-9d2b-3a6f1e8c9d00';
    const body = JSON.stringify({ ...entryEnvelope(eventId), type: 'entry.archived' });
    const { headers } = delivery({ eventId, body });
    headers['Svc-Event'] = 'entry.archived';
    expect(verify(body, headers, SECRET, { now }).envelope.type).toBe('entry.archived');
  });

  it('EVENT_ID_MISMATCH when Svc-Event-Id (not signed) names another event than the body', () => {
    const { body, headers } = delivery();
    expect(reject(body, { ...headers, 'Svc-Event-Id': '00000000-0000-4000-8000-000000000000' })).toBe(
      'EVENT_ID_MISMATCH',
    );
  });

  it('EVENT_TYPE_MISMATCH when Svc-Event (not signed) disagrees with the envelope type', () => {
    const { body, headers } = delivery();
    expect(reject(body, { ...headers, 'Svc-Event': 'entry.paidout' })).toBe('EVENT_TYPE_MISMATCH');
  });

  it('throws RangeError/TypeError for invalid options or secret (programming errors)', () => {
    const { body, headers } = delivery();
    expect(() => verify(body, headers, SECRET, { now, toleranceSeconds: -1 })).toThrow(RangeError);
    expect(() => verify(body, headers, SECRET, { now, futureSkewSeconds: Number.NaN })).toThrow(RangeError);
    expect(() => verify(body, headers, '', { now })).toThrow(TypeError);
  });

  it('error messages never contain the secret or the expected signature', () => {
    const { body, headers } = delivery();
    try {
      verify(body, headers, 'whsec_wrong', { now });
    } catch (error) {
      const expected = sign(body, 'whsec_wrong', NOW_S).split('v1=')[1]!;
      expect((error as Error).message).not.toContain(expected);
      expect((error as Error).message).not.toContain('whsec_wrong');
      expect((error as Error).name).toBe('WebhookVerificationError');
    }
    expect.hasAssertions();
  });
});

describe('parseSignatureHeader', () => {
  it('keeps the timestamp text as sent and every v1 in order', () => {
    expect(parseSignatureHeader('t=0017,v1=aa,v1=bb')).toEqual({
      timestampText: '0017',
      timestamp: 17,
      signatures: ['aa', 'bb'],
    });
  });
});

describe('event id helpers', () => {
  const guid = '3f2b8c1e-9a4d-4b7c-8e1f-0a2b3c4d5e6f';
  const envId = 'evt_3f2b8c1e9a4d4b7c8e1f0a2b3c4d5e6f';

  it('converts both ways', () => {
    expect(envelopeIdFromEventId(guid)).toBe(envId);
    expect(envelopeIdFromEventId(guid.toUpperCase())).toBe(envId);
    expect(eventIdFromEnvelopeId(envId)).toBe(guid);
  });

  it('throws TypeError on malformed input', () => {
    expect(() => eventIdFromEnvelopeId('evt_123')).toThrow(TypeError);
    expect(() => eventIdFromEnvelopeId(guid)).toThrow(TypeError);
    expect(() => envelopeIdFromEventId(envId)).toThrow(TypeError);
    expect(() => envelopeIdFromEventId('3f2b8c1e9a4d4b7c8e1f0a2b3c4d5e6f')).toThrow(TypeError);
  });

  it('sameEvent compares without throwing', () => {
    expect(sameEvent(envId, guid)).toBe(true);
    expect(sameEvent(envId, guid.toUpperCase())).toBe(true);
    expect(sameEvent(envId, '00000000-0000-4000-8000-000000000000')).toBe(false);
    expect(sameEvent('evt_nope', guid)).toBe(false);
    expect(sameEvent(envId, 'nope')).toBe(false);
    expect(sameEvent(undefined as unknown as string, guid)).toBe(false);
  });
});
