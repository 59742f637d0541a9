// Issue 34 §2 through the gateway (docs/decisions/0188): where a per-diem rate is unknown the row says so
// (and names a figure the research only reports); a company sets its own per-country rate in its per-diem
// policy, and rows priced after it pay it, naming the policy, who set it and when. Expected figures from the
// research (packages/regulations/research): SI foreign "8–14 h 75 %", 2026 amounts UNVERIFIED (REGULATIONS.md,
// Slovenia); SK 401/2012 AL 33 € read in one source only (foreign/SK.md, Table 1), bands "6–12 h 50 %,
// >12 h 100 %" (REGULATIONS.md, Slovakia).
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const POLICY = '/api/v1/per-diem-policy';
const ENTRIES = '/api/v1/travel-entries';
const CALCULATE = '/api/v1/utilities/per-diems/calculate';
const fromItinerary = (id: string) => `${ENTRIES}/${id}/per-diems/from-itinerary`;

/** Home 05:00Z → abroad 07:00Z–21:00Z (14 h) → home, ending 22:00Z, on 2 Mar 2026. */
const dayTrip = (home: string, abroad: string) => [
  { time: '2026-03-02T05:00:00Z', countryCode: home },
  { time: '2026-03-02T07:00:00Z', countryCode: abroad },
  { time: '2026-03-02T21:00:00Z', countryCode: home },
  { time: '2026-03-02T22:00:00Z', countryCode: home },
];
const policyWith = (countryCode: string, amount: number, currencyCode = 'EUR') => ({
  versions: [{ effectiveFrom: '2026-01-01', domesticBands: [], foreignRates: [{ countryCode, amount, currencyCode }] }],
});
interface Row {
  countryCode: string;
  warnings: string[];
  reported: unknown[];
}
const row = (items: Row[], countryCode: string): Row => {
  const found = items.find((r) => r.countryCode === countryCode);
  if (!found) throw new Error(`no ${countryCode} row`);
  return found;
};

