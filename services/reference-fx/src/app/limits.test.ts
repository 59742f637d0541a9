import { refusal } from '@travel/testkit/src/doubles';
import { contractAt } from '@travel/contracts';
import { decimal, MAX_EXCHANGE_RATE } from '@travel/money';
import { MAX_ALLOW_LIST_CODES, normalizeList } from '../domain/allow-lists';
import { SLOVENIAN_MUNICIPALITIES } from '@travel/places';
import { pageOf } from '../domain/municipalities';
import { FxRatesApp } from './fx-rates';
import type { FxStore } from '../infra/fx-store';

// Issue 20 §2 in reference-fx: a manual rate and an allow list keep the contract's ranges in the code,
// whichever path brought them (docs/decisions/0107).

const store = new Proxy({} as FxStore, {
  get: (_t, key) => {
    throw new Error(`store.${String(key)} was read before the refusal`);
  },
});

describe('FxRatesApp.convert refuses a manual rate outside (0, 1,000,000]', () => {
  it.each([
    ['0', 'must be > 0'],
    ['-25.3', 'must be > 0'],
    ['1000000.5', 'must be <= 1000000'],
  ])('manualRate %s', async (rate, message) => {
    const err = await refusal(() =>
      new FxRatesApp(store).convert({
        market: 'CZ',
        amount: decimal('100'),
        currency: 'EUR',
        date: '2026-11-02',
        manualRate: decimal(rate),
      }),
    );
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.errors).toEqual({ manualRate: [message] });
  });

  it('the maximum is the contract’s', () => {
    expect(contractAt('/components/schemas/ExpenseWrite/properties/manualExchangeRate/maximum')).toBe(
      MAX_EXCHANGE_RATE,
    );
  });
});

describe('an allow list holds at most 300 codes', () => {
  it('301 codes are 400 under currencyCodes', async () => {
    const err = await refusal(() => normalizeList('currencies', new Array(301).fill('EUR')));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.errors).toEqual({ currencyCodes: ['must NOT have more than 300 items'] });
  });

  it('the figure is the contract’s, for both lists', () => {
    for (const schema of ['CountryAllowListWrite', 'CurrencyAllowListWrite']) {
      const key = schema.startsWith('Country') ? 'countryCodes' : 'currencyCodes';
      expect(contractAt(`/components/schemas/${schema}/properties/${key}/maxItems`)).toBe(MAX_ALLOW_LIST_CODES);
    }
  });
});

it('a municipality page of 1000 rows is refused in the domain (the contract says at most 100)', async () => {
  const err = await refusal(() => pageOf(SLOVENIAN_MUNICIPALITIES, undefined, { page: 1, pageSize: 1000 }));
  expect(err.errors).toEqual({ pageSize: ['must be <= 100'] });
});
