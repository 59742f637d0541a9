// Czechia, worked by hand from ../shared/research/REGULATIONS.md (CZ section): domestic stravné for 2026
// (vyhl. 573/2025 Sb.): 5–12 h 155 Kč, >12–18 h 236 Kč, >18 h 370 Kč; 2025 (vyhl. 475/2024 Sb.):
// 148 / 225 / 353 Kč. Free-meal reduction (§163(2)): 70 % per meal at 5–12 h, 35 % at 12–18 h, 25 % above
// 18 h (the statutory minimum takes the full reduction). Calendar days split at midnight Prague time
// (SPEC, Endpoints rule 5). Foreign rates and thresholds are UNVERIFIED: those rows are `unknown`.
// Prague is UTC+1 in winter, UTC+2 from 2026-03-29 01:00 UTC.
import { calculatePerDiems, type PerDiemRequest } from './index';

const trip = (stops: [string, string][], extra: Partial<PerDiemRequest> = {}) =>
  calculatePerDiems({ market: 'CZ', stops: stops.map(([time, countryCode]) => ({ time, countryCode })), ...extra });
const day = (from: string, to: string) =>
  trip([
    [from, 'CZ'],
    [to, 'CZ'],
  ]).items;

describe('CZ domestic bands (one calendar day, 2026)', () => {
  it.each([
    // [departure UTC, arrival UTC, hours, band, amount]
    ['2026-03-02T06:00:00Z', '2026-03-02T10:59:00Z', 4.98, null, '0.00'], // 07:00–11:59 Prague, under 5 h
    ['2026-03-02T06:00:00Z', '2026-03-02T11:00:00Z', 5, '5-12h', '155.00'], // exactly 5 h: 155 Kč
    ['2026-03-02T06:00:00Z', '2026-03-02T18:00:00Z', 12, '5-12h', '155.00'], // exactly 12 h: still 155 Kč
    ['2026-03-02T06:00:00Z', '2026-03-02T18:01:00Z', 12.02, '>12-18h', '236.00'], // 12 h 1 min: 236 Kč
    ['2026-03-02T04:00:00Z', '2026-03-02T22:00:00Z', 18, '>12-18h', '236.00'], // 05:00–23:00 Prague
    ['2026-03-02T04:00:00Z', '2026-03-02T22:01:00Z', 18.02, '>18h', '370.00'], // 18 h 1 min: 370 Kč
  ])('%s → %s: %s h, band %s, %s Kč', (from, to, hours, band, amount) => {
    const [row] = day(from, to);
    expect(row).toMatchObject({ countryCode: 'CZ', kind: 'Domestic', hours, band, amount, currencyCode: 'CZK' });
    expect(row!.amountInBaseCurrency).toBe(amount); // CZK is the CZ base currency: nothing to convert
    expect(row!.taxTreatment).toBe('StatutoryMinimum');
    expect(row!.source!.act).toContain('573/2025');
  });

  it('2025 figures on a 2025 day: 5–12 h is 148 Kč (vyhl. 475/2024 Sb.)', () => {
    expect(day('2025-06-02T06:00:00Z', '2025-06-02T13:00:00Z')[0]).toMatchObject({ band: '5-12h', amount: '148.00' });
  });

  it('a year without a verified decree is unknown, not guessed', () => {
    const r = trip([
      ['2027-03-02T06:00:00Z', 'CZ'],
      ['2027-03-02T16:00:00Z', 'CZ'],
    ]);
    expect(r.items[0]).toMatchObject({ status: 'unknown', amount: null, band: null });
    expect(r.items[0]!.reason).toMatch(/no verified figure/);
    expect(r.complete).toBe(false);
  });
});

describe('CZ meal reductions (§163(2))', () => {
  const meals = (from: string, to: string, b: number, l: number, d: number) =>
    trip(
      [
        [from, 'CZ'],
        [to, 'CZ'],
      ],
      {
        meals: [
          { countryCode: 'CZ', departureTime: from, breakfastsProvided: b, lunchesProvided: l, dinnersProvided: d },
        ],
      },
    ).items[0]!;

  it('5–12 h, one lunch: 155 − 70 % × 155 (108.50) = 46.50 Kč', () => {
    const row = meals('2026-03-02T06:00:00Z', '2026-03-02T14:00:00Z', 0, 1, 0);
    expect(row).toMatchObject({ grossAmount: '155.00', amount: '46.50', lunchesProvided: 1 });
    expect(row.reductions).toEqual([{ meals: ['Lunch'], count: 1, percent: '70', of: '155.00', amount: '108.50' }]);
  });
  it('5–12 h, two meals: 2 × 108.50 exceeds 155, nothing is paid (0.00)', () => {
    expect(meals('2026-03-02T06:00:00Z', '2026-03-02T14:00:00Z', 1, 1, 0).amount).toBe('0.00');
  });
  it('>12–18 h, one breakfast: 236 − 35 % × 236 (82.60) = 153.40 Kč', () => {
    expect(meals('2026-03-02T05:00:00Z', '2026-03-02T20:00:00Z', 1, 0, 0).amount).toBe('153.40');
  });
  it('>18 h, all three meals: 370 − 3 × 25 % × 370 (3 × 92.50 = 277.50) = 92.50 Kč', () => {
    expect(meals('2026-03-02T04:00:00Z', '2026-03-02T23:00:00Z', 1, 1, 1).amount).toBe('92.50');
  });
});

