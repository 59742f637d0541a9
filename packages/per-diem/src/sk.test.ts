// Slovakia, worked by hand from ../shared/research/REGULATIONS.md (SK section): domestic stravné from
// 2025-12-01: 9.30 € (5–12 h) / 13.80 € (12–18 h) / 20.60 € (>18 h); from 2025-04-01: 8.80 / 13.10 / 19.50 €.
// Meal reduction: breakfast 25 %, lunch 40 %, dinner 35 % of the >18 h amount, rounded up to the cent.
// Foreign (opatrenie MF SR 401/2012; second pass): DE 45, AT 45, HU 39, CZ 600 CZK, PL 37, SI 38, IT 45 €,
// GB 37 GBP, HR 40 € (accountants' sites); per calendar day up to 6 h 25 %, over 6 up to 12 h 50 %, >12 h 100 %; meal reduction 25/40/35 % of the base rate. Calendar days split at midnight Bratislava time.
// Bratislava is UTC+1 in winter, UTC+2 from 2026-03-29 01:00 UTC.
import { calculatePerDiems, type PerDiemRequest } from './index';

const trip = (stops: [string, string][], extra: Partial<PerDiemRequest> = {}) =>
  calculatePerDiems({ market: 'SK', stops: stops.map(([time, countryCode]) => ({ time, countryCode })), ...extra });
const leg = (from: string, to: string, country = 'SK') =>
  trip([
    [from, country],
    [to, 'SK'],
  ]).items[0]!;

describe('SK domestic bands (2026 figures)', () => {
  it.each([
    ['2026-02-02T06:00:00Z', '2026-02-02T10:59:00Z', null, '0.00'], // 4 h 59 min: no stravné
    ['2026-02-02T06:00:00Z', '2026-02-02T11:00:00Z', '5-12h', '9.30'], // exactly 5 h
    ['2026-02-02T06:00:00Z', '2026-02-02T18:00:00Z', '5-12h', '9.30'], // exactly 12 h
    ['2026-02-02T06:00:00Z', '2026-02-02T18:01:00Z', '>12-18h', '13.80'], // 12 h 1 min
    ['2026-02-02T04:00:00Z', '2026-02-02T22:00:00Z', '>12-18h', '13.80'], // exactly 18 h
    ['2026-02-02T04:00:00Z', '2026-02-02T22:01:00Z', '>18h', '20.60'], // 18 h 1 min
  ])('%s → %s: band %s, %s €', (from, to, band, amount) => {
    expect(leg(from, to)).toMatchObject({ band, amount, currencyCode: 'EUR', amountInBaseCurrency: amount });
  });

  it('the amounts announced from 2025-04-01 apply before 2025-12-01: 5–12 h is 8.80 €', () => {
    expect(leg('2025-11-28T06:00:00Z', '2025-11-28T14:00:00Z')).toMatchObject({ band: '5-12h', amount: '8.80' });
  });
});

describe('SK meal reductions (of the >18 h amount, rounded up to the cent)', () => {
  const withMeals = (from: string, to: string, b: number, l: number, d: number) =>
    trip(
      [
        [from, 'SK'],
        [to, 'SK'],
      ],
      {
        meals: [
          { countryCode: 'SK', departureTime: from, breakfastsProvided: b, lunchesProvided: l, dinnersProvided: d },
        ],
      },
    ).items[0]!;

  it('breakfast: 25 % × 20.60 = 5.15 → 20.60 − 5.15 = 15.45 €', () => {
    expect(withMeals('2026-02-02T04:00:00Z', '2026-02-02T23:00:00Z', 1, 0, 0).amount).toBe('15.45');
  });
  it('lunch: 40 % × 20.60 = 8.24, taken from the 5–12 h amount: 9.30 − 8.24 = 1.06 €', () => {
    const row = withMeals('2026-02-02T06:00:00Z', '2026-02-02T14:00:00Z', 0, 1, 0);
    expect(row.reductions).toEqual([{ meals: ['Lunch'], count: 1, percent: '40', of: '20.60', amount: '8.24' }]);
    expect(row.amount).toBe('1.06');
  });
  it('dinner: 35 % × 20.60 = 7.21 → 13.80 − 7.21 = 6.59 €', () => {
    expect(withMeals('2026-02-02T05:00:00Z', '2026-02-02T20:00:00Z', 0, 0, 1).amount).toBe('6.59');
  });
  it('all three: 5.15 + 8.24 + 7.21 = 20.60 → nothing is paid', () => {
    expect(withMeals('2026-02-02T04:00:00Z', '2026-02-02T23:00:00Z', 1, 1, 1).amount).toBe('0.00');
  });
  it('2025 amount, breakfast: 25 % × 19.50 = 4.875 → rounded up 4.88 → 19.50 − 4.88 = 14.62 €', () => {
    const row = withMeals('2025-11-03T04:00:00Z', '2025-11-03T23:00:00Z', 1, 0, 0);
    expect(row.reductions[0]!.amount).toBe('4.88');
    expect(row.amount).toBe('14.62');
  });
});