describe('company foreign rates (issue 34 §2)', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('company-foreign-rates');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('SI abroad in 2026: unknown until the company sets its rate; then paid, tax-free part unknown', async () => {
    const si = await stack.tenant('SI');
    const stops = dayTrip('SI', 'AT');
    const e = await si.api.post(ENTRIES, { departureDate: '2026-03-02', returnDate: '2026-03-02' });
    expect(e.status).toBe(201);

    const before = await si.api.post(fromItinerary(e.body.id), { stops });
    expect(before.status).toBe(200);
    expect(row(before.body.items, 'AT')).toMatchObject({
      amount: null,
      payableAmount: null,
      taxFreeAmount: null,
      rateBasis: null,
      reported: [],
      reason: expect.stringMatching(/SI foreign per-diem rate for AT on 2026-03-02/),
    });
    expect(before.body.complete).toBe(false);

    const put = await si.api.put(POLICY, policyWith('AT', 50));
    expect(put.status).toBe(200);
    const rate = put.body.versions[0].foreignRates[0];
    expect(rate).toEqual({
      countryCode: 'AT',
      amount: 50,
      currencyCode: 'EUR',
      confirmedBy: si.employeeId,
      confirmedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    // A GET body is a valid PUT body: echoed, nothing changes (who and when kept).
    const read = await si.api.get(POLICY);
    const again = await si.api.put(POLICY, read.body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(put.body);

    // 14 h → 8–14 h: 75 % of the company's 50 € = 37.50 €; its tax-free part is unknown.
    const after = await si.api.post(fromItinerary(e.body.id), { stops });
    expect(after.status).toBe(200);
    const at = row(after.body.items, 'AT');
    expect(at).toMatchObject({
      band: '>8-14h',
      amount: 37.5,
      currencyCode: 'EUR',
      payableAmount: 37.5,
      amountInBaseCurrency: 37.5,
      taxFreeAmount: null,
      excessAmount: null,
      taxTreatment: 'Unknown',
      rateBasis: 'CompanyRate',
      policyEffectiveFrom: '2026-01-01',
      source: {
        act: 'Company per-diem policy from 2026-01-01',
        provision: null,
        reportedBy: `confirmed by ${si.employeeId} on ${rate.confirmedAt}`,
      },
    });
    expect(at.warnings.join(' ')).toMatch(/tax-free part is unknown/);
    expect(after.body.complete).toBe(true);

    // The rows as from-itinerary returns them, sent on a create, price the same and are stored so.
    const created = await si.api.post(ENTRIES, {
      departureDate: '2026-03-02',
      returnDate: '2026-03-02',
      perDiems: after.body.items,
    });
    expect(created.status).toBe(201);
    expect(row(created.body.perDiems, 'AT')).toMatchObject({
      amount: 37.5,
      taxFreeAmount: null,
      taxTreatment: 'Unknown',
      rateBasis: 'CompanyRate',
    });
    const stored = await si.api.get(`${ENTRIES}/${created.body.id}`);
    expect(row(stored.body.perDiems, 'AT')).toMatchObject({ taxFreeAmount: null, rateBasis: 'CompanyRate' });

    // The calculator prices with the same policy.
    const calc = await si.api.post(CALCULATE, { stops });
    expect(calc.status).toBe(200);
    expect(row(calc.body.items, 'AT')).toMatchObject({
      amount: 37.5,
      amountInBaseCurrency: 37.5,
      rateBasis: 'CompanyRate',
      reported: [],
    });
    expect(calc.body.complete).toBe(true);
  });

  it('SK to Albania: the reported 33 € is named, refused below it, and once confirmed priced tax-free', async () => {
    const sk = await stack.tenant('SK');
    const stops = dayTrip('SK', 'AL');
    const calc = await sk.api.post(CALCULATE, { stops });
    expect(calc.status).toBe(200);
    const unknown = row(calc.body.items, 'AL');
    expect(unknown).toMatchObject({ amount: null, rateBasis: null });
    expect(unknown.reported).toEqual([
      expect.objectContaining({ amount: 33, currencyCode: 'EUR', source: expect.stringMatching(/401\/2012/) }),
    ]);

    const low = await sk.api.put(POLICY, policyWith('AL', 32));
    expect(low.status).toBe(400);
    expect(low.body.code).toBe('VALIDATION_FAILED');
    expect(low.body.errors).toEqual({
      'versions[0].foreignRates[0].amount': [expect.stringMatching(/^below the figure reported for AL: 33 EUR/)],
    });
    const usd = await sk.api.put(POLICY, policyWith('AL', 40, 'USD'));
    expect(usd.status).toBe(400);
    expect(usd.body.errors).toHaveProperty(['versions[0].foreignRates[0].currencyCode']);
    const statutory = await sk.api.put(POLICY, policyWith('AT', 50));
    expect(statutory.status).toBe(400);
    expect(statutory.body.errors['versions[0].foreignRates[0].countryCode']).toEqual([
      expect.stringMatching(/^the statutory rate is known: 45 EUR/),
    ]);

    expect((await sk.api.put(POLICY, policyWith('AL', 33))).status).toBe(200);
    const e = await sk.api.post(ENTRIES, { departureDate: '2026-03-02', returnDate: '2026-03-02' });
    const priced = await sk.api.post(fromItinerary(e.body.id), { stops });
    expect(priced.status).toBe(200);
    // 14 h abroad → >12 h: 100 % of 33 € (the confirmed figure), tax-free as the statutory minimum is.
    expect(row(priced.body.items, 'AL')).toMatchObject({
      amount: 33,
      payableAmount: 33,
      taxFreeAmount: 33,
      excessAmount: 0,
      amountInBaseCurrency: 33,
      taxTreatment: 'StatutoryMinimum',
      rateBasis: 'CompanyConfirmedReported',
      policyEffectiveFrom: '2026-01-01',
      source: { act: 'Company per-diem policy from 2026-01-01', reportedBy: expect.stringContaining(sk.employeeId) },
      reported: [expect.objectContaining({ amount: 33, currencyCode: 'EUR' })],
    });
  });
});