describe('CZ calendar days split at midnight Prague time', () => {
  it('18:00 to 08:00 next day is two days of 6 h and 8 h: 155 + 155 Kč (not one 14 h band of 236 Kč)', () => {
    // 2026-03-02 18:00 CET = 17:00Z; midnight Prague = 23:00Z; 2026-03-03 08:00 CET = 07:00Z.
    const r = trip([
      ['2026-03-02T17:00:00Z', 'CZ'],
      ['2026-03-03T07:00:00Z', 'CZ'],
    ]);
    expect(r.items.map((i) => [i.departureTime, i.arrivalTime, i.hours, i.date, i.amount])).toEqual([
      ['2026-03-02T17:00:00Z', '2026-03-02T23:00:00Z', 6, '2026-03-02', '155.00'],
      ['2026-03-02T23:00:00Z', '2026-03-03T07:00:00Z', 8, '2026-03-03', '155.00'],
    ]);
    expect(r.totals).toEqual([{ currencyCode: 'CZK', amount: '310.00' }]);
  });

  it('across the spring DST change: the 23-hour 29 March is one day', () => {
    // 2026-03-28 08:00 CET (07:00Z) → 2026-03-30 20:00 CEST (18:00Z).
    // 28 Mar 08:00–24:00 = 16 h → 236; 29 Mar 00:00 CET (28 Mar 23:00Z) – 24:00 CEST (29 Mar 22:00Z) = 23 h
    // → 370; 30 Mar 00:00–20:00 CEST = 20 h → 370. Total 236 + 370 + 370 = 976 Kč.
    const r = trip([
      ['2026-03-28T07:00:00Z', 'CZ'],
      ['2026-03-30T18:00:00Z', 'CZ'],
    ]);
    expect(r.items.map((i) => [i.departureTime, i.arrivalTime, i.hours, i.band, i.amount])).toEqual([
      ['2026-03-28T07:00:00Z', '2026-03-28T23:00:00Z', 16, '>12-18h', '236.00'],
      ['2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z', 23, '>18h', '370.00'],
      ['2026-03-29T22:00:00Z', '2026-03-30T18:00:00Z', 20, '>18h', '370.00'],
    ]);
    expect(r.totals).toEqual([{ currencyCode: 'CZK', amount: '976.00' }]);
  });

  it('across the autumn DST change: the 25-hour 25 October is one day of 25 h', () => {
    // 25 Oct 00:00 CEST = 24 Oct 22:00Z; 26 Oct 00:00 CET = 25 Oct 23:00Z.
    const [row] = day('2026-10-24T22:00:00Z', '2026-10-25T23:00:00Z');
    expect(row).toMatchObject({ hours: 25, band: '>18h', amount: '370.00', date: '2026-10-25' });
  });
});

describe('CZ foreign parts: rates and thresholds are unverified, so unknown', () => {
  it('the domestic hours are paid, the Austrian part is unknown with the reason; totals leave it out', () => {
    // 06:00 Prague (05:00Z) depart, 10:00 (09:00Z) into AT, 20:00 (19:00Z) back in CZ, 22:00 (21:00Z) home.
    // Domestic that day: 4 h + 2 h = 6 h → 5–12 h, 155 Kč. Abroad: 10 h, rate unknown.
    const r = trip([
      ['2026-03-02T05:00:00Z', 'CZ'],
      ['2026-03-02T09:00:00Z', 'AT'],
      ['2026-03-02T19:00:00Z', 'CZ'],
      ['2026-03-02T21:00:00Z', 'CZ'],
    ]);
    expect(r.items.map((i) => [i.kind, i.countryCode, i.hours, i.status, i.amount])).toEqual([
      ['Domestic', 'CZ', 6, 'known', '155.00'],
      ['Foreign', 'AT', 10, 'unknown', null],
    ]);
    expect(r.items[1]!.reason).toMatch(/not verified/);
    expect(r.complete).toBe(false);
    expect(r.totals).toEqual([{ currencyCode: 'CZK', amount: '155.00' }]);
  });

  it('two foreign countries in one day: the row takes the country of the longest stay (AT 7 h over DE 3 h)', () => {
    const r = trip([
      ['2026-03-02T05:00:00Z', 'DE'],
      ['2026-03-02T08:00:00Z', 'AT'],
      ['2026-03-02T15:00:00Z', 'CZ'],
      ['2026-03-02T16:00:00Z', 'CZ'],
    ]);
    const foreign = r.items.find((i) => i.kind === 'Foreign')!;
    expect(foreign).toMatchObject({ countryCode: 'AT', hours: 10, status: 'unknown' });
    expect(foreign.departureTime).toBe('2026-03-02T05:00:00Z');
    expect(foreign.arrivalTime).toBe('2026-03-02T15:00:00Z');
  });
});
