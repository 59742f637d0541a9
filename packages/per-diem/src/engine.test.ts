// The engine's contract beyond the markets' figures: the API row shape (API-SURFACE.md, "Per-diem
// calculator and itinerary rows"), meals and overrides keyed by (countryCode, departureTime), field
// errors for bad input, and UTC in and out.
import { calculatePerDiems, PerDiemInputError, toApiRow, type PerDiemRequest } from './index';

const stops = [
  { time: '2026-02-02T06:00:00Z', countryCode: 'SK' },
  { time: '2026-02-02T20:00:00Z', countryCode: 'SK' },
];
const errorsOf = (request: PerDiemRequest): Record<string, string[]> => {
  try {
    calculatePerDiems(request);
  } catch (e) {
    if (e instanceof PerDiemInputError) return e.errors;
    throw e;
  }
  throw new Error('no error');
};

describe('the API row', () => {
  it('carries exactly the fields API-SURFACE.md lists', () => {
    const row = toApiRow(calculatePerDiems({ market: 'SK', stops }).items[0]!);
    expect(Object.keys(row).sort()).toEqual(
      [
        'countryCode',
        'departureTime',
        'arrivalTime',
        'hours',
        'band',
        'amount',
        'currencyCode',
        'amountInBaseCurrency',
        'exchangeRateSource',
        'breakfastsProvided',
        'lunchesProvided',
        'dinnersProvided',
        'source',
        // issue 34 §2 (docs/decisions/0188): the figures only reported, and where the amount comes from.
        'reported',
        'rateBasis',
      ].sort(),
    );
  });

  it('reads times without an offset as UTC and honours an explicit offset; answers in UTC', () => {
    const a = calculatePerDiems({ market: 'SK', stops: [{ time: '2026-02-02T06:00', countryCode: 'SK' }, stops[1]!] });
    const b = calculatePerDiems({
      market: 'SK',
      stops: [{ time: '2026-02-02T07:00:00+01:00', countryCode: 'SK' }, stops[1]!],
    });
    expect(a.items[0]!.departureTime).toBe('2026-02-02T06:00:00Z');
    expect(b.items[0]!.departureTime).toBe('2026-02-02T06:00:00Z');
  });

  it('meals key on the departure instant, whatever its spelling', () => {
    const r = calculatePerDiems({
      market: 'SK',
      stops,
      meals: [{ countryCode: 'SK', departureTime: '2026-02-02T07:00:00.000+01:00', lunchesProvided: 1 }],
    });
    expect(r.items[0]).toMatchObject({ lunchesProvided: 1, amount: '5.56' }); // 13.80 − 40 % × 20.60 (8.24)
  });
});

describe('the calculator echo (wall clock) and from-itinerary (UTC) agree', () => {
  // Prague is UTC+1 on 2 March: a row departing 05:00Z is echoed as 06:00 wall clock.
  const request: PerDiemRequest = {
    market: 'CZ',
    stops: [
      { time: '2026-03-02T05:00:00Z', countryCode: 'CZ' },
      { time: '2026-03-03T15:00:00Z', countryCode: 'CZ' },
    ],
  };
  it('the calculator shape echoes wall-clock times; the default is UTC', () => {
    const row = calculatePerDiems(request).items[0]!;
    expect(toApiRow(row, { times: 'wallClock' })).toMatchObject({
      departureTime: '2026-03-02T06:00:00',
      arrivalTime: '2026-03-03T00:00:00',
    });
    expect(toApiRow(row)).toMatchObject({ departureTime: '2026-03-02T05:00:00Z', arrivalTime: '2026-03-02T23:00:00Z' });
  });
  it('meals keyed by the times the calculator echoed reach the same rows as meals keyed by UTC', () => {
    const echoed = calculatePerDiems(request).items.map((r) => toApiRow(r, { times: 'wallClock' }));
    const utc = calculatePerDiems(request).items.map((r) => toApiRow(r));
    const meals = (rows: typeof echoed) =>
      rows.map((r) => ({ countryCode: r.countryCode, departureTime: r.departureTime, lunchesProvided: 1 }));
    const fromEcho = calculatePerDiems({ ...request, meals: meals(echoed) });
    const fromUtc = calculatePerDiems({ ...request, meals: meals(utc) });
    expect(fromEcho).toEqual(fromUtc);
    // 2 Mar 06:00–24:00 = 18 h → 236 − 35 % × 236 (82.60) = 153.40; 3 Mar 00:00–16:00 = 16 h → 153.40 Kč.
    expect(fromUtc.items.map((r) => r.amount)).toEqual(['153.40', '153.40']);
  });
});

