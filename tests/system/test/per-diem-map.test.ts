// The whole map through the gateway (issue 34, "Done when"): trips from each market to the countries the
// issue names price to the research's figures, with the act named on the row. Every expected figure is
// read from ../shared/research (REGULATIONS.md "Third pass" and foreign/<market>.md), cited beside it, never
// from the tables in code. All trips lie inside one local calendar day (CET, UTC+1 in November) so that
// each market's band rule gives the full rate: more than 18 h (CZ), more than 12 h (HR, PL, SK).
import type { Market } from '@travel/platform';
import { startPerDiemStack, type PerDiemStack } from './support/per-diem-stack';

const CALCULATE = '/api/v1/utilities/per-diems/calculate';

interface Row {
  countryCode: string;
  amount: number | null;
  currencyCode: string | null;
  band: string | null;
  hours: number;
  reason: string | null;
  source: { act: string; provision: string | null; reportedBy?: string } | null;
  reported?: { amount: number | string; currencyCode: string; source: string }[];
}

/**
 * Home 00:00 local → `country` from 00:15 to 23:45 local (23.5 h abroad) → home 23:59, on `day` (a
 * November date, CET): the home parts are under any market's first band.
 */
const dayAbroad = (market: Market, country: string, day: string) => {
  const prev = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return [
    { time: `${prev}T23:00:00Z`, countryCode: market },
    { time: `${prev}T23:15:00Z`, countryCode: country },
    { time: `${day}T22:45:00Z`, countryCode: market },
    { time: `${day}T22:59:00Z`, countryCode: market },
  ];
};

describe('the whole map: per-diems of every market priced to the research through the gateway (issue 34)', () => {
  let stack: PerDiemStack;

  beforeAll(async () => {
    stack = await startPerDiemStack('per-diem-map');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function rowAbroad(market: Market, country: string, day: string): Promise<Row> {
    const t = await stack.tenant(market);
    const res = await t.api.post(CALCULATE, { stops: dayAbroad(market, country, day), employeeId: t.employeeId });
    expect(res.status).toBe(200);
    const row = (res.body.items as Row[]).find((r) => r.countryCode === country);
    expect(row).toBeDefined();
    expect(row!.hours).toBe(23.5);
    return row!;
  }

  it.each([
    // foreign/PL.md, annex from 2022-11-29 (Dz.U. 2022 poz. 2302): Czechy EUR 41 / 120, Włochy EUR 53 / 192,
    // Wielka Brytania GBP 45 / 220 (A and B agree). A day abroad over 12 h: 100 % of the dieta.
    ['PL', 'CZ', 41, 'EUR', /2302|2190/],
    ['PL', 'IT', 53, 'EUR', /2302|2190/],
    ['PL', 'GB', 45, 'GBP', /2302|2190/],
    // foreign/CZ.md, vyhl. 489/2025 Sb. (2026): Slovinsko EUR 40, Japonsko USD 65, and Palestine, which has
    // no row, falls to "Ostatní země neuvedené v příloze" EUR 35. Over 18 h in a calendar day: the full rate.
    ['CZ', 'SI', 40, 'EUR', /489\/2025/],
    ['CZ', 'JP', 65, 'USD', /489\/2025/],
    ['CZ', 'PS', 35, 'EUR', /489\/2025/],
    // foreign/CZ.md: Kosovo has its own row, EUR 50 in 2026 (45 in 2025).
    ['CZ', 'XK', 50, 'EUR', /489\/2025/],
    // foreign/SK.md, opatrenie MF SR 401/2012 Z. z.: Srbsko EUR 43 (four sources agree). Over 12 h: 100 %.
    ['SK', 'RS', 43, 'EUR', /401\/2012/],
    // foreign/HR.md, Odluka NN 16/24 (from 2024-02-08), rrif.hr: Republika Bugarska EUR 70. Over 12 h: 100 %.
    ['HR', 'BG', 70, 'EUR', /16\/(20)?24/],
  ] as const)('%s → %s prices %d %s with the act named', async (market, country, amount, currency, act) => {
    const row = await rowAbroad(market, country, '2026-11-04');
    expect(row).toMatchObject({ amount, currencyCode: currency, reason: null });
    expect(row.source?.act).toMatch(act);
  });

  it.each([
    // REGULATIONS.md third pass, SI domestic correction: UL RS 162/2022 raised the dnevnica from 2023-01-01 to
    // 27.81 € (over 12 to 24 h); 21.39 € (UL RS 76/2008) holds through 2022-12-31.
    ['2024-03-05', 27.81, /162\/(20)?22/],
    ['2022-03-08', 21.39, /76\/(20)?08/],
  ] as const)('SI domestic 16 hours on %s pays %d €', async (day, amount, act) => {
    const si = await stack.tenant('SI');
    const res = await si.api.post(CALCULATE, {
      stops: [
        { time: `${day}T05:00:00Z`, countryCode: 'SI' },
        { time: `${day}T21:00:00Z`, countryCode: 'SI' },
      ],
      employeeId: si.employeeId,
    });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toMatchObject({ countryCode: 'SI', hours: 16, amount, currencyCode: 'EUR' });
    expect(res.body.items[0].source.act).toMatch(act);
    expect(res.body).toMatchObject({ total: amount, complete: true });
  });

  it('a row the research only reports is unknown, and names the reported figure and its source', async () => {
    // foreign/SK.md: Japan JPY 6500 is read in one source only (S1): reported, never an amount.
    const row = await rowAbroad('SK', 'JP', '2026-11-04');
    expect(row).toMatchObject({ amount: null, reason: expect.any(String) });
    expect(row.reported).toEqual([
      expect.objectContaining({ currencyCode: 'JPY', source: expect.stringContaining('401/2012') }),
    ]);
    expect(Number(row.reported![0].amount)).toBe(6500);
  });

  it('an HR row that the research could not read is unknown, never the 50 USD of unlisted countries', async () => {
    // foreign/HR.md: every NN 16/24 row after "Republika Island" is unread; Germany is one of them.
    const row = await rowAbroad('HR', 'DE', '2026-11-04');
    expect(row).toMatchObject({ amount: null, currencyCode: null });
    expect(row.reason).toMatch(/not read|unread/i);
  });
});
