// Conditional GETs of reference-fx through the gateway (issue 25; docs/decisions/0155, 0159): exchange
// rates, the municipality lists, the statutory per-diem rates, the allow-lists and the per-diem policy
// answer with an ETag and 304 while nothing changed; a company's allow-list and policy answer 200 with
// the new body after a write and never a stale 304 under racing writes.
import { startEntriesStack, type EntriesStack } from './support/entries-stack';
import {
  expectChangedAfter,
  expectNoStaleNotModified,
  expectNotModifiedWhileUnchanged,
  RACING_READERS_ENV,
} from './support/conditional-checks';

/** Countries to enable, none of them a test market's own. */
const POOL = ['AT', 'DE', 'IT', 'FR', 'ES', 'PT', 'NL', 'BE', 'DK', 'SE', 'FI', 'IE', 'LU', 'GR', 'RO', 'BG'];

describe('reference data: conditional reads', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('reference-conditional', RACING_READERS_ENV);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers every reference read with an ETag and 304 while nothing changed', async () => {
    const { api } = await stack.tenant('HR');
    for (const path of [
      '/api/v1/reference/exchange-rates?date=2026-11-20',
      '/api/v1/reference/croatian-municipalities?pageSize=5',
      '/api/v1/reference/slovenian-municipalities?q=Ljubljana',
      '/api/v1/reference/per-diem-rates?date=2026-11-20',
      '/api/v1/reference/countries',
      '/api/v1/reference/currencies',
      '/api/v1/per-diem-policy',
    ])
      await expectNotModifiedWhileUnchanged(api, path);
  });

  it('answers 200 with the new body after the allow-lists and the policy are written', async () => {
    const { api } = await stack.tenant('CZ');
    const countries = await expectChangedAfter(api, '/api/v1/reference/countries', async () =>
      expect((await api.put('/api/v1/reference/countries', { countryCodes: ['AT', 'DE'] })).status).toBe(200),
    );
    expect(countries).toMatchObject({ countryCodes: ['AT', 'DE'], isDefault: false });
    const currencies = await expectChangedAfter(api, '/api/v1/reference/currencies', async () =>
      expect((await api.put('/api/v1/reference/currencies', { currencyCodes: ['USD', 'EUR'] })).status).toBe(200),
    );
    expect(currencies.currencyCodes).toEqual(['EUR', 'USD']);
    const version = {
      effectiveFrom: '2026-01-01',
      domesticBands: [{ band: '>12-18h', amount: 300 }],
      foreignBaseRatePercent: null,
    };
    const policy = await expectChangedAfter(api, '/api/v1/per-diem-policy', async () => {
      const res = await api.put('/api/v1/per-diem-policy', { versions: [version] });
      expect(res.status === 200 ? '' : res.text).toBe('');
    });
    expect(policy.versions).toHaveLength(1);
  });

  it('never answers 304 for an allow-list older than a write finished before the read began', async () => {
    const { api } = await stack.tenant('SK');
    await expectNoStaleNotModified(
      api,
      ['/api/v1/reference/countries'],
      async (k) => {
        const res = await api.put('/api/v1/reference/countries', { countryCodes: POOL.slice(0, k + 1) });
        expect(res.status).toBe(200);
      },
      (body) => (body.isDefault ? 0 : body.countryCodes.filter((c: string) => POOL.includes(c)).length - 1),
      14,
    );
  });
});
