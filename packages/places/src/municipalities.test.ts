// Counts and samples from the official sources named in packages/places/data/README.md.
import { CROATIAN_MUNICIPALITIES, OFFICIAL_PLACES, SLOVENIAN_MUNICIPALITIES } from './municipalities';

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

describe('OFFICIAL_PLACES', () => {
  it('are every municipality of the two lists, each in its country (768: 556 HR, 212 SI)', () => {
    expect(OFFICIAL_PLACES).toHaveLength(768);
    expect(OFFICIAL_PLACES.filter((p) => p.countryCode === 'HR').map((p) => p.name)).toEqual(
      CROATIAN_MUNICIPALITIES.map((m) => m.name),
    );
    expect(OFFICIAL_PLACES.filter((p) => p.countryCode === 'SI').map((p) => p.name)).toEqual(
      SLOVENIAN_MUNICIPALITIES.map((m) => m.name),
    );
  });
});