describe('SK calendar days split at midnight Bratislava time', () => {
  it('across the spring DST change', () => {
    // 2026-03-28 12:00 CET (11:00Z) → 2026-03-29 12:00 CEST (10:00Z): 28 Mar 12:00–24:00 = 12 h → 9.30;
    // 29 Mar 00:00 CET (28 Mar 23:00Z) – 12:00 CEST (29 Mar 10:00Z) = 11 h → 9.30. Total 18.60 € (the trip
    // lasts 23 h: without the calendar split it would be one >18 h amount of 20.60 €).
    const r = trip([
      ['2026-03-28T11:00:00Z', 'SK'],
      ['2026-03-29T10:00:00Z', 'SK'],
    ]);
    expect(r.items.map((i) => [i.departureTime, i.arrivalTime, i.hours, i.amount])).toEqual([
      ['2026-03-28T11:00:00Z', '2026-03-28T23:00:00Z', 12, '9.30'],
      ['2026-03-28T23:00:00Z', '2026-03-29T10:00:00Z', 11, '9.30'],
    ]);
    expect(r.totals).toEqual([{ currencyCode: 'EUR', amount: '18.60' }]);
  });
});

describe('SK foreign (opatrenie 401/2012: CZ 600 CZK, PL 37 €, SI 38 €)', () => {
  it.each([
    ['CZ', '2026-02-02T07:00:00Z', '2026-02-02T13:00:00Z', '<=6h', '150.00', 'CZK'], // 6 h: 25 % × 600
    ['CZ', '2026-02-02T07:00:00Z', '2026-02-02T13:01:00Z', '>6-12h', '300.00', 'CZK'], // 6 h 1 min: 50 %
    ['CZ', '2026-02-02T07:00:00Z', '2026-02-02T19:00:00Z', '>6-12h', '300.00', 'CZK'], // 12 h: 50 %
    ['CZ', '2026-02-02T07:00:00Z', '2026-02-02T19:01:00Z', '>12h', '600.00', 'CZK'], // 12 h 1 min: 100 %
    ['PL', '2026-02-02T07:00:00Z', '2026-02-02T12:00:00Z', '<=6h', '9.25', 'EUR'], // 25 % × 37
    ['SI', '2026-02-02T07:00:00Z', '2026-02-02T17:00:00Z', '>6-12h', '19.00', 'EUR'], // 50 % × 38
  ])('%s from %s to %s: band %s, %s %s', (country, from, to, band, amount, currencyCode) => {
    const row = leg(from, to, country);
    expect(row).toMatchObject({ kind: 'Foreign', countryCode: country, band, amount, currencyCode });
    // The rate's instrument and the law that sets the bands and reductions.
    expect(row.source!.act).toBe('Opatrenie MF SR č. 401/2012 Z. z.; Zákon č. 283/2002 Z. z. o cestovných náhradách');
    // Foreign amounts stay in the rate's currency; CZK is not the SK base currency, so the caller converts.
    expect(row.amountInBaseCurrency).toBe(currencyCode === 'EUR' ? amount : null);
  });

  it('meals abroad: lunch and dinner in CZ over 12 h: 600 − 40 % × 600 − 35 % × 600 = 600 − 240 − 210 = 150 CZK', () => {
    const r = trip(
      [
        ['2026-02-02T06:00:00Z', 'CZ'],
        ['2026-02-02T20:00:00Z', 'SK'],
      ],
      { meals: [{ countryCode: 'CZ', departureTime: '2026-02-02T06:00:00Z', lunchesProvided: 1, dinnersProvided: 1 }] },
    );
    expect(r.items[0]!.amount).toBe('150.00');
  });

  it.each([
    // Second pass (cesmad.sk list of 401/2012; HR from two accountants' sites): a day over 12 h is 100 %.
    ['HR', '40.00', 'EUR'],
    ['DE', '45.00', 'EUR'],
    ['AT', '45.00', 'EUR'],
    ['HU', '39.00', 'EUR'],
    ['IT', '45.00', 'EUR'],
    ['GB', '37.00', 'GBP'],
  ])('%s over 12 h: the full base rate, %s %s', (country, amount, currencyCode) => {
    const row = leg('2026-02-02T07:00:00Z', '2026-02-02T19:01:00Z', country);
    expect(row).toMatchObject({ status: 'known', band: '>12h', amount, currencyCode });
    expect(row.source!.reportedBy).toBeTruthy();
  });

  it('HR in bands: 6 h 25 % × 40 = 10.00 €, 10 h 50 % = 20.00 €; the row names its sources', () => {
    expect(leg('2026-02-02T07:00:00Z', '2026-02-02T13:00:00Z', 'HR')).toMatchObject({ band: '<=6h', amount: '10.00' });
    const row = leg('2026-02-02T07:00:00Z', '2026-02-02T17:00:00Z', 'HR');
    expect(row).toMatchObject({ band: '>6-12h', amount: '20.00' });
    expect(row.source!.reportedBy).toMatch(/mup\.sk/);
  });

  it('a country whose rate is only reported (JP) is unknown with the reason', () => {
    const row = leg('2026-02-02T07:00:00Z', '2026-02-02T19:01:00Z', 'JP');
    expect(row).toMatchObject({ status: 'unknown', amount: null });
    expect(row.reason).toMatch(/only the 34 rows a second source confirms are statutory/);
  });

  it('a trip across two foreign countries: each day takes the rate of its longest foreign stay', () => {
    // Depart Bratislava 2026-03-02 06:00 CET (05:00Z); into CZ 08:00 (07:00Z); into PL 2026-03-03 09:00
    // (08:00Z); back into SK 21:00 (20:00Z); home 23:00 (22:00Z).
    // 2 Mar: SK 06:00–08:00 = 2 h → below 5 h, 0.00 €; abroad CZ 08:00–24:00 = 16 h → >12 h, 600 CZK.
    // 3 Mar: abroad CZ 00:00–09:00 = 9 h + PL 09:00–21:00 = 12 h = 21 h → >12 h at the rate of PL (12 h is the
    // longest stay): 37.00 €; SK 21:00–23:00 = 2 h → 0.00 €.
    const r = trip([
      ['2026-03-02T05:00:00Z', 'SK'],
      ['2026-03-02T07:00:00Z', 'CZ'],
      ['2026-03-03T08:00:00Z', 'PL'],
      ['2026-03-03T20:00:00Z', 'SK'],
      ['2026-03-03T22:00:00Z', 'SK'],
    ]);
    expect(r.items.map((i) => [i.date, i.kind, i.countryCode, i.hours, i.band, i.amount, i.currencyCode])).toEqual([
      ['2026-03-02', 'Domestic', 'SK', 2, null, '0.00', 'EUR'],
      ['2026-03-02', 'Foreign', 'CZ', 16, '>12h', '600.00', 'CZK'],
      ['2026-03-03', 'Foreign', 'PL', 21, '>12h', '37.00', 'EUR'],
      ['2026-03-03', 'Domestic', 'SK', 2, null, '0.00', 'EUR'],
    ]);
    expect(r.items[2]!.departureTime).toBe('2026-03-02T23:00:00Z'); // midnight Bratislava
    expect(r.totals).toEqual([
      { currencyCode: 'EUR', amount: '37.00' },
      { currencyCode: 'CZK', amount: '600.00' },
    ]);
  });
});

