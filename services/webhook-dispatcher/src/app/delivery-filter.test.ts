import { AppError } from '@travel/platform';
import { createdRange } from './deliveries';

describe('createdRange: the delivery log filtered by creation time', () => {
  it('no bounds: no condition', () => {
    expect(createdRange({ status: 'Failed' })).toBeUndefined();
  });

  it('from is inclusive, before is exclusive', () => {
    expect(
      createdRange({ createdFrom: '2026-11-20T08:00:00Z', createdBefore: '2026-11-21T00:00:00.000+01:00' }),
    ).toEqual({
      $gte: new Date('2026-11-20T08:00:00.000Z'),
      $lt: new Date('2026-11-20T23:00:00.000Z'),
    });
  });

  it('either bound alone', () => {
    expect(createdRange({ createdFrom: '2026-11-20T08:00:00Z' })).toEqual({ $gte: new Date('2026-11-20T08:00:00Z') });
    expect(createdRange({ createdBefore: '2026-11-20T08:00:00Z' })).toEqual({ $lt: new Date('2026-11-20T08:00:00Z') });
  });

  it.each([
    ['equal bounds (an empty range)', '2026-11-20T08:00:00Z', '2026-11-20T08:00:00Z'],
    ['reversed bounds', '2026-11-21T08:00:00Z', '2026-11-20T08:00:00Z'],
  ])('%s: 400 under errors.createdBefore', (_name, createdFrom, createdBefore) => {
    let error: unknown;
    try {
      createdRange({ createdFrom, createdBefore });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { createdBefore: ['must be later than createdFrom'] },
    });
  });

  it('a date-time no instant matches (a leap second) is 400 under its own name', () => {
    expect(() => createdRange({ createdFrom: '2026-12-31T23:59:60Z' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', errors: { createdFrom: ['not a valid instant'] } }),
    );
  });
});
