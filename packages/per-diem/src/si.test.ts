// Slovenia, worked by hand from research/REGULATIONS.md (SI section, third pass) and research/foreign/SI.md
// (Uredba o davčni obravnavi povračil stroškov …, UL 140/2006, 76/2008): domestic dnevnica through
// 2022-12-31 >12–24 h 21.39 € (breakfast −10 %), over 8 up to 12 h 10.68 € (−15 %), over 6 up to 8 h 7.45 €
// ("nad 6 do 8 ur": the lower edge excluded, the upper included; second pass); from 2023-01-01 (UL RS
// 162/2022) 27.81 € and 13.88 €, the 6–8 h band unknown (9.69 or 7.45 €); full 24 h blocks first, the
// remainder in one band. Foreign: over 14 up to
// 24 h 100 %, over 8 up to 14 h 75 %, over 6 up to 8 h 25 % of the country rate; meals >14 h: breakfast −10 %, lunch and dinner −35 %
// each; 8–14 h: −15 % / −40 % / −40 %; with all meals free 20 % is still paid. Rates from 2021: HR, CZ, PL,
// SK 40 € each; the 2026 amounts are UNVERIFIED (unknown). Tax-free limits apply to residents (ZDoh-2
// Art. 17); the non-resident rule is UNVERIFIED.
import { calculatePerDiems, type PerDiemRequest } from './index';

const trip = (stops: [string, string][], extra: Partial<PerDiemRequest> = {}) =>
  calculatePerDiems({ market: 'SI', stops: stops.map(([time, countryCode]) => ({ time, countryCode })), ...extra });
const home = (from: string, to: string, extra: Partial<PerDiemRequest> = {}) =>
  trip(
    [
      [from, 'SI'],
      [to, 'SI'],
    ],
    extra,
  );

describe('SI domestic bands', () => {
  it.each([
    ['2022-02-02T06:00:00Z', '2022-02-02T11:59:00Z', null, '0.00'], // 5 h 59 min
    ['2022-02-02T06:00:00Z', '2022-02-02T12:00:00Z', null, '0.00'], // exactly 6 h: not "over 6"
    ['2022-02-02T06:00:00Z', '2022-02-02T12:01:00Z', '>6-8h', '7.45'], // 6 h 1 min
    ['2022-02-02T06:00:00Z', '2022-02-02T14:00:00Z', '>6-8h', '7.45'], // exactly 8 h: "do 8 ur" includes it
    ['2022-02-02T06:00:00Z', '2022-02-02T14:01:00Z', '>8-12h', '10.68'], // 8 h 1 min
    ['2022-02-02T06:00:00Z', '2022-02-02T18:00:00Z', '>8-12h', '10.68'], // exactly 12 h
    ['2022-02-02T06:00:00Z', '2022-02-02T18:01:00Z', '>12-24h', '21.39'], // 12 h 1 min
    ['2022-02-02T06:00:00Z', '2022-02-03T06:00:00Z', '>12-24h', '21.39'], // exactly 24 h
  ])('%s → %s: band %s, %s €', (from, to, band, amount) => {
    expect(home(from, to).items).toMatchObject([{ band, amount, currencyCode: 'EUR', taxTreatment: 'TaxFreeCap' }]);
  });
});

describe('SI full 24-hour blocks first, the remainder in one band', () => {
  it('30 h: 21.39 + 6 h (not over 6 h: 0.00) = 21.39 €; 31 h: 21.39 + 7 h (7.45) = 28.84 €', () => {
    const r = home('2022-02-02T06:00:00Z', '2022-02-03T12:00:00Z');
    expect(r.items.map((i) => [i.hours, i.band, i.amount])).toEqual([
      [24, '>12-24h', '21.39'],
      [6, null, '0.00'],
    ]);
    expect(r.totals).toEqual([{ currencyCode: 'EUR', amount: '21.39' }]);
    const r31 = home('2022-02-02T06:00:00Z', '2022-02-03T13:00:00Z');
    expect(r31.items.map((i) => [i.hours, i.band, i.amount])).toEqual([
      [24, '>12-24h', '21.39'],
      [7, '>6-8h', '7.45'],
    ]);
    expect(r31.totals).toEqual([{ currencyCode: 'EUR', amount: '28.84' }]);
  });
  it('36 h: 21.39 + 12 h (10.68) = 32.07 €', () => {
    expect(home('2022-02-02T06:00:00Z', '2022-02-03T18:00:00Z').totals).toEqual([
      { currencyCode: 'EUR', amount: '32.07' },
    ]);
  });
  it('a stay split into legs (SI → SI → SI) is one stay: 14 h in two legs is one >12 h amount, not 2 × 7 h', () => {
    const r = trip([
      ['2022-02-02T06:00:00Z', 'SI'],
      ['2022-02-02T13:00:00Z', 'SI'],
      ['2022-02-02T20:00:00Z', 'SI'],
    ]);
    expect(r.items.map((i) => [i.hours, i.amount])).toEqual([[14, '21.39']]);
  });
  it('blocks are elapsed hours across the autumn DST change (a 25-hour wall day is 24 h + 1 h)', () => {
    // 2022-10-29 12:00 CEST (10:00Z) → 2022-10-30 12:00 CET (11:00Z): 25 h: 21.39 + 1 h (0.00).
    expect(home('2022-10-29T10:00:00Z', '2022-10-30T11:00:00Z').items.map((i) => [i.hours, i.amount])).toEqual([
      [24, '21.39'],
      [1, '0.00'],
    ]);
  });
});

