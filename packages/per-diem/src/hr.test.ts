// Croatia, worked by hand from ../shared/research/REGULATIONS.md (HR section; Pravilnik o porezu na dohodak,
// NN 143/2023, from 2024): tax-free domestic dnevnica 30 € for >12 h, 15 € for 8–12 h (2023: 26.54 / 13.27 €).
// Meals: one of lunch or dinner −30 %, both −60 %; a hotel breakfast does not count. Foreign (Odluka NN 16/24
// from 2024-02-08, second pass via rrif.hr): AT, BE, FR, DK, FI, IE 90 €; CZ, CY, EE 80 €; BG, GR 70 €; BA, ME
// 50 €; same bands and reductions; DE, IT, SI, SK, PL, HU unverified (unknown, not the 50 USD of unlisted ones).
// Multi-day: full 24-hour blocks from the start of each stay, the remainder in one band (docs/decisions/0051).
import { calculatePerDiems, type PerDiemRequest } from './index';

const trip = (stops: [string, string][], extra: Partial<PerDiemRequest> = {}) =>
  calculatePerDiems({ market: 'HR', stops: stops.map(([time, countryCode]) => ({ time, countryCode })), ...extra });
const home = (from: string, to: string, extra: Partial<PerDiemRequest> = {}) =>
  trip(
    [
      [from, 'HR'],
      [to, 'HR'],
    ],
    extra,
  );

describe('HR domestic bands', () => {
  it.each([
    ['2026-02-02T06:00:00Z', '2026-02-02T13:59:00Z', null, '0.00'], // 7 h 59 min
    ['2026-02-02T06:00:00Z', '2026-02-02T14:00:00Z', '8-12h', '15.00'], // exactly 8 h
    ['2026-02-02T06:00:00Z', '2026-02-02T18:00:00Z', '8-12h', '15.00'], // exactly 12 h
    ['2026-02-02T06:00:00Z', '2026-02-02T18:01:00Z', '>12h', '30.00'], // 12 h 1 min
  ])('%s → %s: band %s, %s €', (from, to, band, amount) => {
    const row = home(from, to).items[0]!;
    expect(row).toMatchObject({ band, amount, currencyCode: 'EUR', taxTreatment: 'TaxFreeCap' });
    expect(row.source!.act).toContain('NN 143/2023');
  });
  it('2023 amounts on a 2023 day: >12 h is 26.54 €, 8–12 h 13.27 €', () => {
    expect(home('2023-05-02T06:00:00Z', '2023-05-02T20:00:00Z').items[0]!.amount).toBe('26.54');
    expect(home('2023-05-02T06:00:00Z', '2023-05-02T16:00:00Z').items[0]!.amount).toBe('13.27');
  });
});

describe('HR multi-day: full 24-hour blocks, then the remainder in one band', () => {
  it.each([
    ['2026-02-03T06:00:00Z', ['30.00']], // 24 h: one block
    ['2026-02-03T13:00:00Z', ['30.00', '0.00']], // 24 h + 7 h: remainder below 8 h
    ['2026-02-03T14:00:00Z', ['30.00', '15.00']], // 24 h + 8 h
    ['2026-02-03T18:01:00Z', ['30.00', '30.00']], // 24 h + 12 h 1 min
  ])('from 2026-02-02 06:00Z to %s: %j', (to, amounts) => {
    expect(home('2026-02-02T06:00:00Z', to).items.map((i) => i.amount)).toEqual(amounts);
  });

  it('blocks are 24 elapsed hours, also across the spring DST change', () => {
    // 2026-03-28 08:00 CET (07:00Z) → 2026-03-29 16:30 CEST (14:30Z): 31.5 h elapsed (32.5 h on the wall clock).
    // Block 07:00Z–07:00Z: 30.00; remainder 7.5 h: below 8 h, 0.00. Total 30.00 € (a wall-clock reading
    // would wrongly give a remainder of 8.5 h and 15.00 € more).
    const r = home('2026-03-28T07:00:00Z', '2026-03-29T14:30:00Z');
    expect(r.items.map((i) => [i.departureTime, i.arrivalTime, i.hours, i.amount, i.date])).toEqual([
      ['2026-03-28T07:00:00Z', '2026-03-29T07:00:00Z', 24, '30.00', '2026-03-28'],
      ['2026-03-29T07:00:00Z', '2026-03-29T14:30:00Z', 7.5, '0.00', '2026-03-29'],
    ]);
  });
});

describe('HR meal reductions', () => {
  const from = '2026-02-02T06:00:00Z';
  const meals = (to: string, b: number, l: number, d: number) =>
    home(from, to, {
      meals: [
        { countryCode: 'HR', departureTime: from, breakfastsProvided: b, lunchesProvided: l, dinnersProvided: d },
      ],
    }).items[0]!;
  it('>12 h with lunch: 30 − 30 % × 30 (9.00) = 21.00 €', () => {
    expect(meals('2026-02-02T20:00:00Z', 0, 1, 0).amount).toBe('21.00');
  });
  it('>12 h with lunch and dinner: 30 − 60 % × 30 (18.00) = 12.00 €', () => {
    const row = meals('2026-02-02T20:00:00Z', 0, 1, 1);
    expect(row.reductions).toEqual([
      { meals: ['Lunch', 'Dinner'], count: 2, percent: '60', of: '30.00', amount: '18.00' },
    ]);
    expect(row.amount).toBe('12.00');
  });
  it('a hotel breakfast does not count: 30.00 €', () => {
    expect(meals('2026-02-02T20:00:00Z', 1, 0, 0)).toMatchObject({ amount: '30.00', reductions: [] });
  });
  it('8–12 h with dinner: 15 − 30 % × 15 (4.50) = 10.50 €', () => {
    expect(meals('2026-02-02T16:00:00Z', 0, 0, 1).amount).toBe('10.50');
  });
});

