// Per-diem row settings on entries (docs/decisions/0070-0071). Figures: ../shared/research/REGULATIONS.md.
import {
  derivedMealsProvided,
  itineraryOfRows,
  legacyMeals,
  nightsOf,
  perDiemFxDate,
  perDiemRowFields,
  rowDates,
  sameRows,
  type PerDiemRowInput,
} from './per-diem-row';

const row = (extra: Partial<PerDiemRowInput> = {}): PerDiemRowInput => ({
  countryCode: 'CZ',
  departureTime: '2026-11-02T05:00:00Z',
  arrivalTime: '2026-11-02T21:00:00Z',
  ...extra,
});

describe('per-diem row settings', () => {
  it('legacy mealsProvided maps lunches first, then dinners, and reads back as lunch + dinner', () => {
    for (let n = 0; n <= 4; n++) expect(derivedMealsProvided(legacyMeals(n))).toBe(n);
    expect(legacyMeals(1)).toEqual({ lunchesProvided: 1, dinnersProvided: 0 });
    expect(legacyMeals(3)).toEqual({ lunchesProvided: 2, dinnersProvided: 1 });
    const { fields } = perDiemRowFields(row({ mealsProvided: 2 }), 0, 'CZ');
    expect(fields).toMatchObject({ breakfastsProvided: 0, lunchesProvided: 1, dinnersProvided: 1 });
  });

  it('the per-meal counts win over the legacy aggregate (a GET body carries both)', () => {
    const { fields, errors } = perDiemRowFields(row({ mealsProvided: 2, breakfastsProvided: 1 }), 0, 'CZ');
    expect(errors).toEqual({});
    expect(fields).toMatchObject({ breakfastsProvided: 1, lunchesProvided: 0, dinnersProvided: 0 });
  });

  it('mealsProvidedAllocation: days of the row, summed into the counts, which must agree when sent', () => {
    const ok = perDiemRowFields(
      row({ mealsProvidedAllocation: [{ date: '2026-11-02', dinnersProvided: 1 }] }),
      0,
      'CZ',
    );
    expect(ok.errors).toEqual({});
    expect(ok.fields).toMatchObject({ lunchesProvided: 0, dinnersProvided: 1 });
    const bad = perDiemRowFields(
      row({ lunchesProvided: 1, mealsProvidedAllocation: [{ date: '2026-11-03', dinnersProvided: 1 }] }),
      2,
      'CZ',
    );
    expect(Object.keys(bad.errors).sort()).toEqual([
      'perDiems[2].mealsProvidedAllocation',
      'perDiems[2].mealsProvidedAllocation[0].date',
    ]);
  });

  it('an override needs its reason, and a reason needs its amount; two decimals at most', () => {
    expect(perDiemRowFields(row({ overrideAmount: 40 }), 0, 'HR').errors).toHaveProperty([
      'perDiems[0].overrideReason',
    ]);
    expect(perDiemRowFields(row({ overrideReason: 'x' }), 0, 'HR').errors).toHaveProperty([
      'perDiems[0].overrideAmount',
    ]);
    expect(perDiemRowFields(row({ overrideAmount: 1.234, overrideReason: 'x' }), 0, 'HR').errors).toHaveProperty([
      'perDiems[0].overrideAmount',
    ]);
    const { fields } = perDiemRowFields(row({ overrideAmount: 40, overrideReason: '  policy ' }), 0, 'HR');
    expect(fields).toMatchObject({ overrideAmount: '40.00', overrideReason: 'policy' });
  });

  it('a night allocation is a night shorter than six hours inside the row (21:00–07:00 local)', () => {
    // Prague 18:00 → 06:00 next day (17:00Z → 05:00Z): the night of 2 Nov has 9 h inside the row.
    const night = row({ departureTime: '2026-11-02T17:00:00Z', arrivalTime: '2026-11-03T05:00:00Z' });
    expect(perDiemRowFields({ ...night, nightAllocation: { date: '2026-11-02', hours: 5.5 } }, 0, 'CZ').errors).toEqual(
      {},
    );
    expect(
      perDiemRowFields({ ...night, nightAllocation: { date: '2026-11-02', hours: 6 } }, 0, 'CZ').errors,
    ).toHaveProperty(['perDiems[0].nightAllocation.hours']);
    expect(
      perDiemRowFields({ ...night, nightAllocation: { date: '2026-11-05', hours: 2 } }, 0, 'CZ').errors,
    ).toHaveProperty(['perDiems[0].nightAllocation.date']);
    // A day row 06:00–22:00 holds one hour of the night (21:00–22:00): two hours are more than it has.
    expect(perDiemRowFields(row({ nightAllocation: { date: '2026-11-02', hours: 2 } }), 0, 'CZ').errors).toHaveProperty(
      ['perDiems[0].nightAllocation.hours'],
    );
  });

  it('times are read as UTC instants and written as the engine writes them', () => {
    const { fields, errors } = perDiemRowFields(
      row({ departureTime: '2026-11-02T06:00:00+01:00', arrivalTime: '2026-11-02T21:00:00.000Z' }),
      0,
      'CZ',
    );
    expect(errors).toEqual({});
    expect(fields).toMatchObject({ departureTime: '2026-11-02T05:00:00Z', arrivalTime: '2026-11-02T21:00:00Z' });
    expect(perDiemRowFields(row({ arrivalTime: '2026-11-02T05:00:00Z' }), 0, 'CZ').errors).toHaveProperty([
      'perDiems[0].arrivalTime',
    ]);
  });

  it('sameRows compares settings regardless of order', () => {
    const a = perDiemRowFields(row(), 0, 'CZ').fields;
    const b = perDiemRowFields(row({ countryCode: 'AT', departureTime: '2026-11-02T09:00:00Z' }), 1, 'CZ').fields;
    expect(sameRows([a, b], [b, a])).toBe(true);
    expect(sameRows([a], [{ ...a, lunchesProvided: 1 }])).toBe(false);
  });
});

