// Searching and paging the official lists as the reference endpoints answer them.
import { CROATIAN_MUNICIPALITIES, SLOVENIAN_MUNICIPALITIES } from '@travel/places';
import { foldText, pageOf } from './municipalities';

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
    expect(foldText('Đurđenovac')).toBe('durdenovac');
  });
});