describe('SK overrides: the statutory minimum and the taxable excess', () => {
  const from = '2026-02-02T04:00:00Z';
  const stops: [string, string][] = [
    [from, 'SK'],
    ['2026-02-02T23:00:00Z', 'SK'],
  ];
  it('an override of 30.00 € over the 20.60 € minimum: excess 9.40 € for payroll', () => {
    const row = trip(stops, {
      overrides: [
        { countryCode: 'SK', departureTime: from, overrideAmount: '30.00', overrideReason: 'company policy' },
      ],
    }).items[0]!;
    expect(row).toMatchObject({
      amount: '20.60',
      overrideAmount: '30.00',
      overrideReason: 'company policy',
      excessAmount: '9.40',
      payableAmount: '30.00',
      taxTreatment: 'StatutoryMinimum',
    });
  });
  it('an override under the minimum has no excess', () => {
    const row = trip(stops, {
      overrides: [{ countryCode: 'SK', departureTime: from, overrideAmount: '15', overrideReason: 'agreed' }],
    }).items[0]!;
    expect(row).toMatchObject({ overrideAmount: '15.00', excessAmount: '0.00', payableAmount: '15.00' });
  });
});

describe('SK mobile road-transport workers (opatrenie 9/2026 Z. z., from 2026-01-30; employee marked so)', () => {
  const mobile = (from: string, to: string, country: string, extra: Partial<PerDiemRequest> = {}) =>
    trip(
      [
        [from, country],
        [to, 'SK'],
      ],
      { mobileRoadTransportWorker: true, ...extra },
    ).items[0]!;

  it('a day trip to Czechia: SK 2 h + 2 h (under 5 h) 0.00 €; CZ 13 h over 12 h → 1,200 CZK (not 600)', () => {
    // Bratislava 2 Mar 2026 06:00 (05:00Z) → CZ 08:00 (07:00Z) → back 21:00 (20:00Z) → home 23:00 (22:00Z).
    const stops: [string, string][] = [
      ['2026-03-02T05:00:00Z', 'SK'],
      ['2026-03-02T07:00:00Z', 'CZ'],
      ['2026-03-02T20:00:00Z', 'SK'],
      ['2026-03-02T22:00:00Z', 'SK'],
    ];
    const r = trip(stops, { mobileRoadTransportWorker: true });
    expect(r.items.map((i) => [i.kind, i.countryCode, i.hours, i.band, i.amount, i.currencyCode])).toEqual([
      ['Domestic', 'SK', 4, null, '0.00', 'EUR'],
      ['Foreign', 'CZ', 13, '>12h', '1200.00', 'CZK'],
    ]);
    expect(r.items[1]!.source!.act).toBe(
      'Opatrenie MF SR č. 9/2026 Z. z.; Zákon č. 283/2002 Z. z. o cestovných náhradách',
    );
    // The same trip for anyone else: 600 CZK.
    expect(trip(stops).items[1]).toMatchObject({ amount: '600.00' });
    expect(trip(stops, { mobileRoadTransportWorker: false }).items[1]).toMatchObject({ amount: '600.00' });
  });

  it.each([
    // [country, 10 h = 50 % of the 9/2026 rate]
    ['DE', '31.50'], // 50 % × 63
    ['AT', '31.50'], // 50 % × 63
    ['IT', '31.50'], // 50 % × 63
    ['HR', '28.00'], // 50 % × 56
    ['HU', '27.50'], // 50 % × 55
    ['PL', '26.00'], // 50 % × 52
    ['SI', '26.50'], // 50 % × 53
  ])('%s for 10 h: %s €', (country, amount) => {
    expect(mobile('2026-03-02T06:00:00Z', '2026-03-02T16:00:00Z', country)).toMatchObject({
      band: '>6-12h',
      amount,
      currencyCode: 'EUR',
    });
  });

  it('before 2026-01-30 the general rate applies: DE 10 h on 29 Jan is 50 % × 45 = 22.50 €; on 30 Jan 31.50 €', () => {
    expect(mobile('2026-01-29T06:00:00Z', '2026-01-29T16:00:00Z', 'DE').amount).toBe('22.50');
    expect(mobile('2026-01-30T06:00:00Z', '2026-01-30T16:00:00Z', 'DE').amount).toBe('31.50');
  });

  it('meals: over 12 h in Germany with lunch: 63 − 40 % × 63 (25.20) = 37.80 €', () => {
    const row = mobile('2026-03-02T06:00:00Z', '2026-03-02T19:00:00Z', 'DE', {
      meals: [{ countryCode: 'DE', departureTime: '2026-03-02T06:00:00Z', lunchesProvided: 1 }],
    });
    expect(row).toMatchObject({ grossAmount: '63.00', amount: '37.80' });
  });

  it('a country without a verified 9/2026 rate (GB) is unknown for them, never the lower general rate', () => {
    const row = mobile('2026-03-02T06:00:00Z', '2026-03-02T19:00:00Z', 'GB');
    expect(row).toMatchObject({ status: 'unknown', amount: null });
    expect(row.reason).toMatch(/mobile road-transport workers/);
  });

  it('the flag changes nothing in another market (CZ to Germany 10 h: ⅓ × 50 = 16.67 €), and must be a boolean', () => {
    const cz = calculatePerDiems({
      market: 'CZ',
      mobileRoadTransportWorker: true,
      stops: [
        { time: '2026-03-02T05:00:00Z', countryCode: 'DE' },
        { time: '2026-03-02T15:00:00Z', countryCode: 'CZ' },
      ],
    });
    expect(cz.items[0]).toMatchObject({ amount: '16.67' });
    expect(() =>
      calculatePerDiems({
        market: 'SK',
        mobileRoadTransportWorker: 'yes' as unknown as boolean,
        stops: [
          { time: '2026-03-02T05:00:00Z', countryCode: 'SK' },
          { time: '2026-03-02T15:00:00Z', countryCode: 'SK' },
        ],
      }),
    ).toThrow(expect.objectContaining({ errors: { mobileRoadTransportWorker: ['must be true or false'] } }));
  });
});
