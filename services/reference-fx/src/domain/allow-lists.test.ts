import { AppError } from '@travel/platform';
import { defaultEnabled, MARKETS } from '@travel/regulations';
import { normalizeList } from './allow-lists';

describe('allow-lists', () => {
  it.each(MARKETS)('%s defaults are lists as stored: known codes, sorted, each once', (m) => {
    for (const kind of ['countries', 'currencies'] as const)
      expect(normalizeList(kind, defaultEnabled(kind, m))).toEqual(defaultEnabled(kind, m));
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
