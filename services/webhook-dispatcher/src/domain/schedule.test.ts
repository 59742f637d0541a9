import { SPEC_SCHEDULE, parseSchedule } from './schedule';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

describe('SPEC_SCHEDULE', () => {
  const tiers = parseSchedule(SPEC_SCHEDULE);

  it('parses to exactly the spec delays: 30 s, 1 m, 5 m, 15 m, 1 h, 3 h, 12 h, 24 h', () => {
    expect(tiers.map((t) => t.ms)).toEqual([30 * S, 1 * M, 5 * M, 15 * M, 1 * H, 3 * H, 12 * H, 24 * H]);
    expect(tiers.map((t) => t.label)).toEqual(['30s', '1m', '5m', '15m', '1h', '3h', '12h', '24h']);
  });

  // Cumulative column of the spec's retry table: when attempt N starts, counted from attempt 1.
  it.each([
    [1, 0],
    [2, 30 * S],
    [3, 1 * M + 30 * S],
    [4, 6 * M + 30 * S],
    [5, 21 * M + 30 * S],
    [6, 1 * H + 21 * M + 30 * S], // "about 1 h 21 m"
    [7, 4 * H + 21 * M + 30 * S], // "about 4 h 21 m"
    [8, 16 * H + 21 * M + 30 * S], // "about 16 h 21 m"
    [9, 40 * H + 21 * M + 30 * S], // "about 40 h 21 m"
  ])('attempt %i starts %i ms after the first', (attempt, cumulative) => {
    const sum = tiers.slice(0, attempt - 1).reduce((total, t) => total + t.ms, 0);
    expect(sum).toBe(cumulative);
  });

  it('gives 9 attempts in total (initial plus 8 retries)', () => {
    expect(tiers.length + 1).toBe(9);
  });
});

describe('parseSchedule', () => {
  it.each([
    ['ms', '250ms', 250],
    ['s', '30s', 30 * S],
    ['m', '5m', 5 * M],
    ['h', '3h', 3 * H],
    ['d', '1d', 24 * H],
  ])('understands the unit %s (%s → %i ms)', (_unit, label, ms) => {
    const tiers = parseSchedule(Array(8).fill(label).join(','));
    expect(tiers).toHaveLength(8);
    for (const tier of tiers) expect(tier).toEqual({ label, ms });
  });

  it('accepts a fast test schedule with mixed units and trims spaces around entries', () => {
    expect(parseSchedule(' 100ms, 200ms ,1s,2s,  3s,1m,1h ,1d ')).toEqual([
      { label: '100ms', ms: 100 },
      { label: '200ms', ms: 200 },
      { label: '1s', ms: 1000 },
      { label: '2s', ms: 2000 },
      { label: '3s', ms: 3000 },
      { label: '1m', ms: M },
      { label: '1h', ms: H },
      { label: '1d', ms: 24 * H },
    ]);
  });

  it.each([
    ['7 entries', '30s,1m,5m,15m,1h,3h,12h', /needs 8 delays .* got 7/],
    ['9 entries', '30s,1m,5m,15m,1h,3h,12h,24h,48h', /needs 8 delays .* got 9/],
    ['1 entry', '30s', /got 1/],
  ])('rejects %s', (_name, text, message) => {
    expect(() => parseSchedule(text)).toThrow(message);
  });

  it.each([
    ['an unknown unit', '30s,1m,5m,15m,1h,3h,12h,1w'],
    ['an upper-case unit', '30S,1m,5m,15m,1h,3h,12h,24h'],
    ['a missing unit', '30,1m,5m,15m,1h,3h,12h,24h'],
    ['a fraction', '0.5s,1m,5m,15m,1h,3h,12h,24h'],
    ['a negative delay', '-30s,1m,5m,15m,1h,3h,12h,24h'],
    ['a space inside an entry', '30 s,1m,5m,15m,1h,3h,12h,24h'],
    ['an empty entry', '30s,,5m,15m,1h,3h,12h,24h'],
    ['a trailing comma', '30s,1m,5m,15m,1h,3h,12h,24h,'],
    ['an empty string', ''],
    ['words', 'thirty seconds'],
  ])('rejects %s', (_name, text) => {
    expect(() => parseSchedule(text)).toThrow(/is not a delay like 30s, 5m or 1h/);
  });

  it.each(['0s', '0ms', '0m', '00h'])('rejects the zero delay %s', (zero) => {
    expect(() => parseSchedule(`30s,1m,${zero},15m,1h,3h,12h,24h`)).toThrow(`"${zero}" must be positive`);
  });

  it('names the offending entry in the error', () => {
    expect(() => parseSchedule('30s,1m,5m,15m,1h,3h,12h,24x')).toThrow('"24x" is not a delay like 30s, 5m or 1h');
  });
});
