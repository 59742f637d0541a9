// Wall-clock arithmetic against the zone database (the dates of the 2026 EU clock changes: 29 March and
// 25 October, 01:00 UTC).
import {
  addWallDays,
  INSTANT_PATTERN,
  instantOfWall,
  localDate,
  offsetAt,
  parseInstant,
  startOfLocalDay,
} from './time';
import { decimal, roundTo } from '@travel/money';
import { divide, formatCents, formatPercent, fractionOf, parseCents, percentOf } from './amount';

const t = (iso: string) => Date.parse(iso);

describe('time zones', () => {
  it('Prague is UTC+1 in winter and UTC+2 in summer, switching at 01:00 UTC', () => {
    expect(offsetAt('Europe/Prague', t('2026-03-29T00:59:59Z'))).toBe(3_600_000);
    expect(offsetAt('Europe/Prague', t('2026-03-29T01:00:00Z'))).toBe(7_200_000);
    expect(offsetAt('Europe/Warsaw', t('2026-10-25T00:59:59Z'))).toBe(7_200_000);
    expect(offsetAt('Europe/Warsaw', t('2026-10-25T01:00:00Z'))).toBe(3_600_000);
  });
  it('local midnights and dates around the changes', () => {
    expect(startOfLocalDay('Europe/Prague', t('2026-03-29T12:00:00Z'))).toBe(t('2026-03-28T23:00:00Z'));
    expect(startOfLocalDay('Europe/Prague', t('2026-03-29T22:30:00Z'))).toBe(t('2026-03-29T22:00:00Z'));
    expect(localDate('Europe/Bratislava', t('2026-10-24T22:30:00Z'))).toBe('2026-10-25');
  });
  it('a wall-clock day is 23 hours in spring and 25 in autumn', () => {
    expect(addWallDays('Europe/Warsaw', t('2026-03-28T07:00:00Z'), 1)).toBe(t('2026-03-29T06:00:00Z'));
    expect(addWallDays('Europe/Warsaw', t('2026-10-24T06:00:00Z'), 1)).toBe(t('2026-10-25T07:00:00Z'));
  });
  it('a wall time in the spring gap resolves to the first instant after it', () => {
    // 2026-03-29 02:30 does not exist in Warsaw; 03:30 CEST = 01:30Z.
    expect(instantOfWall('Europe/Warsaw', t('2026-03-29T02:30:00Z'))).toBe(t('2026-03-29T01:30:00Z'));
  });
  it('a wall time in the repeated autumn hour resolves to its second occurrence', () => {
    // 2026-10-25 02:30 occurs at 00:30Z (CEST) and at 01:30Z (CET).
    expect(instantOfWall('Europe/Warsaw', t('2026-10-25T02:30:00Z'))).toBe(t('2026-10-25T01:30:00Z'));
  });
  it('parses ISO 8601 instants and rejects impossible ones', () => {
    expect(parseInstant('2026-03-02T06:00:00Z')).toBe(t('2026-03-02T06:00:00Z'));
    expect(parseInstant('2026-03-02T06:00:00.5Z')).toBe(t('2026-03-02T06:00:00.500Z'));
    expect(parseInstant('2026-03-02T08:00:00+02:00')).toBe(t('2026-03-02T06:00:00Z'));
    expect(parseInstant('2026-02-29T06:00:00Z')).toBeNull();
    expect(parseInstant('2026-03-02 06:00')).toBeNull();
    expect(parseInstant('yesterday')).toBeNull();
  });
});

describe('amounts on integers', () => {
  it('parses and formats decimal strings with two places', () => {
    expect(parseCents('20.6')).toBe(2060);
    expect(parseCents('0.05')).toBe(5);
    expect(parseCents('1.005')).toBeNull();
    expect(parseCents('-1')).toBeNull();
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(123456)).toBe('1234.56');
    expect(formatPercent(1250)).toBe('12.5');
  });
  it('rounds half up, or up to the cent, exactly', () => {
    expect(divide(48750, 10000, 'halfUp')).toBe(5); // 4.875 → 5
    expect(divide(40001, 10000, 'halfUp')).toBe(4);
    expect(divide(40001, 10000, 'up')).toBe(5);
    expect(divide(4900, 3, 'halfUp')).toBe(1633); // 49 / 3 = 16.333… → 16.33
  });
});

describe('the integer arithmetic agrees with @travel/money (decimal.js)', () => {
  it('percentages and fractions of amounts, rounded half up and up to the cent', () => {
    let seed = 7;
    const next = (n: number) => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % n;
    for (let i = 0; i < 2000; i++) {
      const cents = next(10_000_000);
      const bp = next(10_001);
      const text = formatCents(cents);
      const pct = formatPercent(bp);
      const exact = decimal(text).times(pct).dividedBy(100);
      expect(formatCents(percentOf(cents, bp, 'halfUp'))).toBe(roundTo(exact, 2, 'HalfUp').toFixed(2));
      expect(formatCents(percentOf(cents, bp, 'up'))).toBe(roundTo(exact, 2, 'Up').toFixed(2));
      const [n, d] = [1 + next(3), 1 + next(4)];
      expect(formatCents(fractionOf(cents, [n, d]))).toBe(
        roundTo(decimal(text).times(n).dividedBy(d), 2, 'HalfUp').toFixed(2),
      );
    }
  });
});

describe("INSTANT_PATTERN (the contract's pattern of itinerary times)", () => {
  it.each([
    '2026-03-02T06:00:00Z',
    '2026-03-02T06:00',
    '2026-03-02T06:00:00.123456789+01:00',
    '2026-12-31T23:59:59-05:30',
    '2026-03-02T25:00:00Z',
    '2026-13-02T06:00:00Z',
    '2026-03-02T06:00:00+24:00',
    '2026-03-02 06:00:00Z',
    '2026-03-02',
    '',
  ])('agrees with parseInstant on %p', (text) => {
    expect(INSTANT_PATTERN.test(text)).toBe(parseInstant(text) !== null);
  });

  it('reads the years 0-99 as written (Date.UTC would read 1935 for 0035)', () => {
    expect(parseInstant('0035-10-27T06:00:00Z')).toBe(Date.parse('0035-10-27T06:00:00Z'));
    expect(parseInstant('0035-10-27T06:00')).toBe(Date.parse('0035-10-27T06:00:00Z'));
  });

  it('lets a day past the end of its month through, which parseInstant refuses (said in the contract)', () => {
    expect(INSTANT_PATTERN.test('2026-02-30T06:00:00Z')).toBe(true);
    expect(parseInstant('2026-02-30T06:00:00Z')).toBeNull();
  });
});