describe('HR foreign (Odluka NN 16/24: AT, BE, FR, DK, FI, IE 90 €; CZ, CY, EE 80 €; BG, GR 70 €; BA, ME 50 €)', () => {
  it('Austria 10 h: ½ × 90 = 45.00 €; 14 h: 90.00 €', () => {
    const at = (to: string) =>
      trip([
        ['2026-02-02T06:00:00Z', 'AT'],
        [to, 'HR'],
      ]).items[0]!;
    expect(at('2026-02-02T16:00:00Z')).toMatchObject({ band: '8-12h', amount: '45.00', kind: 'Foreign' });
    expect(at('2026-02-02T20:00:00Z')).toMatchObject({ band: '>12h', amount: '90.00' });
  });

  it('across two foreign countries: HR → AT → CZ → HR, each stay at its own rate', () => {
    // HR 05:00Z–07:00Z 2 h → 0.00. AT 07:00Z–20:00Z 13 h → 90.00 €.
    // CZ 2026-02-02 20:00Z → 02-04 06:00Z = 34 h: a block of 24 h 80.00 € + 10 h ½ × 80 = 40.00 €.
    // HR 06:00Z–08:00Z 2 h → 0.00. Total 210.00 €.
    const r = trip([
      ['2026-02-02T05:00:00Z', 'HR'],
      ['2026-02-02T07:00:00Z', 'AT'],
      ['2026-02-02T20:00:00Z', 'CZ'],
      ['2026-02-04T06:00:00Z', 'HR'],
      ['2026-02-04T08:00:00Z', 'HR'],
    ]);
    expect(r.items.map((i) => [i.countryCode, i.hours, i.band, i.amount])).toEqual([
      ['HR', 2, null, '0.00'],
      ['AT', 13, '>12h', '90.00'],
      ['CZ', 24, '>12h', '80.00'],
      ['CZ', 10, '8-12h', '40.00'],
      ['HR', 2, null, '0.00'],
    ]);
    expect(r.totals).toEqual([{ currencyCode: 'EUR', amount: '210.00' }]);
  });

  it('meals abroad: Austria over 12 h with lunch: 90 − 30 % × 90 (27.00) = 63.00 €', () => {
    const r = trip(
      [
        ['2026-02-02T06:00:00Z', 'AT'],
        ['2026-02-02T20:00:00Z', 'HR'],
      ],
      { meals: [{ countryCode: 'AT', departureTime: '2026-02-02T06:00:00Z', lunchesProvided: 1 }] },
    );
    expect(r.items[0]).toMatchObject({ grossAmount: '90.00', amount: '63.00' });
  });

  it.each([
    // Second pass (Odluka NN 16/24 via rrif.hr): 10 h is the 8–12 h band, half the rate.
    ['FR', '45.00'], // ½ × 90
    ['EE', '40.00'], // ½ × 80
    ['GR', '35.00'], // ½ × 70
    ['ME', '25.00'], // ½ × 50
  ])('%s for 10 h: %s €', (country, amount) => {
    const r = trip([
      ['2026-02-02T06:00:00Z', country],
      ['2026-02-02T16:00:00Z', 'HR'],
    ]);
    expect(r.items[0]).toMatchObject({ countryCode: country, band: '8-12h', amount, currencyCode: 'EUR' });
    expect(r.items[0]!.source).toMatchObject({
      act: expect.stringContaining('NN 16/24'),
      reportedBy: expect.stringMatching(/^rrif\.hr/),
    });
  });

  it('an unread row (DE) is unknown: the 50 USD unlisted rate is not assumed', () => {
    const r = trip([
      ['2026-02-02T06:00:00Z', 'DE'],
      ['2026-02-02T20:00:00Z', 'HR'],
    ]);
    expect(r.items[0]).toMatchObject({ status: 'unknown', amount: null });
    expect(r.items[0]!.reason).toMatch(/rows after it .* are unread/);
  });

  it('an override above the tax-free cap: the excess is taxable', () => {
    const r = trip(
      [
        ['2026-02-02T06:00:00Z', 'AT'],
        ['2026-02-02T20:00:00Z', 'HR'],
      ],
      {
        overrides: [
          {
            countryCode: 'AT',
            departureTime: '2026-02-02T06:00:00Z',
            overrideAmount: '100.00',
            overrideReason: 'policy',
          },
        ],
      },
    );
    expect(r.items[0]).toMatchObject({ amount: '90.00', excessAmount: '10.00', payableAmount: '100.00' });
    expect(r.totals).toEqual([{ currencyCode: 'EUR', amount: '100.00' }]);
  });
});
