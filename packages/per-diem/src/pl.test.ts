// Poland, worked by hand from ../shared/research/REGULATIONS.md (PL section; rozporządzenie MRPiPS of
// 2013-01-29, Dz.U. 2023 poz. 2190): dieta 45 zł. Trip ≤24 h: <8 h 0, 8–12 h 50 % (22.50), >12 h 100 % (45.00).
// Trip >24 h: each full day 45.00, a started day ≤8 h 22.50, >8 h 45.00. Meals: breakfast 25 % (11.25),
// lunch 50 % (22.50), dinner 25 % (11.25) of the dieta. Night lump sum 150 % (67.50 zł) for a night of at
// least 6 h between 21:00 and 07:00. Foreign: AT 57 EUR (hotel 150), DE 49 EUR (hotel 170); incomplete day
// ≤8 h ⅓, 8–12 h 50 %, >12 h 100 %; meals 15 / 30 / 30 % of the country dieta; night 25 % of the hotel limit.
// Periods, nights and account dates in Warsaw time (UTC+1 in winter, UTC+2 from 2026-03-29 01:00 UTC).
import { calculatePerDiems, PerDiemInputError, type PerDiemRequest } from './index';

const trip = (stops: [string, string][], extra: Partial<PerDiemRequest> = {}) =>
  calculatePerDiems({ market: 'PL', stops: stops.map(([time, countryCode]) => ({ time, countryCode })), ...extra });
const home = (from: string, to: string, extra: Partial<PerDiemRequest> = {}) =>
  trip(
    [
      [from, 'PL'],
      [to, 'PL'],
    ],
    extra,
  );

describe('PL domestic trip of at most 24 hours', () => {
  it.each([
    ['2026-02-02T06:00:00Z', '2026-02-02T13:59:00Z', '<8h', '0.00'], // 7 h 59 min
    ['2026-02-02T06:00:00Z', '2026-02-02T14:00:00Z', '8-12h', '22.50'], // exactly 8 h: 50 % × 45
    ['2026-02-02T06:00:00Z', '2026-02-02T18:00:00Z', '8-12h', '22.50'], // exactly 12 h
    ['2026-02-02T06:00:00Z', '2026-02-02T18:01:00Z', '>12h', '45.00'], // 12 h 1 min
    ['2026-02-02T06:00:00Z', '2026-02-03T06:00:00Z', '>12h', '45.00'], // exactly 24 h: still one trip day
  ])('%s → %s: band %s, %s zł', (from, to, band, amount) => {
    expect(home(from, to).items).toMatchObject([{ band, amount, currencyCode: 'PLN', amountInBaseCurrency: amount }]);
  });
});

describe('PL domestic trip over 24 hours: full days, then a started day', () => {
  it('24 h + 8 h: 45.00 + 22.50 = 67.50 zł', () => {
    const r = home('2026-02-02T06:00:00Z', '2026-02-03T14:00:00Z');
    expect(r.items.map((i) => [i.departureTime, i.arrivalTime, i.band, i.amount])).toEqual([
      ['2026-02-02T06:00:00Z', '2026-02-03T06:00:00Z', 'FullDay', '45.00'],
      ['2026-02-03T06:00:00Z', '2026-02-03T14:00:00Z', 'started<=8h', '22.50'],
    ]);
  });
  it('24 h + 8 h 1 min: 45.00 + 45.00 = 90.00 zł', () => {
    const r = home('2026-02-02T06:00:00Z', '2026-02-03T14:01:00Z');
    expect(r.items.map((i) => [i.band, i.amount])).toEqual([
      ['FullDay', '45.00'],
      ['started>8h', '45.00'],
    ]);
    expect(r.totals).toEqual([{ currencyCode: 'PLN', amount: '90.00' }]);
  });
});

describe('PL meal reductions (of the dieta)', () => {
  const from = '2026-02-02T06:00:00Z';
  const meals = (to: string, b: number, l: number, d: number) =>
    home(from, to, {
      meals: [
        { countryCode: 'PL', departureTime: from, breakfastsProvided: b, lunchesProvided: l, dinnersProvided: d },
      ],
    }).items[0]!;
  it('over 12 h with lunch: 45.00 − 50 % × 45 (22.50) = 22.50 zł', () => {
    expect(meals('2026-02-02T19:00:00Z', 0, 1, 0).amount).toBe('22.50');
  });
  it('8–12 h with breakfast: 22.50 − 25 % × 45 (11.25) = 11.25 zł', () => {
    expect(meals('2026-02-02T16:00:00Z', 1, 0, 0).amount).toBe('11.25');
  });
  it('over 12 h with dinner: 45.00 − 11.25 = 33.75 zł', () => {
    expect(meals('2026-02-02T19:00:00Z', 0, 0, 1).amount).toBe('33.75');
  });
  it('all three meals: 11.25 + 22.50 + 11.25 = 45.00 → 0.00 zł', () => {
    expect(meals('2026-02-02T19:00:00Z', 1, 1, 1).amount).toBe('0.00');
  });
});