describe('purity', () => {
  it('leaves the request untouched and answers the same twice', () => {
    const freeze = <T>(o: T): T => {
      if (o && typeof o === 'object') {
        Object.values(o).forEach(freeze);
        Object.freeze(o);
      }
      return o;
    };
    const request = freeze<PerDiemRequest>({
      market: 'PL',
      stops: [
        { time: '2026-03-02T17:00:00Z', countryCode: 'PL' },
        { time: '2026-03-03T09:00:00Z', countryCode: 'PL' },
      ],
      meals: [{ countryCode: 'PL', departureTime: '2026-03-02T17:00:00Z', dinnersProvided: 1 }],
      nights: [{ date: '2026-03-02', lumpSum: true }],
      overrides: [
        { countryCode: 'PL', departureTime: '2026-03-02T17:00:00Z', overrideAmount: '50.00', overrideReason: 'x' },
      ],
    });
    expect(calculatePerDiems(request)).toEqual(calculatePerDiems(request));
  });
});

describe('field errors (for a 400 VALIDATION_FAILED)', () => {
  it('fewer than two stops', () => {
    expect(errorsOf({ market: 'SK', stops: [stops[0]!] })).toHaveProperty('stops');
  });
  it('a time that is not an instant, a stop before the previous one, a bad country code', () => {
    const errors = errorsOf({
      market: 'SK',
      stops: [
        { time: '2026-02-02T06:00:00Z', countryCode: 'SK' },
        { time: '2026-02-30T06:00:00Z', countryCode: 'sk' },
        { time: '2026-02-01T06:00:00Z', countryCode: 'SK' },
      ],
    });
    expect(Object.keys(errors).sort()).toEqual(['stops[1].countryCode', 'stops[1].time', 'stops[2].time']);
  });
  it('an unknown market or residency', () => {
    expect(Object.keys(errorsOf({ market: 'AT' as never, residency: 'Alien' as never, stops })).sort()).toEqual([
      'market',
      'residency',
    ]);
  });
  it('meals for no row, twice for one row, or a count out of range', () => {
    const errors = errorsOf({
      market: 'SK',
      stops,
      meals: [
        { countryCode: 'SK', departureTime: '2026-02-02T07:00:00Z', lunchesProvided: 1 },
        { countryCode: 'SK', departureTime: '2026-02-02T06:00:00Z', lunchesProvided: 3 },
        { countryCode: 'SK', departureTime: '2026-02-02T06:00:00Z', dinnersProvided: 1 },
      ],
    });
    expect(Object.keys(errors).sort()).toEqual(['meals[0]', 'meals[1].lunchesProvided', 'meals[2]']);
  });
  it('an override without a decimal amount or a reason', () => {
    const errors = errorsOf({
      market: 'SK',
      stops,
      overrides: [{ countryCode: 'SK', departureTime: stops[0]!.time, overrideAmount: '1e3', overrideReason: ' ' }],
    });
    expect(Object.keys(errors).sort()).toEqual(['overrides[0].overrideAmount', 'overrides[0].overrideReason']);
  });
  it('not a request at all, or lists that are not arrays', () => {
    expect(errorsOf(null as never)).toHaveProperty('body');
    expect(Object.keys(errorsOf({ market: 'SK', stops, meals: {} as never, nights: 'x' as never })).sort()).toEqual([
      'meals',
      'nights',
    ]);
  });
  it('an override as a JSON number is read exactly; with three places it is refused', () => {
    const from = stops[0]!.time;
    const ok = calculatePerDiems({
      market: 'SK',
      stops,
      overrides: [{ countryCode: 'SK', departureTime: from, overrideAmount: 15.1, overrideReason: 'policy' }],
    });
    expect(ok.items[0]).toMatchObject({ overrideAmount: '15.10', excessAmount: '1.30' }); // 15.10 − 13.80
    expect(
      errorsOf({
        market: 'SK',
        stops,
        overrides: [{ countryCode: 'SK', departureTime: from, overrideAmount: 15.123, overrideReason: 'policy' }],
      }),
    ).toHaveProperty(['overrides[0].overrideAmount']);
  });
  it('a night lump sum outside PL', () => {
    expect(errorsOf({ market: 'SK', stops, nights: [{ date: '2026-02-02', lumpSum: true }] })).toHaveProperty([
      'nights[0]',
    ]);
  });
  it('a trip longer than a year', () => {
    expect(
      errorsOf({
        market: 'SK',
        stops: [stops[0]!, { time: '2027-03-02T06:00:00Z', countryCode: 'SK' }],
      }),
    ).toHaveProperty('stops');
  });
});
