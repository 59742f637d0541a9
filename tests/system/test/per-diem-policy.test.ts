// The company per-diem policy through the gateway (issue 22 §2; docs/decisions/0127-0129): read by every
// key of the company, written with ManageCompanyData, checked against the statutory figures, and applied
// to per-diem rows priced after it; a change never re-prices an entry already submitted. Expected
// figures are computed by hand from ../shared/research/REGULATIONS.md (CZ 2026: vyhl. 573/2025 Sb.).
import { allBut, limitedCaller } from '@travel/employees/test/support/org-fixtures';
import { DOMAIN_EXCHANGE } from '@travel/platform';
import { eventually } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const POLICY = '/api/v1/per-diem-policy';
const ENTRIES = '/api/v1/travel-entries';

/** A 14-hour CZ domestic day, 06:00–20:00 Prague (05:00Z–19:00Z), 2 Nov 2026: band >12-18 h, 236 Kč. */
const czDay = { countryCode: 'CZ', departureTime: '2026-11-02T05:00:00Z', arrivalTime: '2026-11-02T19:00:00Z' };

const version = (
  effectiveFrom: string,
  bands: Record<string, number>,
  foreignBaseRatePercent: number | null = null,
) => ({
  effectiveFrom,
  domesticBands: Object.entries(bands).map(([band, amount]) => ({ band, amount })),
  foreignBaseRatePercent,
});