describe('the itinerary rows describe', () => {
  const fields = (rows: PerDiemRowInput[]) => rows.map((r, i) => perDiemRowFields(r, i, 'CZ').fields);

  it("CZ: a day's home row spans its foreign row; the foreign row is the more specific", () => {
    // Calculator rows for Prague 06:00 → AT 10:00–19:00 → home 20:00: CZ 05:00Z–19:00Z (5 h), AT 09:00Z–18:00Z.
    const { stops, errors } = itineraryOfRows(
      fields([
        row({ departureTime: '2026-11-02T05:00:00Z', arrivalTime: '2026-11-02T19:00:00Z' }),
        row({ countryCode: 'AT', departureTime: '2026-11-02T09:00:00Z', arrivalTime: '2026-11-02T18:00:00Z' }),
      ]),
    );
    expect(errors).toEqual({});
    expect(stops).toEqual([
      { time: '2026-11-02T05:00:00Z', countryCode: 'CZ' },
      { time: '2026-11-02T09:00:00Z', countryCode: 'AT' },
      { time: '2026-11-02T18:00:00Z', countryCode: 'CZ' },
      { time: '2026-11-02T19:00:00Z', countryCode: 'CZ' },
    ]);
  });

  it('rows that leave a gap describe no itinerary', () => {
    const { errors } = itineraryOfRows(
      fields([row(), row({ departureTime: '2026-11-03T05:00:00Z', arrivalTime: '2026-11-03T09:00:00Z' })]),
    );
    expect(errors.perDiems).toBeDefined();
  });
});

describe('days and nights of a row', () => {
  it('counts the local midnights a row runs through, across the autumn change (Warsaw, 25 Oct 2026)', () => {
    // 24 Oct 08:00 CEST (06:00Z) → 25 Oct 08:00 CET (07:00Z): one midnight, two days.
    expect(rowDates('PL', '2026-10-24T06:00:00Z', '2026-10-25T07:00:00Z')).toEqual(['2026-10-24', '2026-10-25']);
    expect(nightsOf('PL', '2026-10-24T06:00:00Z', '2026-10-25T07:00:00Z')).toBe(1);
    // A row that ends exactly at local midnight does not run into the next day.
    expect(nightsOf('CZ', '2026-11-02T05:00:00Z', '2026-11-02T23:00:00Z')).toBe(0);
  });
});

describe('the per-diem FX date', () => {
  it("CZ: the entry's advancePaymentDate (SPEC); other markets: the trip's start (decision 0056)", () => {
    expect(perDiemFxDate('CZ', '2026-02-27', '2026-03-02')).toBe('2026-02-27');
    for (const market of ['SK', 'PL', 'HR', 'SI'] as const)
      expect(perDiemFxDate(market, '2026-02-27', '2026-03-02')).toBe('2026-03-02');
  });
});
