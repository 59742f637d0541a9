// The per-diem FX date of an entry's rows (SPEC: for CZ tenants the entry's advancePaymentDate; decision
// 0056 for the others: the trip's start date, as the calculator) and the manual-rate rule's outcomes.
import { AppError, type CallerContext } from '@travel/platform';
import { testCaller } from '@travel/testkit/src/doubles';
import { NO_POLICY } from '@travel/contracts';
import { PerDiemPricer, type PricedRows } from './per-diem-pricer';
import type { CurrencyConverter } from './ports';

const caller = (market: CallerContext['market'], baseCurrency: string) => testCaller({ market, baseCurrency });
const employees = {
  perDiemProfileOf: async () => ({ residency: 'Resident' as const, mobileRoadTransportWorker: false }),
};
/** The company has no per-diem policy: statutory amounts. */
const noPolicy = { policyOf: async () => NO_POLICY };

function recordingFx(answer?: AppError) {
  const asked: { currency: string; date: string; amount: string; manualRate: string | null }[] = [];
  const fx: CurrencyConverter = {
    convert: async (input) => {
      asked.push({ currency: input.currency, date: input.date, amount: input.amount, manualRate: input.manualRate });
      if (answer) throw answer;
      return { baseAmount: '100.00', source: 'ECB' };
    },
  };
  return { fx, asked };
}

// SK tenant: Bratislava 06:00 → Czech border 08:00, back 21:00, home 23:00 (2 Mar 2026): CZ > 12 h → 600 CZK.
const SK_TO_CZ = [
  { time: '2026-03-02T05:00:00Z', countryCode: 'SK' },
  { time: '2026-03-02T07:00:00Z', countryCode: 'CZ' },
  { time: '2026-03-02T20:00:00Z', countryCode: 'SK' },
  { time: '2026-03-02T22:00:00Z', countryCode: 'SK' },
];