describe('company per-diem policy', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('per-diem-policy');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('everyone reads it; only ManageCompanyData writes it; a GET body is a valid PUT body (no-op, no event)', async () => {
    const owner = await stack.tenant('CZ');
    const limited = await limitedCaller(owner.api, allBut('ManageCompanyData'));
    const empty = await limited.api.get(POLICY);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ sector: 'Private', versions: [], editedAt: null });
    const refused = await limited.api.put(POLICY, { versions: [version('2026-01-01', { '>12-18h': 300 })] });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');

    const ch = await stack.referenceFx.deps.amqp.channel();
    const queue = `per-diem-policy-tap-${owner.tenantId}`;
    await ch.assertQueue(queue, { durable: false, autoDelete: false });
    await ch.bindQueue(queue, DOMAIN_EXCHANGE, 'reference-fx.per-diem-policy.updated');
    const next = () =>
      eventually(async () => {
        const message = await ch.get(queue, { noAck: true });
        if (!message) return undefined;
        const body = JSON.parse(message.content.toString('utf8'));
        return body.tenantId === owner.tenantId ? body : undefined;
      }, 10_000);
    try {
      const put = await owner.api.put(POLICY, { versions: [version('2026-01-01', { '>12-18h': 300 }, 75)] });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        sector: 'Private',
        versions: [
          {
            effectiveFrom: '2026-01-01',
            domesticBands: [{ band: '>12-18h', amount: 300 }],
            foreignBaseRatePercent: 75,
            foreignRates: [],
          },
        ],
        editedAt: expect.any(String),
      });
      expect(await next()).toMatchObject({
        type: 'per-diem-policy.updated',
        data: {
          sector: 'Private',
          versions: [
            {
              effectiveFrom: '2026-01-01',
              domesticBands: [{ band: '>12-18h', amount: '300.00' }],
              foreignBaseRatePercent: '75.00',
            },
          ],
        },
      });
      const read = await limited.api.get(POLICY);
      expect(read.body).toEqual(put.body);
      const again = await owner.api.put(POLICY, read.body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(put.body); // same editedAt: nothing changed
      await owner.api.put(POLICY, { versions: [version('2026-01-01', { '>12-18h': 310 })] });
      expect((await next()).data.versions[0].domesticBands[0].amount).toBe('310.00'); // the no-op raised nothing
    } finally {
      await ch.deleteQueue(queue).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
  });

  it('refuses amounts below the statutory floor and a CZ foreign base rate under 75 %, keyed by field', async () => {
    const cz = (await stack.tenant('CZ')).api;
    const low = await cz.put(POLICY, { versions: [version('2026-01-01', { '5-12h': 150 }, 74)] });
    expect(low.status).toBe(400);
    expect(low.body.code).toBe('VALIDATION_FAILED');
    expect(low.body.errors).toEqual({
      'versions[0].domesticBands[0].amount': [
        expect.stringMatching(/^below the statutory minimum: the statutory 5-12h amount of 155 CZK/),
      ],
      'versions[0].foreignBaseRatePercent': [expect.stringMatching(/^below the statutory minimum: .*at least 75 %/)],
    });
    expect((await cz.get(POLICY)).body.versions).toEqual([]);
    // SK: 13.80 € for 12–18 h is the floor; HR: 30 € is a tax-free cap, not a floor.
    const sk = (await stack.tenant('SK')).api;
    expect((await sk.put(POLICY, { versions: [version('2026-01-01', { '>12-18h': 13.79 })] })).status).toBe(400);
    const hr = (await stack.tenant('HR')).api;
    expect((await hr.put(POLICY, { versions: [version('2026-01-01', { '>12h': 25 })] })).status).toBe(200);
    expect((await hr.put(POLICY, { versions: [version('2026-01-01', {}, 80)] })).body.errors).toHaveProperty([
      'versions[0].foreignBaseRatePercent',
    ]);
  });

  it('rows priced after a change use it; a submitted entry keeps its amounts (tax-free part and excess apart)', async () => {
    const { api } = await stack.tenant('CZ');
    expect((await api.put(POLICY, { versions: [version('2026-01-01', { '>12-18h': 300 })] })).status).toBe(200);
    const created = await api.post(ENTRIES, {
      departureDate: '2026-11-02',
      returnDate: '2026-11-02',
      perDiems: [czDay],
    });
    expect(created.status).toBe(201);
    // 14 h → >12–18 h: statutory 236 Kč (tax-free), the policy pays 300 Kč: 64 Kč taxable excess.
    const paid = {
      amount: 236,
      taxFreeAmount: 236,
      excessAmount: 64,
      payableAmount: 300,
      amountInBaseCurrency: 300,
      policyEffectiveFrom: '2026-01-01',
    };
    expect(created.body.perDiems[0]).toMatchObject(paid);
    const submitted = await api.post(`${ENTRIES}/${created.body.id}/submit`, {});
    expect(submitted.status).toBe(200);
    expect(submitted.body.status).toBe(3); // no workflow: approved at once

    // A new version from 1 Nov 2026 pays 400 Kč.
    const change = await api.put(POLICY, {
      versions: [version('2026-01-01', { '>12-18h': 300 }), version('2026-11-01', { '>12-18h': 400 })],
    });
    expect(change.status).toBe(200);
    const kept = await api.get(`${ENTRIES}/${created.body.id}`);
    expect(kept.body.perDiems[0]).toMatchObject(paid);
    expect(kept.body.perDiemTotal).toBe(300);

    const later = await api.post(ENTRIES, { departureDate: '2026-11-02', returnDate: '2026-11-02', perDiems: [czDay] });
    expect(later.status).toBe(201);
    expect(later.body.perDiems[0]).toMatchObject({
      amount: 236,
      taxFreeAmount: 236,
      excessAmount: 164,
      payableAmount: 400,
      amountInBaseCurrency: 400,
      policyEffectiveFrom: '2026-11-01',
    });
  });

  it('CZ abroad at a base rate of 75 % agreed before the trip: Austria ⅓ × 75 % × 45 €, all of it tax-free', async () => {
    const { api } = await stack.tenant('CZ');
    expect((await api.put(POLICY, { versions: [version('2026-01-01', {}, 75)] })).status).toBe(200);
    const e = await api.post(ENTRIES, {
      departureDate: '2026-11-02',
      returnDate: '2026-11-02',
      advancePaymentDate: '2026-11-02',
    });
    expect(e.status).toBe(201);
    // Prague 06:00 → Austria 10:00–19:00 → home 20:00 (2 Nov 2026). Home 5 h → 155 Kč (vyhl. 573/2025 Sb.).
    // Austria 9 h (1–12 h, §170(1)): the decree's 45 € (vyhl. 489/2025 Sb.) lowered to 75 % (§170(2)) is
    // 33.75 €, a third of it 11.25 €, less than the statutory 15.00 €, so all of it is tax-free;
    // CNB 2 Nov 2026 EUR 24.240 → 272.70 Kč. Total 155 + 272.70 = 427.70 Kč.
    const res = await api.post(`${ENTRIES}/${e.body.id}/per-diems/from-itinerary`, {
      stops: [
        { time: '2026-11-02T05:00:00Z', countryCode: 'CZ' },
        { time: '2026-11-02T09:00:00Z', countryCode: 'AT' },
        { time: '2026-11-02T18:00:00Z', countryCode: 'CZ' },
        { time: '2026-11-02T19:00:00Z', countryCode: 'CZ' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.items[1]).toMatchObject({
      countryCode: 'AT',
      amount: 15,
      payableAmount: 11.25,
      taxFreeAmount: 11.25,
      // 0, not null: a company amount applies, and none of it is taxable (null: the statutory amount is paid).
      excessAmount: 0,
      currencyCode: 'EUR',
      amountInBaseCurrency: 272.7,
      policyEffectiveFrom: '2026-01-01',
    });
    expect(res.body).toMatchObject({ total: 427.7, complete: true });
  });
});
