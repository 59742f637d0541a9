// Searching and paging the official lists as the reference endpoints answer them.
import { CROATIAN_MUNICIPALITIES, SLOVENIAN_MUNICIPALITIES } from '@travel/places';
import { pageOf } from './municipalities';

describe('pageOf', () => {
  it('pages the list and counts every match', () => {
    const p = pageOf(CROATIAN_MUNICIPALITIES, undefined, { page: 6, pageSize: 100 });
    expect(p).toMatchObject({ page: 6, pageSize: 100, total: 556, totalPages: 6 });
    expect(p.items).toHaveLength(56);
  });
  it('finds by name without case or diacritics, or by code', () => {
    expect(pageOf(CROATIAN_MUNICIPALITIES, 'cakovec', { page: 1, pageSize: 20 }).items.map((m) => m.code)).toEqual([
      '604',
    ]);
    expect(pageOf(SLOVENIAN_MUNICIPALITIES, '061', { page: 1, pageSize: 20 }).items[0]!.name).toBe('Ljubljana');
    expect(pageOf(CROATIAN_MUNICIPALITIES, 'durdenovac', { page: 1, pageSize: 20 }).items.map((m) => m.name)).toEqual([
      'ĐURĐENOVAC',
    ]);
    // A hyphenated name is found by its words, with or without the hyphen; `bale valle` finds `BALE - VALLE`.
    for (const q of ['ivanic grad', 'Ivanić-Grad'])
      expect(pageOf(CROATIAN_MUNICIPALITIES, q, { page: 1, pageSize: 20 }).items.map((m) => m.name)).toEqual([
        'IVANIĆ-GRAD',
      ]);
    expect(pageOf(CROATIAN_MUNICIPALITIES, 'bale valle', { page: 1, pageSize: 20 }).items.map((m) => m.code)).toEqual([
      '51',
    ]);
  });
});
