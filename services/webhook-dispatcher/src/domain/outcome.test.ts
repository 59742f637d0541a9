import {
  DISABLE_AFTER_EXHAUSTED,
  MAX_ATTEMPTS,
  classify,
  outcomeOf,
  statusAfter,
  type OutcomeKind,
  type Sent,
} from './outcome';

// The spec's delivery state table (SPEC.md, States and transitions, Webhook delivery):
//   2xx → Succeeded, no retry
//   4xx other than 408, 429 → Failed, no retry (3xx too: redirects are not followed)
//   408, 429, 5xx, network error, no answer within 10 s → retried per schedule
//   still no 2xx after all 9 attempts → Exhausted
const ALL_ATTEMPTS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const BEFORE_LAST = [1, 2, 3, 4, 5, 6, 7, 8];

describe('delivery limits', () => {
  it('makes 9 attempts in total and disables after 10 Exhausted deliveries in a row', () => {
    expect(MAX_ATTEMPTS).toBe(9);
    expect(DISABLE_AFTER_EXHAUSTED).toBe(10);
  });
});

describe('classify', () => {
  describe.each([200, 201, 202, 204, 299])('HTTP %i (2xx)', (status) => {
    it.each(ALL_ATTEMPTS)('succeeds on attempt %i', (attempt) => {
      expect(classify(status, attempt)).toBe('succeeded');
    });
  });

  describe.each([400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 451, 499])(
    'HTTP %i (4xx other than 408, 429)',
    (status) => {
      it.each(ALL_ATTEMPTS)('fails for good on attempt %i', (attempt) => {
        expect(classify(status, attempt)).toBe('failed');
      });
    },
  );

  describe.each([300, 301, 302, 303, 307, 308])('HTTP %i (redirect, not followed)', (status) => {
    it.each(ALL_ATTEMPTS)('fails for good on attempt %i', (attempt) => {
      expect(classify(status, attempt)).toBe('failed');
    });
  });

  describe.each<[string, number | undefined]>([
    ['HTTP 408', 408],
    ['HTTP 429', 429],
    ['HTTP 500', 500],
    ['HTTP 501', 501],
    ['HTTP 502', 502],
    ['HTTP 503', 503],
    ['HTTP 504', 504],
    ['HTTP 599', 599],
    ['network error / time-out (no status)', undefined],
  ])('%s (retryable)', (_name, status) => {
    it.each(BEFORE_LAST)('is retried after attempt %i', (attempt) => {
      expect(classify(status, attempt)).toBe('retry');
    });

    it('is exhausted on attempt 9', () => {
      expect(classify(status, 9)).toBe('exhausted');
    });

    it('stays exhausted past the last attempt (e.g. a late manual-retry counter)', () => {
      expect(classify(status, 10)).toBe('exhausted');
    });
  });

  it('succeeds on attempt 9 when the partner finally answers 2xx', () => {
    expect(classify(200, 9)).toBe('succeeded');
  });

  it('fails (not exhausted) on attempt 9 with a non-retryable 4xx', () => {
    expect(classify(404, 9)).toBe('failed');
  });

  it.each([100, 101, 199])('treats the informational status %i as a final failure, not success', (status) => {
    expect(classify(status, 1)).toBe('failed');
  });
});

describe('statusAfter', () => {
  it.each<[OutcomeKind, string]>([
    ['succeeded', 'Succeeded'],
    ['failed', 'Failed'],
    ['exhausted', 'Exhausted'],
    ['retry', 'Pending'],
  ])('%s → %s', (outcome, status) => {
    expect(statusAfter(outcome)).toBe(status);
  });

  it.each<[number | undefined, number, string]>([
    [204, 1, 'Succeeded'],
    [410, 3, 'Failed'],
    [503, 8, 'Pending'],
    [undefined, 9, 'Exhausted'],
  ])('HTTP %p on attempt %i leaves the delivery %s', (status, attempt, expected) => {
    expect(statusAfter(classify(status, attempt))).toBe(expected);
  });
});

// The same table, over what became of the request: a refused destination and an attempt with nothing left to
// send (subscription deleted or disabled, event gone) fail for good; no answer is retried, then exhausted.
describe('outcomeOf', () => {
  const answered = (statusCode: number): Sent => ({ kind: 'answered', statusCode, body: '', durationMs: 5 });
  const noAnswer: Sent = { kind: 'no-answer', error: 'no complete answer within 10000 ms', durationMs: 10_000 };

  it.each<[string, Sent, number, OutcomeKind]>([
    ['2xx', answered(200), 1, 'succeeded'],
    ['2xx on the last attempt', answered(204), 9, 'succeeded'],
    ['4xx', answered(404), 1, 'failed'],
    ['503', answered(503), 1, 'retry'],
    ['503 on the last attempt', answered(503), 9, 'exhausted'],
    ['no answer', noAnswer, 8, 'retry'],
    ['no answer on the last attempt', noAnswer, 9, 'exhausted'],
    ['DNS trouble (no answer)', { kind: 'no-answer', error: 'dns: x has no address', durationMs: 0 }, 1, 'retry'],
    ['a refused destination', { kind: 'refused', error: 'refused: not a public address' }, 1, 'failed'],
    ['nothing to send', { kind: 'not-sent', error: 'subscription was deleted' }, 1, 'failed'],
  ])('%s → %s on attempt %i', (_name, sent, attempt, kind) => {
    const outcome = outcomeOf(sent, attempt);
    expect(outcome.kind).toBe(kind);
    expect(outcome.sent).toBe(sent);
  });
});