describe('SI domestic from 2023-01-01 (UL RS 162/2022): 27.81 € / 13.88 €, over 6 up to 8 h unknown', () => {
  it.each([
    ['2024-03-04T06:00:00Z', '2024-03-04T18:01:00Z', '>12-24h', '27.81'],
    ['2024-03-04T06:00:00Z', '2024-03-04T18:00:00Z', '>8-12h', '13.88'],
    ['2023-01-02T06:00:00Z', '2023-01-02T14:01:00Z', '>8-12h', '13.88'],
  ])('%s → %s: band %s, %s €', (from, to, band, amount) => {
    expect(home(from, to).items[0]).toMatchObject({ band, amount, currencyCode: 'EUR' });
  });
  it('over 6 up to 8 h in 2024: two sources disagree (9.69 / 7.45 €), so the row is unknown with the reason', () => {
    const r = home('2024-03-04T06:00:00Z', '2024-03-04T13:00:00Z');
    expect(r.items[0]).toMatchObject({ status: 'unknown', amount: null });
    expect(r.items[0]!.reason).toMatch(/>6-8h has no amount on 2024-03-04\. .*9\.69 € in one source and 7\.45 €/);
    expect(r.complete).toBe(false);
  });
  it('breakfast: 27.81 − 10 % (2.781 → 2.78) = 25.03 €; 13.88 − 15 % (2.082 → 2.08) = 11.80 € (jmmc.si)', () => {
    const from = '2024-03-04T06:00:00Z';
    const meal = (to: string) =>
      home(from, to, { meals: [{ countryCode: 'SI', departureTime: from, breakfastsProvided: 1 }] }).items[0]!;
    expect(meal('2024-03-04T20:00:00Z')).toMatchObject({ amount: '25.03' });
    expect(meal('2024-03-04T16:00:00Z')).toMatchObject({ amount: '11.80' });
  });
  it('2022-12-31 is the last day of 21.39 €, 2023-01-01 the first of 27.81 €', () => {
    expect(home('2022-12-31T06:00:00Z', '2022-12-31T20:00:00Z').items[0]!.amount).toBe('21.39');
    expect(home('2023-01-01T06:00:00Z', '2023-01-01T20:00:00Z').items[0]!.amount).toBe('27.81');
  });
});

describe('SI domestic meal reductions', () => {
  const from = '2022-02-02T06:00:00Z';
  const meals = (to: string, b: number, l: number) =>
    home(from, to, { meals: [{ countryCode: 'SI', departureTime: from, breakfastsProvided: b, lunchesProvided: l }] })
      .items[0]!;
  it('>12 h with breakfast: 21.39 − 10 % × 21.39 (2.139 → 2.14) = 19.25 €', () => {
    expect(meals('2022-02-02T20:00:00Z', 1, 0)).toMatchObject({ amount: '19.25' });
  });
  it('8–12 h with breakfast: 10.68 − 15 % × 10.68 (1.602 → 1.60) = 9.08 €', () => {
    expect(meals('2022-02-02T16:00:00Z', 1, 0)).toMatchObject({ amount: '9.08' });
  });
  it('a domestic lunch has no verified reduction: not reduced, and the row says so', () => {
    const row = meals('2022-02-02T20:00:00Z', 0, 1);
    expect(row.amount).toBe('21.39');
    expect(row.warnings.join(' ')).toMatch(/No verified reduction for lunch/);
  });
});

