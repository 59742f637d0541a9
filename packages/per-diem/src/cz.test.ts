// Czechia, worked by hand from ../shared/research/REGULATIONS.md (CZ section): domestic stravné for 2026
// (vyhl. 573/2025 Sb.): 5–12 h 155 Kč, >12–18 h 236 Kč, >18 h 370 Kč; 2025 (vyhl. 475/2024 Sb.):
// 148 / 225 / 353 Kč. Free-meal reduction (§163(2)): 70 % per meal at 5–12 h, 35 % at 12–18 h, 25 % above
// 18 h (the statutory minimum takes the full reduction). Calendar days split at midnight Prague time
// (SPEC, Endpoints rule 5). Foreign stravné (research, second pass): base rates of vyhl. 373/2024 Sb. (2025)
// and 489/2025 Sb. (2026), e.g. DE 45 / 50 €, AT 45 / 45 €; per calendar day of time abroad (§170(1)):
// at least 1 h up to 12 h a third, more than 12 h up to 18 h two thirds, more than 18 h the full rate;
// under 1 h abroad in a day pays no foreign stravné and that time counts toward the domestic part; the
// rate is that of the country where most of the day abroad was spent. Free meals abroad (§179(3)): 70 %
// at a third, 35 % at two thirds, 25 % at the full rate, of the day's foreign stravné.
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

describe('CZ foreign stravné: bands per calendar day of time abroad (2026, DE 50 €)', () => {
  // The trip starts in Germany (the first stop) and ends at the crossing, so all its time is abroad.
  const abroad = (from: string, to: string, country = 'DE') =>
    trip([
      [from, country],
      [to, 'CZ'],
    ]).items;

  it.each([
    // [departure UTC, arrival UTC, hours, band, amount €]; all within 2 Mar (Prague = UTC+1)
    ['2026-03-02T05:00:00Z', '2026-03-02T06:00:00Z', 1, '1-12h', '16.67'], // exactly 1 h: ⅓ × 50 = 16.666… → 16.67
    ['2026-03-02T05:00:00Z', '2026-03-02T17:00:00Z', 12, '1-12h', '16.67'], // exactly 12 h: still ⅓
    ['2026-03-02T05:00:00Z', '2026-03-02T17:01:00Z', 12.02, '>12-18h', '33.33'], // 12 h 1 min: ⅔ × 50 = 33.33
    ['2026-03-02T04:00:00Z', '2026-03-02T22:00:00Z', 18, '>12-18h', '33.33'], // exactly 18 h: still ⅔
    ['2026-03-02T04:00:00Z', '2026-03-02T22:01:00Z', 18.02, '>18h', '50.00'], // 18 h 1 min: the full rate
  ])('%s → %s: %s h abroad, band %s, %s €', (from, to, hours, band, amount) => {
    const [row] = abroad(from, to);
    expect(row).toMatchObject({ kind: 'Foreign', countryCode: 'DE', hours, band, amount, currencyCode: 'EUR' });
    expect(row!.amountInBaseCurrency).toBeNull(); // EUR into CZK is the caller's conversion
    expect(row!.source).toMatchObject({
      act: expect.stringContaining('489/2025'),
      provision: expect.stringMatching(/^§ 170 odst\. 1/),
    });
    expect(row!.source!.reportedBy).toMatch(/e-Sbírka/);
  });

  it('59 minutes abroad in a day pays no foreign stravné: the time is a domestic row (0.98 h, under 5 h: 0 Kč)', () => {
    const rows = abroad('2026-03-02T05:00:00Z', '2026-03-02T05:59:00Z');
    expect(rows.map((i) => [i.kind, i.countryCode, i.hours, i.band, i.amount, i.currencyCode])).toEqual([
      ['Domestic', 'CZ', 0.98, null, '0.00', 'CZK'],
    ]);
  });

  it('2025 uses vyhl. 373/2024 Sb.: 10 h in Germany is ⅓ × 45 = 15.00 €', () => {
    const [row] = abroad('2025-06-02T06:00:00Z', '2025-06-02T16:00:00Z');
    expect(row).toMatchObject({ band: '1-12h', amount: '15.00', currencyCode: 'EUR' });
    expect(row!.source!.act).toContain('373/2024');
  });

  it.each([
    // [country, 2026 rate, currency, 19 h abroad = the full rate]
    ['AT', '45.00', 'EUR'],
    ['SK', '40.00', 'EUR'],
    ['PL', '50.00', 'EUR'],
    ['HU', '50.00', 'EUR'],
    ['HR', '50.00', 'EUR'],
    ['IT', '55.00', 'EUR'],
    ['US', '70.00', 'USD'],
    ['CH', '75.00', 'CHF'],
    ['BE', '50.00', 'EUR'],
    ['FR', '50.00', 'EUR'],
    ['NL', '50.00', 'EUR'],
  ])('a full day in %s in 2026: %s %s', (country, amount, currencyCode) => {
    const [row] = abroad('2026-03-01T23:00:00Z', '2026-03-02T18:00:00Z', country);
    expect(row).toMatchObject({ countryCode: country, band: '>18h', amount, currencyCode, status: 'known' });
  });

  it('a year without a decree in the research (2024) is unknown with the reason; totals leave it out', () => {
    for (const country of ['SI', 'GB']) {
      const r = trip([
        ['2024-03-04T05:00:00Z', country],
        ['2024-03-04T15:00:00Z', 'CZ'],
      ]);
      expect(r.items[0]).toMatchObject({ countryCode: country, status: 'unknown', amount: null, band: null });
      expect(r.items[0]!.reason).toMatch(/read for 2025/);
      expect(r.complete).toBe(false);
    }
  });

  it('2027 has no decree in the research: foreign rows are unknown', () => {
    expect(abroad('2027-03-02T05:00:00Z', '2027-03-02T15:00:00Z')[0]).toMatchObject({ status: 'unknown' });
  });
});