describe('PL nights (21:00–07:00 Warsaw time, at least 6 h)', () => {
  it('18:00 to 10:00 next day: one night of 10 h; claimed, the lump sum 67.50 zł', () => {
    // 2026-02-02 18:00 CET = 17:00Z → 2026-02-03 10:00 CET = 09:00Z: 16 h → >12 h 45.00.
    // Night window 21:00 (20:00Z) – 07:00 (06:00Z): 10 h inside the trip. Total 45.00 + 67.50 = 112.50 zł.
    const r = home('2026-02-02T17:00:00Z', '2026-02-03T09:00:00Z', { nights: [{ date: '2026-02-02', lumpSum: true }] });
    expect(r.nights).toEqual([
      expect.objectContaining({
        date: '2026-02-02',
        countryCode: 'PL',
        from: '2026-02-02T20:00:00Z',
        to: '2026-02-03T06:00:00Z',
        hours: 10,
        claimed: true,
        lumpSumAmount: '67.50',
        amount: '67.50',
        currencyCode: 'PLN',
      }),
    ]);
    expect(r.totals).toEqual([{ currencyCode: 'PLN', amount: '112.50' }]);
  });
  it('a night not claimed (hotel bill) is listed at 0.00', () => {
    const r = home('2026-02-02T17:00:00Z', '2026-02-03T09:00:00Z');
    expect(r.nights[0]).toMatchObject({ claimed: false, lumpSumAmount: '67.50', amount: '0.00' });
  });
  it('5 h 30 min inside the window is no night (21:00–02:30)', () => {
    expect(home('2026-02-02T17:00:00Z', '2026-02-03T01:30:00Z').nights).toEqual([]);
  });
  it('exactly 6 h inside the window is a night (21:00–03:00)', () => {
    expect(home('2026-02-02T17:00:00Z', '2026-02-03T02:00:00Z').nights).toHaveLength(1);
  });
  it('claiming a night the trip does not have is a field error', () => {
    expect(() =>
      home('2026-02-02T17:00:00Z', '2026-02-03T01:30:00Z', { nights: [{ date: '2026-02-02', lumpSum: true }] }),
    ).toThrow(PerDiemInputError);
  });
});

describe('PL across the spring DST change: periods and nights on the Warsaw wall clock', () => {
  it('08:00 on 28 March to 08:30 on 30 March is two full days and a started day of 30 min', () => {
    // 2026-03-28 08:00 CET = 07:00Z; 2026-03-30 08:30 CEST = 06:30Z (47.5 h elapsed).
    // Day 1: 28 Mar 08:00 → 29 Mar 08:00 CEST (06:00Z), 23 h on the clock change day: full day 45.00.
    // Day 2: 29 Mar 08:00 → 30 Mar 08:00 (06:00Z): full day 45.00. Started day 08:00–08:30: ≤8 h, 22.50.
    // Total 112.50 zł. Nights: 28/29 Mar 21:00 CET (20:00Z) – 07:00 CEST (05:00Z) = 9 h;
    // 29/30 Mar 21:00 CEST (19:00Z) – 07:00 CEST (05:00Z) = 10 h.
    const r = home('2026-03-28T07:00:00Z', '2026-03-30T06:30:00Z');
    expect(r.items.map((i) => [i.departureTime, i.arrivalTime, i.hours, i.band, i.amount, i.date])).toEqual([
      ['2026-03-28T07:00:00Z', '2026-03-29T06:00:00Z', 23, 'FullDay', '45.00', '2026-03-28'],
      ['2026-03-29T06:00:00Z', '2026-03-30T06:00:00Z', 24, 'FullDay', '45.00', '2026-03-29'],
      ['2026-03-30T06:00:00Z', '2026-03-30T06:30:00Z', 0.5, 'started<=8h', '22.50', '2026-03-30'],
    ]);
    expect(r.totals).toEqual([{ currencyCode: 'PLN', amount: '112.50' }]);
    expect(r.nights.map((n) => [n.date, n.from, n.to, n.hours])).toEqual([
      ['2026-03-28', '2026-03-28T20:00:00Z', '2026-03-29T05:00:00Z', 9],
      ['2026-03-29', '2026-03-29T19:00:00Z', '2026-03-30T05:00:00Z', 10],
    ]);
  });
  it('the autumn night is 11 h long (21:00 CEST – 07:00 CET)', () => {
    // 24 Oct 21:00 CEST = 19:00Z; 25 Oct 07:00 CET = 06:00Z.
    const r = home('2026-10-24T16:00:00Z', '2026-10-25T08:00:00Z');
    expect(r.nights.map((n) => [n.date, n.from, n.to, n.hours])).toEqual([
      ['2026-10-24', '2026-10-24T19:00:00Z', '2026-10-25T06:00:00Z', 11],
    ]);
  });
});