describe('SI foreign (40 € for HR, CZ, PL, SK; verified 2021–2025)', () => {
  const abroad = (to: string, meals?: [number, number, number]) =>
    trip(
      [
        ['2025-06-02T06:00:00Z', 'HR'],
        [to, 'SI'],
      ],
      meals
        ? {
            meals: [
              {
                countryCode: 'HR',
                departureTime: '2025-06-02T06:00:00Z',
                breakfastsProvided: meals[0],
                lunchesProvided: meals[1],
                dinnersProvided: meals[2],
              },
            ],
          }
        : {},
    ).items[0]!;
  it.each([
    ['2025-06-02T11:59:00Z', null, '0.00'], // under 6 h
    ['2025-06-02T12:00:00Z', null, '0.00'], // exactly 6 h: not "over 6"
    ['2025-06-02T12:01:00Z', '>6-8h', '10.00'], // 6 h 1 min: ¼ × 40
    ['2025-06-02T14:00:00Z', '>6-8h', '10.00'], // exactly 8 h: still ¼ × 40
    ['2025-06-02T14:01:00Z', '>8-14h', '30.00'], // 8 h 1 min: ¾ × 40
    ['2025-06-02T20:00:00Z', '>8-14h', '30.00'], // exactly 14 h: still ¾
    ['2025-06-02T20:01:00Z', '>14-24h', '40.00'], // 14 h 1 min: 100 %
  ])('to %s: band %s, %s €', (to, band, amount) => {
    expect(abroad(to)).toMatchObject({ countryCode: 'HR', kind: 'Foreign', band, amount });
  });
  it('>14 h, breakfast: 40 − 10 % × 40 (4.00) = 36.00 €', () => {
    expect(abroad('2025-06-02T22:00:00Z', [1, 0, 0]).amount).toBe('36.00');
  });
  it('>14 h, all meals: 40 − 4 − 14 − 14 = 8.00 € (the 20 % still paid)', () => {
    expect(abroad('2025-06-02T22:00:00Z', [1, 1, 1]).amount).toBe('8.00');
  });
  it('8–14 h, all meals: 30 − 4.50 − 12 − 12 = 1.50 €, raised to 20 % × 30 = 6.00 €', () => {
    expect(abroad('2025-06-02T18:00:00Z', [1, 1, 1]).amount).toBe('6.00');
  });
  it('8–14 h, lunch: 30 − 40 % × 30 (12.00) = 18.00 €', () => {
    expect(abroad('2025-06-02T18:00:00Z', [0, 1, 0]).amount).toBe('18.00');
  });
  it('2026: a new regulation applies and its amounts are unread, so unknown', () => {
    const r = trip([
      ['2026-06-02T06:00:00Z', 'HR'],
      ['2026-06-02T22:00:00Z', 'SI'],
    ]);
    expect(r.items[0]).toMatchObject({ status: 'unknown', amount: null });
    expect(r.items[0]!.reason).toMatch(/new regulation applies from 2026-01-01/);
  });
  it('across two foreign countries: SI → HR → CZ → SI, each stay at its rate', () => {
    // SI 05:00Z–06:00Z 1 h → 0.00. HR 06:00Z–16:00Z 10 h → ¾ × 40 = 30.00. CZ 16:00Z–07:00Z 15 h → 40.00.
    // SI 07:00Z–09:00Z 2 h → 0.00. Total 70.00 €.
    const r = trip([
      ['2025-06-02T05:00:00Z', 'SI'],
      ['2025-06-02T06:00:00Z', 'HR'],
      ['2025-06-02T16:00:00Z', 'CZ'],
      ['2025-06-03T07:00:00Z', 'SI'],
      ['2025-06-03T09:00:00Z', 'SI'],
    ]);
    expect(r.items.map((i) => [i.countryCode, i.hours, i.band, i.amount])).toEqual([
      ['SI', 1, null, '0.00'],
      ['HR', 10, '>8-14h', '30.00'],
      ['CZ', 15, '>14-24h', '40.00'],
      ['SI', 2, null, '0.00'],
    ]);
    expect(r.totals).toEqual([{ currencyCode: 'EUR', amount: '70.00' }]);
  });
});

describe('SI residency', () => {
  it('a non-resident gets the statutory amount with its tax treatment unknown, and a warning', () => {
    const row = home('2022-02-02T06:00:00Z', '2022-02-02T20:00:00Z', { residency: 'NonResident' }).items[0]!;
    expect(row).toMatchObject({ amount: '21.39', taxTreatment: 'Unknown' });
    expect(row.warnings.join(' ')).toMatch(/non-residents is verified/);
  });
});
