import { contractAt } from '@travel/contracts';
import {
  DEFAULT_GRACE_SECONDS,
  MAX_GRACE_SECONDS,
  graceEndAt,
  gracePeriodOf,
  rotated,
  signingSecrets,
} from './secret-rotation';

const NOW = new Date('2026-11-26T06:00:00.000Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('the grace period a rotation asks for (issue 24: default 24 h, at most 7 days)', () => {
  it('is a day without a body or without the field', () => {
    expect(DEFAULT_GRACE_SECONDS).toBe(24 * 3600);
    for (const body of [undefined, null, {}]) expect(gracePeriodOf(body)).toEqual({ errors: {}, seconds: 86_400 });
  });

  it('takes 0 (an immediate cut-over), a few seconds, and exactly 7 days', () => {
    for (const seconds of [0, 3, 3600, 7 * 86_400]) {
      expect(gracePeriodOf({ gracePeriodSeconds: seconds })).toEqual({ errors: {}, seconds });
    }
  });

  it.each([
    [7 * 86_400 + 1, 'must be <= 604800'],
    [-1, 'must be >= 0'],
    [1.5, 'must be integer'],
    ['3600', 'must be integer'],
    [null, 'must be integer'],
  ])('refuses %p under gracePeriodSeconds (%s)', (value, message) => {
    expect(gracePeriodOf({ gracePeriodSeconds: value })).toEqual({ errors: { gracePeriodSeconds: [message] } });
  });

  it('refuses an unknown field and a body that is not an object', () => {
    expect(gracePeriodOf({ graceHours: 2 }).errors).toEqual({ graceHours: ['must NOT have additional properties'] });
    expect(gracePeriodOf([3]).seconds).toBeUndefined();
  });

  it('holds the contract’s figures', () => {
    const schema = '/components/schemas/RotateWebhookSecretRequest/properties/gracePeriodSeconds';
    expect(contractAt(`${schema}/maximum`)).toBe(MAX_GRACE_SECONDS);
    expect(contractAt(`${schema}/minimum`)).toBe(0);
    expect(contractAt(`${schema}/default`)).toBe(DEFAULT_GRACE_SECONDS);
  });
});

describe('rotating: at most two active secrets, newest first', () => {
  it('keeps the replaced secret until the grace ends', () => {
    expect(rotated({ secret: 'A' }, 'B', 60, NOW)).toEqual({
      secret: 'B',
      previousSecret: 'A',
      previousSecretExpiresAt: at(60),
    });
  });

  it('keeps nothing with a grace of 0', () => {
    expect(rotated({ secret: 'A' }, 'B', 0, NOW)).toEqual({
      secret: 'B',
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
  });

  it('rotating again during a grace drops the oldest: the one just replaced gets the new grace', () => {
    const first = rotated({ secret: 'A' }, 'B', 3600, NOW);
    const second = rotated(first, 'C', 60, at(10));
    expect(second).toEqual({ secret: 'C', previousSecret: 'B', previousSecretExpiresAt: at(70) });
    expect(signingSecrets(second, at(11))).toEqual(['C', 'B']);
  });
});

describe('the secrets an attempt signs with, at send time', () => {
  const sub = { secret: 'NEW', previousSecret: 'OLD', previousSecretExpiresAt: at(60) };

  it('are the new and the old one while the grace lasts', () => {
    expect(signingSecrets(sub, NOW)).toEqual(['NEW', 'OLD']);
    expect(signingSecrets(sub, at(59.999))).toEqual(['NEW', 'OLD']);
    expect(graceEndAt(sub, NOW)).toBe('2026-11-26T06:01:00.000Z');
  });

  it('are only the new one from the grace end on', () => {
    expect(signingSecrets(sub, at(60))).toEqual(['NEW']);
    expect(signingSecrets(sub, at(86_400))).toEqual(['NEW']);
    expect(graceEndAt(sub, at(60))).toBeNull();
  });

  it('are the one secret of a subscription never rotated', () => {
    expect(signingSecrets({ secret: 'ONLY' }, NOW)).toEqual(['ONLY']);
    expect(signingSecrets({ secret: 'ONLY', previousSecret: null, previousSecretExpiresAt: null }, NOW)).toEqual([
      'ONLY',
    ]);
    expect(graceEndAt({ secret: 'ONLY' }, NOW)).toBeNull();
  });
});
