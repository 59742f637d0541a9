// Counts and samples from the official sources named in services/reference-fx/data/README.md.
import { CROATIAN_MUNICIPALITIES, SLOVENIAN_MUNICIPALITIES, foldText, pageOf } from './municipalities';

describe('Slovenian municipalities (SURS codes)', () => {
  it('are 212, with distinct three-digit codes from 001 to 213 (145 unused)', () => {
    expect(SLOVENIAN_MUNICIPALITIES).toHaveLength(212);
    const codes = SLOVENIAN_MUNICIPALITIES.map((m) => m.code);
    expect(new Set(codes).size).toBe(212);
    for (const c of codes) expect(c).toMatch(/^\d{3}$/);
    expect(codes).not.toContain('145');
  });
  it.each([
    ['001', 'Ajdovščina'],
    ['061', 'Ljubljana'],
    ['070', 'Maribor'],
    ['212', 'Mirna'],
    ['213', 'Ankaran/Ancarano'],
  ])('%s is %s', (code, name) => {
    expect(SLOVENIAN_MUNICIPALITIES.find((m) => m.code === code)).toEqual({ code, isoCode: `SI-${code}`, name });
  });
});

describe('Croatian towns and municipalities (Porezna uprava codes)', () => {
  it('are 556, with distinct codes', () => {
    expect(CROATIAN_MUNICIPALITIES).toHaveLength(556);
    expect(new Set(CROATIAN_MUNICIPALITIES.map((m) => m.code)).size).toBe(556);
  });
  it.each([
    ['1333', 'ZAGREB'],
    ['19', 'ANDRIJAŠEVCI'],
    ['604', 'ČAKOVEC'],
    ['1902', 'KLINČA SELA'],
  ])('%s is %s', (code, name) => {
    expect(CROATIAN_MUNICIPALITIES.find((m) => m.code === code)).toEqual({ code, name });
  });
  it('tells namesakes apart by code (OTOK, PRIVLAKA, SVETA NEDELJA twice each)', () => {
    for (const name of ['OTOK', 'PRIVLAKA', 'SVETA NEDELJA']) {
      expect(CROATIAN_MUNICIPALITIES.filter((m) => m.name === name)).toHaveLength(2);
    }
  });
});

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
