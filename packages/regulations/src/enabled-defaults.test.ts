import { COUNTRY_CODES } from './countries';
import { defaultEnabled } from './enabled-defaults';
import { MARKETS } from './types';

// The defaults of decision 0027, the one list since 0174 (reference-fx's allow-lists, employees' profile).
describe('defaultEnabled', () => {
  it.each(MARKETS)('%s: the five markets, AT DE IT HU FR GB US CH, and EUR CZK PLN HUF USD GBP CHF', (m) => {
    expect(defaultEnabled('countries', m)).toEqual(
      expect.arrayContaining(['HR', 'SI', 'SK', 'CZ', 'PL', 'AT', 'DE', 'IT', 'HU', 'FR', 'GB', 'US', 'CH']),
    );
    expect(defaultEnabled('currencies', m)).toEqual(
      expect.arrayContaining(['EUR', 'CZK', 'PLN', 'HUF', 'USD', 'GBP', 'CHF']),
    );
    for (const code of defaultEnabled('countries', m)) expect(COUNTRY_CODES).toContain(code);
  });

  it.each([
    ['HR', ['BA', 'ME', 'RS'], ['BAM', 'RSD']],
    ['SI', [], []],
    ['SK', ['UA'], ['UAH']],
    ['CZ', [], []],
    ['PL', ['LT', 'UA'], ['UAH']],
  ] as const)('%s adds %j and %j', (market, countries, currencies) => {
    expect(defaultEnabled('countries', market)).toHaveLength(13 + countries.length);
    expect(defaultEnabled('countries', market)).toEqual(expect.arrayContaining([...countries]));
    expect(defaultEnabled('currencies', market)).toHaveLength(7 + currencies.length);
    expect(defaultEnabled('currencies', market)).toEqual(expect.arrayContaining([...currencies]));
  });

  it('is sorted, each code once', () => {
    const hr = defaultEnabled('countries', 'HR');
    expect(hr).toEqual([...new Set(hr)].sort());
  });
});
