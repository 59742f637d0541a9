import { healthOf, noticeBackoffMs } from './health';

describe('healthOf', () => {
  const at = new Date('2026-11-30T08:00:00.000Z');
  it('is healthy, failing or disabled from the stored marks', () => {
    expect(healthOf({ isActive: true, disabledAt: null, consecutiveExhausted: 2 })).toEqual({
      status: 'healthy',
      consecutiveExhausted: 2,
      since: null,
      lastNoticeAt: null,
    });
    expect(
      healthOf({ isActive: true, disabledAt: null, consecutiveExhausted: 3, failingSince: at, lastNoticeAt: at }),
    ).toEqual({ status: 'failing', consecutiveExhausted: 3, since: at.toISOString(), lastNoticeAt: at.toISOString() });
    expect(
      healthOf({ isActive: false, disabledAt: at, consecutiveExhausted: 10, failingSince: new Date(0) }).status,
    ).toBe('disabled');
  });
});

describe('noticeBackoffMs', () => {
  it('doubles from a minute and stops at an hour', () => {
    // 1, 2, 4 minutes; the 7th would be 64 minutes: an hour.
    expect([1, 2, 3, 7, 8, 20].map(noticeBackoffMs)).toEqual([
      60_000, 120_000, 240_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });
});
