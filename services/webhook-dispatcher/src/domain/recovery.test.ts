import { checkRecoverySince, eventsToRecover } from './recovery';

describe('recover: since', () => {
  const now = new Date('2026-11-22T12:00:00.000Z');

  it('accepts a timestamp up to 30 days back', () => {
    expect(checkRecoverySince('2026-10-23T12:00:00.000Z', now)).toEqual({
      errors: {},
      since: new Date('2026-10-23T12:00:00.000Z'),
    });
    expect(checkRecoverySince('2026-11-22T11:00:00Z', now).since).toEqual(new Date('2026-11-22T11:00:00Z'));
  });

  it('refuses a timestamp more than 30 days back, keyed by field', () => {
    expect(checkRecoverySince('2026-10-23T11:59:59.999Z', now)).toEqual({
      errors: { since: ['must be at most 30 days ago'] },
    });
  });

  it('refuses what is not a timestamp', () => {
    expect(checkRecoverySince('yesterday', now).errors).toEqual({ since: ['must be an ISO 8601 timestamp'] });
  });
});

describe('recover: which events', () => {
  const ids = ['e1', 'e2', 'e3', 'e4', 'e5'];

  it('skips what an earlier subscription to the URL delivered and what this one already has', () => {
    const prior = [
      { eventId: 'e1', subscriptionId: 'old', status: 'Succeeded' },
      { eventId: 'e2', subscriptionId: 'old', status: 'Exhausted' },
      { eventId: 'e3', subscriptionId: 'old', status: 'Failed' },
      { eventId: 'e3', subscriptionId: 'older', status: 'Succeeded' },
      { eventId: 'e4', subscriptionId: 'new', status: 'Pending' },
    ];
    expect(eventsToRecover(ids, prior, 'new')).toEqual(['e2', 'e5']);
  });

  it('sends everything when nothing was delivered', () => {
    expect(eventsToRecover(ids, [], 'new')).toEqual(ids);
  });
});
