// A secret rotation as a receiver sees it (issue 24): while the grace lasts every POST carries one v1 per
// active secret, newest first (`t=…,v1=<new>,v1=<old>`), and a receiver that knows either secret accepts
// it; afterwards only the new secret signs, and a receiver that still knows only the old one rejects.
import crypto from 'node:crypto';
import { WebhookVerificationError, type WebhookVerificationErrorCode } from './errors';
import { parseSignatureHeader } from './headers';
import { anySignatureMatches } from './signature';
import { NOW_MS, NOW_S, delivery } from './test-fixtures';
import { verify } from './verify';

const OLD = 'whsec_old_8f3c1a9e2b7d4f6a0c5e8b1d3f7a9c2e';
const NEW = 'whsec_new_1b4d7f0a3c6e9b2d5f8a1c4e7b0d3f6a';
const now = () => NOW_MS;

function outcome(run: () => unknown): 'accepted' | WebhookVerificationErrorCode {
  try {
    run();
    return 'accepted';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code;
    throw error;
  }
}

describe('verify during and after a secret rotation', () => {
  const duringGrace = delivery({ secret: [NEW, OLD] });
  const afterGrace = delivery({ secret: NEW });

  it('during the grace the header carries the new then the old signature', () => {
    expect(parseSignatureHeader(duringGrace.headers['Svc-Signature']!).signatures).toHaveLength(2);
    expect(duringGrace.headers['Svc-Signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
  });

  it('during the grace a receiver knowing only the old, only the new, or both secrets accepts', () => {
    for (const secret of [OLD, NEW, [OLD, NEW], [NEW, OLD]]) {
      expect(outcome(() => verify(duringGrace.body, duringGrace.headers, secret, { now }))).toBe('accepted');
    }
  });

  it('after the grace a receiver knowing only the old secret rejects; the new one accepts', () => {
    expect(outcome(() => verify(afterGrace.body, afterGrace.headers, OLD, { now }))).toBe('SIGNATURE_MISMATCH');
    expect(outcome(() => verify(afterGrace.body, afterGrace.headers, NEW, { now }))).toBe('accepted');
    // A receiver that kept both while rolling out is fine either way.
    expect(outcome(() => verify(afterGrace.body, afterGrace.headers, [OLD, NEW], { now }))).toBe('accepted');
  });

  it('a secret that signs none of the v1 values is rejected however many there are', () => {
    expect(outcome(() => verify(duringGrace.body, duringGrace.headers, 'whsec_other', { now }))).toBe(
      'SIGNATURE_MISMATCH',
    );
  });

  it('keeps the timestamp tolerance: matching v1 values do not make an old or future t acceptable', () => {
    const old = delivery({ secret: [NEW, OLD], t: NOW_S - 301 });
    const ahead = delivery({ secret: [NEW, OLD], t: NOW_S + 31 });
    expect(outcome(() => verify(old.body, old.headers, OLD, { now }))).toBe('TIMESTAMP_TOO_OLD');
    expect(outcome(() => verify(ahead.body, ahead.headers, NEW, { now }))).toBe('TIMESTAMP_IN_FUTURE');
    const custom = delivery({ secret: [NEW, OLD], t: NOW_S - 61 });
    expect(outcome(() => verify(custom.body, custom.headers, NEW, { now, toleranceSeconds: 60 }))).toBe(
      'TIMESTAMP_TOO_OLD',
    );
  });

  it('compares in constant time: every v1 against every secret, with no early exit on a match', () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    try {
      const digest = (fill: number) => Buffer.alloc(32, fill);
      const hex = (fill: number) => digest(fill).toString('hex');
      // The first candidate matches the first secret: still 2 candidates x 2 secrets comparisons.
      expect(anySignatureMatches([digest(1), digest(2)], [hex(1), hex(3)])).toBe(true);
      expect(spy).toHaveBeenCalledTimes(4);
      spy.mockClear();
      expect(anySignatureMatches([digest(1), digest(2)], [hex(3), hex(4)])).toBe(false);
      expect(spy).toHaveBeenCalledTimes(4);
    } finally {
      spy.mockRestore();
    }
  });
});
