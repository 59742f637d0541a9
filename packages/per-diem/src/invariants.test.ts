// Properties that hold for any itinerary, checked on a few hundred generated ones (a fixed-seed generator,
// so a failure reproduces): the rows account for every minute of the trip exactly once, they come in time
// order and never overlap, every known amount is a two-place decimal no larger than its gross amount, and
// the totals are the sums of the payable amounts.
import type { Market } from '@travel/regulations';
import { parseCents } from './amount';
import { calculatePerDiems, type Stop } from './index';

function generator(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const COUNTRIES: Record<Market, string[]> = {
  CZ: ['CZ', 'AT', 'DE'],
  SK: ['SK', 'CZ', 'PL', 'SI', 'HR'],
  PL: ['PL', 'DE', 'AT', 'FR'],
  HR: ['HR', 'AT', 'CZ', 'DE'],
  SI: ['SI', 'HR', 'CZ', 'PL', 'SK'],
};
const AMOUNT = /^\d+\.\d\d$/;

describe.each(Object.keys(COUNTRIES) as Market[])('%s: generated itineraries', (market) => {
  it('rows cover the trip once, in order, with consistent amounts and totals', () => {
    const next = generator(market.charCodeAt(0) * 31 + market.charCodeAt(1));
    for (let n = 0; n < 150; n++) {
      // Starts spread over 2025–2026 (both DST changes), 2–6 stops, legs of 0 to 40 hours in 15-minute steps.
      let t = Date.parse('2025-01-01T00:00:00Z') + next(2 * 365 * 96) * 900_000;
      const stops: Stop[] = [];
      const count = 2 + next(5);
      for (let i = 0; i < count; i++) {
        const home = i === 0 || i === count - 1 || next(3) === 0;
        const countryCode = home ? market : COUNTRIES[market][next(COUNTRIES[market].length)]!;
        stops.push({ time: new Date(t).toISOString(), countryCode });
        t += next(160) * 900_000;
      }
      const tripMs = Date.parse(stops[stops.length - 1]!.time) - Date.parse(stops[0]!.time);
      if (tripMs === 0) continue;
      const r = calculatePerDiems({ market, stops });
      let covered = 0;
      let previousEnd = -Infinity;
      const sums = new Map<string, number>();
      for (const row of r.items) {
        const from = Date.parse(row.departureTime);
        const to = Date.parse(row.arrivalTime);
        expect(to).toBeGreaterThan(from);
        if (market !== 'CZ' && market !== 'SK') {
          // Block partitions are contiguous; calendar-day rows (home and abroad of one day) may interleave.
          expect(from).toBeGreaterThanOrEqual(previousEnd);
          expect(row.hours).toBeCloseTo((to - from) / 3_600_000, 2);
        }
        previousEnd = to;
        covered += Math.round(row.hours * 3_600_000);
        if (row.status === 'known') {
          expect(row.amount).toMatch(AMOUNT);
          expect(parseCents(row.amount!)!).toBeLessThanOrEqual(parseCents(row.grossAmount!)!);
          sums.set(row.currencyCode!, (sums.get(row.currencyCode!) ?? 0) + parseCents(row.payableAmount!)!);
        } else {
          expect(row.reason).toBeTruthy();
          expect(row.amount).toBeNull();
        }
      }
      // Hours are rounded to 0.01 h (36 s) per row.
      expect(Math.abs(covered - tripMs)).toBeLessThanOrEqual(r.items.length * 18_000);
      expect(r.nights.every((night) => !night.claimed)).toBe(true); // no night is paid unless claimed
      expect(Object.fromEntries(r.totals.map((x) => [x.currencyCode, parseCents(x.amount)]))).toEqual(
        Object.fromEntries(sums),
      );
    }
  });
});
