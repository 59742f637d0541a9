import { AppError } from '@travel/platform';
import { defaultList, normalizeList } from './allow-lists';

describe('allow-lists', () => {
  it.each(['HR', 'SI', 'SK', 'CZ', 'PL'] as const)('%s defaults hold the five markets and their currencies', (m) => {
    expect(defaultList('countries', m)).toEqual(expect.arrayContaining(['HR', 'SI', 'SK', 'CZ', 'PL']));
    expect(defaultList('currencies', m)).toEqual(expect.arrayContaining(['EUR', 'CZK', 'PLN']));
  });
  it('HR adds its neighbours outside the EU', () => {
    expect(defaultList('countries', 'HR')).toEqual(expect.arrayContaining(['BA', 'RS', 'ME']));
    expect(defaultList('currencies', 'HR')).toEqual(expect.arrayContaining(['BAM', 'RSD']));
  });
  it('stores a list sorted, each code once', () => {
    expect(normalizeList('countries', ['SI', 'AT', 'SI'])).toEqual(['AT', 'SI']);
    expect(normalizeList('currencies', [])).toEqual([]);
  });
  it('refuses codes ISO does not know, keyed by position', () => {
    try {
      normalizeList('countries', ['AT', 'XX', 'UK']);
      throw new Error('no error');
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).errors).toEqual({
        'countryCodes[1]': [expect.any(String)],
        'countryCodes[2]': [expect.any(String)],
      });
    }
    expect(() => normalizeList('currencies', ['XAU'])).toThrow(AppError);
  });
});