describe('PL foreign trips (country dieta, split at the border crossings)', () => {
  it('to Germany: home part, a full day and a started day in DE, home part; the night abroad 25 % × 170', () => {
    // Depart 2026-03-02 06:00 (05:00Z); into DE 14:00 (13:00Z); back in PL 2026-03-03 20:00 (19:00Z); home 23:00 (22:00Z).
    // PL 8 h → 8–12 h 22.50 zł. DE 30 h → a full day 49.00 EUR + started 6 h ≤8 h ⅓ × 49 = 16.333 → 16.33 EUR.
    // PL 3 h → <8 h 0.00 zł. Night 2/3 Mar 21:00–07:00 (20:00Z–06:00Z) in DE: 25 % × 170 = 42.50 EUR, claimed.
    const r = trip(
      [
        ['2026-03-02T05:00:00Z', 'PL'],
        ['2026-03-02T13:00:00Z', 'DE'],
        ['2026-03-03T19:00:00Z', 'PL'],
        ['2026-03-03T22:00:00Z', 'PL'],
      ],
      { nights: [{ date: '2026-03-02', lumpSum: true }] },
    );
    expect(r.items.map((i) => [i.countryCode, i.hours, i.band, i.amount, i.currencyCode])).toEqual([
      ['PL', 8, '8-12h', '22.50', 'PLN'],
      ['DE', 24, 'FullDay', '49.00', 'EUR'],
      ['DE', 6, '<=8h', '16.33', 'EUR'],
      ['PL', 3, '<8h', '0.00', 'PLN'],
    ]);
    expect(r.nights).toEqual([
      expect.objectContaining({ date: '2026-03-02', countryCode: 'DE', amount: '42.50', currencyCode: 'EUR' }),
    ]);
    expect(r.totals).toEqual([
      { currencyCode: 'PLN', amount: '22.50' },
      { currencyCode: 'EUR', amount: '107.83' }, // 49.00 + 16.33 + 42.50
    ]);
    expect(r.items[1]!.amountInBaseCurrency).toBeNull(); // EUR → PLN is the caller's conversion
  });

  it('across two foreign countries (DE then AT), each at its own rate, with meals', () => {
    // PL 05:00Z–09:00Z 4 h → 0.00 zł. DE 09:00Z–19:00Z 10 h → 8–12 h ½ × 49 = 24.50 EUR, breakfast
    // 15 % × 49 = 7.35 → 17.15 EUR. AT 2026-03-02 19:00Z – 03-03 17:00Z 22 h → >12 h 57.00 EUR, lunch and
    // dinner 2 × 30 % × 57 = 2 × 17.10 = 34.20 → 22.80 EUR. PL 1 h → 0.00 zł.
    const r = trip(
      [
        ['2026-03-02T05:00:00Z', 'PL'],
        ['2026-03-02T09:00:00Z', 'DE'],
        ['2026-03-02T19:00:00Z', 'AT'],
        ['2026-03-03T17:00:00Z', 'PL'],
        ['2026-03-03T18:00:00Z', 'PL'],
      ],
      {
        meals: [
          { countryCode: 'DE', departureTime: '2026-03-02T09:00:00Z', breakfastsProvided: 1 },
          { countryCode: 'AT', departureTime: '2026-03-02T19:00:00Z', lunchesProvided: 1, dinnersProvided: 1 },
        ],
      },
    );
    expect(r.items.map((i) => [i.countryCode, i.hours, i.band, i.grossAmount, i.amount])).toEqual([
      ['PL', 4, '<8h', '0.00', '0.00'],
      ['DE', 10, '>8-12h', '24.50', '17.15'],
      ['AT', 22, '>12h', '57.00', '22.80'],
      ['PL', 1, '<8h', '0.00', '0.00'],
    ]);
    expect(r.items[2]!.reductions.map((x) => [x.meals, x.percent, x.of, x.amount])).toEqual([
      [['Lunch'], '30', '57.00', '17.10'],
      [['Dinner'], '30', '57.00', '17.10'],
    ]);
  });

  it('a night across the border is in the country of the longer part: PL 2 h, DE 8 h → DE, 25 % × 170 = 42.50 EUR', () => {
    // 2026-03-02 18:00 (17:00Z) home; into DE at 23:00 (22:00Z); back at 2026-03-03 12:00 (11:00Z).
    // Night window 21:00–07:00 (20:00Z–06:00Z): PL 20:00Z–22:00Z 2 h, DE 22:00Z–06:00Z 8 h.
    const r = trip([
      ['2026-03-02T17:00:00Z', 'PL'],
      ['2026-03-02T22:00:00Z', 'DE'],
      ['2026-03-03T11:00:00Z', 'PL'],
      ['2026-03-03T12:00:00Z', 'PL'],
    ]);
    expect(r.nights).toEqual([
      expect.objectContaining({ countryCode: 'DE', hours: 10, lumpSumAmount: '42.50', currencyCode: 'EUR' }),
    ]);
  });

  it('a country whose row is only reported (CG: the annex row "Kongo" may be its own) is unknown, and so is its night', () => {
    const r = trip([
      ['2026-03-02T05:00:00Z', 'CG'],
      ['2026-03-03T05:00:00Z', 'PL'],
    ]);
    expect(r.items[0]).toMatchObject({ countryCode: 'CG', status: 'unknown', amount: null });
    expect(r.nights[0]).toMatchObject({ countryCode: 'CG', status: 'unknown', amount: null });
    expect(r.complete).toBe(false);
  });
});