describe('CZ foreign trips by calendar day (worked examples)', () => {
  it('a day trip to Austria: home 6 h → 155 Kč; abroad 10 h → ⅓ × 45 € = 15.00 €', () => {
    // 06:00 Prague (05:00Z) depart, 10:00 (09:00Z) into AT, 20:00 (19:00Z) back in CZ, 22:00 (21:00Z) home.
    const r = trip([
      ['2026-03-02T05:00:00Z', 'CZ'],
      ['2026-03-02T09:00:00Z', 'AT'],
      ['2026-03-02T19:00:00Z', 'CZ'],
      ['2026-03-02T21:00:00Z', 'CZ'],
    ]);
    expect(r.items.map((i) => [i.kind, i.countryCode, i.hours, i.band, i.amount, i.currencyCode])).toEqual([
      ['Domestic', 'CZ', 6, '5-12h', '155.00', 'CZK'],
      ['Foreign', 'AT', 10, '1-12h', '15.00', 'EUR'],
    ]);
    expect(r.complete).toBe(true);
    expect(r.totals).toEqual([
      { currencyCode: 'CZK', amount: '155.00' },
      { currencyCode: 'EUR', amount: '15.00' },
    ]);
  });

  it('three days in Germany: 0 Kč + 33.33 € / 50.00 € / 33.33 € + 0 Kč, total 116.66 €', () => {
    // 2 Mar 05:00 Prague (04:00Z) depart; into DE 08:00 (07:00Z); back across 4 Mar 17:00 (16:00Z); home 19:00.
    // 2 Mar: CZ 3 h (under 5 h) 0 Kč; DE 16 h → ⅔ × 50 = 33.33 €. 3 Mar: DE 24 h → 50.00 €.
    // 4 Mar: DE 17 h → ⅔ × 50 = 33.33 €; CZ 2 h → 0 Kč. Abroad: 33.33 + 50.00 + 33.33 = 116.66 €.
    const r = trip([
      ['2026-03-02T04:00:00Z', 'CZ'],
      ['2026-03-02T07:00:00Z', 'DE'],
      ['2026-03-04T16:00:00Z', 'CZ'],
      ['2026-03-04T18:00:00Z', 'CZ'],
    ]);
    expect(r.items.map((i) => [i.date, i.kind, i.hours, i.band, i.amount, i.currencyCode])).toEqual([
      ['2026-03-02', 'Domestic', 3, null, '0.00', 'CZK'],
      ['2026-03-02', 'Foreign', 16, '>12-18h', '33.33', 'EUR'],
      ['2026-03-03', 'Foreign', 24, '>18h', '50.00', 'EUR'],
      ['2026-03-04', 'Foreign', 17, '>12-18h', '33.33', 'EUR'],
      ['2026-03-04', 'Domestic', 2, null, '0.00', 'CZK'],
    ]);
    expect(r.complete).toBe(true);
    expect(r.totals).toEqual([
      { currencyCode: 'CZK', amount: '0.00' },
      { currencyCode: 'EUR', amount: '116.66' },
    ]);
  });

  it('two foreign countries in one day: the rate of the longest stay (AT 7 h over DE 3 h): ⅓ × 45 = 15.00 €', () => {
    const r = trip([
      ['2026-03-02T05:00:00Z', 'DE'],
      ['2026-03-02T08:00:00Z', 'AT'],
      ['2026-03-02T15:00:00Z', 'CZ'],
      ['2026-03-02T16:00:00Z', 'CZ'],
    ]);
    const foreign = r.items.find((i) => i.kind === 'Foreign')!;
    expect(foreign).toMatchObject({ countryCode: 'AT', hours: 10, band: '1-12h', amount: '15.00' });
    expect(foreign.departureTime).toBe('2026-03-02T05:00:00Z');
    expect(foreign.arrivalTime).toBe('2026-03-02T15:00:00Z');
  });

  it('under 1 h abroad joins the domestic part: 11 h 40 min home + 50 min in AT = 12.5 h → 236 Kč (not 155)', () => {
    // 07:00 Prague (06:00Z) depart; into AT 18:20 (17:20Z); back 19:10 (18:10Z); home 19:30 (18:30Z).
    const r = trip([
      ['2026-03-02T06:00:00Z', 'CZ'],
      ['2026-03-02T17:20:00Z', 'AT'],
      ['2026-03-02T18:10:00Z', 'CZ'],
      ['2026-03-02T18:30:00Z', 'CZ'],
    ]);
    expect(
      r.items.map((i) => [i.kind, i.countryCode, i.departureTime, i.arrivalTime, i.hours, i.band, i.amount]),
    ).toEqual([['Domestic', 'CZ', '2026-03-02T06:00:00Z', '2026-03-02T18:30:00Z', 12.5, '>12-18h', '236.00']]);
  });

  it('exactly 1 h abroad stays foreign: home 5 h → 155 Kč; AT 1 h → ⅓ × 45 = 15.00 €', () => {
    const r = trip([
      ['2026-03-02T05:00:00Z', 'CZ'],
      ['2026-03-02T09:00:00Z', 'AT'],
      ['2026-03-02T10:00:00Z', 'CZ'],
      ['2026-03-02T11:00:00Z', 'CZ'],
    ]);
    expect(r.items.map((i) => [i.kind, i.hours, i.band, i.amount])).toEqual([
      ['Domestic', 5, '5-12h', '155.00'],
      ['Foreign', 1, '1-12h', '15.00'],
    ]);
  });

  it('free meals abroad (§179(3)): full day one lunch 50 − 25 % = 37.50 €; ⅓ day one lunch 16.67 − 11.67 = 5.00 €', () => {
    const full = trip(
      [
        ['2026-03-01T23:00:00Z', 'DE'],
        ['2026-03-02T22:00:00Z', 'CZ'],
      ],
      { meals: [{ countryCode: 'DE', departureTime: '2026-03-01T23:00:00Z', lunchesProvided: 1 }] },
    ).items[0]!;
    expect(full).toMatchObject({ band: '>18h', grossAmount: '50.00', amount: '37.50' });
    expect(full.reductions).toEqual([{ meals: ['Lunch'], count: 1, percent: '25', of: '50.00', amount: '12.50' }]);
    const third = trip(
      [
        ['2026-03-02T05:00:00Z', 'DE'],
        ['2026-03-02T15:00:00Z', 'CZ'],
      ],
      { meals: [{ countryCode: 'DE', departureTime: '2026-03-02T05:00:00Z', lunchesProvided: 1 }] },
    ).items[0]!;
    // 70 % × 16.67 = 11.669 → 11.67; 16.67 − 11.67 = 5.00. Two free meals at ⅓ leave nothing (§179(4)).
    expect(third).toMatchObject({ band: '1-12h', grossAmount: '16.67', amount: '5.00' });
  });

  it('a ⅓ day with two free meals and a ⅔ day with three pay nothing (§179(4))', () => {
    const withMeals = (from: string, to: string, b: number, l: number, d: number) =>
      trip(
        [
          [from, 'DE'],
          [to, 'CZ'],
        ],
        {
          meals: [
            { countryCode: 'DE', departureTime: from, breakfastsProvided: b, lunchesProvided: l, dinnersProvided: d },
          ],
        },
      ).items[0]!;
    expect(withMeals('2026-03-02T05:00:00Z', '2026-03-02T15:00:00Z', 1, 1, 0).amount).toBe('0.00');
    expect(withMeals('2026-03-02T05:00:00Z', '2026-03-02T20:00:00Z', 1, 1, 1).amount).toBe('0.00');
  });
});