describe('PerDiemPricer', () => {
  it('SK: converts the foreign row on the trip start date, whatever the advance date', async () => {
    const { fx, asked } = recordingFx();
    const priced = await new PerDiemPricer(fx, employees, noPolicy).fromItinerary(
      caller('SK', 'EUR'),
      { employeeId: 'e1', advancePaymentDate: '2026-02-20' },
      { stops: SK_TO_CZ },
    );
    expect(priced.errors).toEqual({});
    expect(asked).toEqual([{ currency: 'CZK', date: '2026-03-02', amount: '600.00', manualRate: null }]);
    const cz = priced.rows.find((r) => r.countryCode === 'CZ')!;
    expect(cz).toMatchObject({ amountInBaseCurrency: '100.00', exchangeRateSource: 'ECB', fxDate: '2026-03-02' });
  });

  it('SK: a mobile road-transport worker (the employee record says so) gets the 9/2026 rate: CZ 13 h → 1,200 CZK', async () => {
    const { fx, asked } = recordingFx();
    const drivers = {
      perDiemProfileOf: async () => ({ residency: 'Resident' as const, mobileRoadTransportWorker: true }),
    };
    const priced = await new PerDiemPricer(fx, drivers, noPolicy).fromItinerary(
      caller('SK', 'EUR'),
      { employeeId: 'e1', advancePaymentDate: '2026-03-02' },
      { stops: SK_TO_CZ },
    );
    expect(priced.rows.find((r) => r.countryCode === 'CZ')).toMatchObject({ amount: '1200.00', currencyCode: 'CZK' });
    expect(asked).toEqual([{ currency: 'CZK', date: '2026-03-02', amount: '1200.00', manualRate: null }]);
  });

  it('CZ domestic-unit upgrade (decision 0126): from-itinerary and the rows it returns, sent back, price alike', async () => {
    // 2 Mar 07:00 Prague depart; Germany 09:00 → 3 Mar 00:30; home 05:15. 3 Mar: 30 min abroad (under 1 h)
    // joins the 4 h 45 min at home: 5.25 h → 155 Kč (decision 0123). 2 Mar: 2 h home 0 Kč, DE 15 h 33.33 €.
    const pricer = new PerDiemPricer(recordingFx().fx, employees, noPolicy);
    const entry = { employeeId: 'e1', advancePaymentDate: '2026-03-02' };
    const built = await pricer.fromItinerary(caller('CZ', 'CZK'), entry, {
      stops: [
        { time: '2026-03-02T06:00:00Z', countryCode: 'CZ' },
        { time: '2026-03-02T08:00:00Z', countryCode: 'DE' },
        { time: '2026-03-02T23:30:00Z', countryCode: 'CZ' },
        { time: '2026-03-03T04:15:00Z', countryCode: 'CZ' },
      ],
    });
    const summary = (rows: PricedRows['rows']) => rows.map((r) => [r.countryCode, r.hours, r.band, r.amount]);
    expect(summary(built.rows)).toEqual([
      ['CZ', 2, null, '0.00'],
      ['DE', 15, '>12-18h', '33.33'],
      ['CZ', 5.25, '5-12h', '155.00'],
    ]);
    const again = await pricer.fromRows(
      caller('CZ', 'CZK'),
      entry,
      built.rows.map((r) => ({
        countryCode: r.countryCode,
        departureTime: r.departureTime,
        arrivalTime: r.arrivalTime,
      })),
    );
    expect(again.errors).toEqual({});
    expect(summary(again.rows)).toEqual(summary(built.rows));
  });

  it("CZ: the per-diem FX date is the entry's advancePaymentDate (an override is in the row's currency)", async () => {
    const { fx, asked } = recordingFx();
    const pricer = new PerDiemPricer(fx, employees, noPolicy);
    const rows = await pricer.fromRows(caller('CZ', 'CZK'), { employeeId: 'e1', advancePaymentDate: '2026-02-27' }, [
      { countryCode: 'CZ', departureTime: '2026-03-02T05:00:00Z', arrivalTime: '2026-03-02T19:00:00Z' },
      {
        countryCode: 'AT',
        departureTime: '2026-03-02T09:00:00Z',
        arrivalTime: '2026-03-02T18:00:00Z',
        overrideAmount: 20,
        overrideReason: 'Company rate',
      },
    ]);
    expect(rows.errors).toEqual({});
    // Home 5 h → 155 Kč (CZK, nothing to convert). Austria 9 h → ⅓ × 45 € = 15.00 € (vyhl. 489/2025 Sb.),
    // paid as the override of 20 € and converted on the advancePaymentDate, not the trip date.
    expect(rows.rows.map((r) => [r.amount, r.currencyCode, r.payableAmount])).toEqual([
      ['155.00', 'CZK', '155.00'],
      ['15.00', 'EUR', '20.00'],
    ]);
    expect(asked).toEqual([{ currency: 'EUR', date: '2026-02-27', amount: '20.00', manualRate: null }]);
    expect(rows.rows.map((r) => r.amountInBaseCurrency)).toEqual(['155.00', '100.00']);
  });

  it('no rate and no manual rate: stored unknown with a reason; a refused manual rate is EXCHANGE_RATE_UNAVAILABLE', async () => {
    const unavailable = new AppError('EXCHANGE_RATE_UNAVAILABLE', 'no rate', { currency: ['no rate'] });
    const context = { employeeId: 'e1', advancePaymentDate: '2026-03-02' };
    const unknown = await new PerDiemPricer(recordingFx(unavailable).fx, employees, noPolicy).fromItinerary(
      caller('SK', 'EUR'),
      context,
      { stops: SK_TO_CZ },
    );
    expect(unknown.errors).toEqual({});
    expect(unknown.rows.find((r) => r.countryCode === 'CZ')).toMatchObject({
      amountInBaseCurrency: null,
      reason: expect.stringContaining('manualExchangeRate'),
    });
    const refused = new AppError('EXCHANGE_RATE_UNAVAILABLE', 'official rate exists', {
      manualRate: ['official rate exists'],
    });
    const rows = unknown.rows.map((r, i) => ({
      countryCode: r.countryCode,
      departureTime: r.departureTime,
      arrivalTime: r.arrivalTime,
      ...(i === 1 ? { manualExchangeRate: 25.1 } : {}),
    }));
    const manual = await new PerDiemPricer(recordingFx(refused).fx, employees, noPolicy).fromRows(
      caller('SK', 'EUR'),
      context,
      rows,
    );
    expect(manual.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
    expect(manual.errors).toHaveProperty(['perDiems[1].manualExchangeRate']);
  });

  it("the engine's limits come back keyed by the nested row's field", async () => {
    // HR: a 24-hour block touches two days; three lunches are more than a row can have (two).
    const priced = await new PerDiemPricer(recordingFx().fx, employees, noPolicy).fromRows(
      caller('HR', 'EUR'),
      { employeeId: 'e1', advancePaymentDate: '2026-11-02' },
      [
        {
          countryCode: 'HR',
          departureTime: '2026-11-02T06:00:00Z',
          arrivalTime: '2026-11-03T06:00:00Z',
          mealsProvidedAllocation: [
            { date: '2026-11-02', lunchesProvided: 2 },
            { date: '2026-11-03', lunchesProvided: 1 },
          ],
        },
      ],
    );
    expect(Object.keys(priced.errors)).toEqual(['perDiems[0].lunchesProvided']);
  });

  it('a short night keeps its own amount under an override (HR: 30 € statutory, 40 € paid, 10 € excess)', async () => {
    const priced = await new PerDiemPricer(recordingFx().fx, employees, noPolicy).fromRows(
      caller('HR', 'EUR'),
      { employeeId: 'e1', advancePaymentDate: '2026-11-02' },
      [
        {
          countryCode: 'HR',
          departureTime: '2026-11-02T05:00:00Z',
          arrivalTime: '2026-11-02T21:00:00Z',
          overrideAmount: 40,
          overrideReason: 'Collective agreement',
          nightAllocation: { date: '2026-11-02', hours: 1 },
        },
      ],
    );
    expect(priced.errors).toEqual({});
    expect(priced.rows[0]).toMatchObject({
      amount: '30.00',
      overrideAmount: '40.00',
      excessAmount: '10.00',
      payableAmount: '40.00',
      nightAllocation: { date: '2026-11-02', hours: '1.00' },
      nightAllocationAmount: '0.00',
      amountInBaseCurrency: '40.00',
    });
  });
});
