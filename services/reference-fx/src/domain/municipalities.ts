// The official municipality lists, shipped as data (services/reference-fx/data/README.md names the
// sources): 212 Slovenian municipalities with their SURS codes, and the 556 Croatian towns and
// municipalities with the codes of the Porezna uprava table. Read-only, the same for every tenant.
import type { Page, PageRequest } from '@travel/platform';
import { checkPageRange } from '@travel/platform/src/limits';
import croatian from '../../data/croatian-municipalities.json';
import slovenian from '../../data/slovenian-municipalities.json';

export interface SlovenianMunicipality {
  /** Three-digit SURS municipality code (`061` Ljubljana). */
  code: string;
  /** ISO 3166-2 code (`SI-061`). */
  isoCode: string;
  name: string;
}

export interface CroatianMunicipality {
  /** The code of the town or municipality as Porezna uprava prints it (`1333` Zagreb). */
  code: string;
  /** The name as the source prints it (upper case). */
  name: string;
}

export const SLOVENIAN_MUNICIPALITIES: readonly SlovenianMunicipality[] = slovenian;
export const CROATIAN_MUNICIPALITIES: readonly CroatianMunicipality[] = croatian;

/** Lower case without diacritics, so `ljubljana` finds `Ljubljana` and `cakovec` finds `ČAKOVEC`. */
export const foldText = (s: string): string =>
  s.normalize('NFD').replace(/\p{M}/gu, '').replace(/đ/g, 'd').replace(/Đ/g, 'D').toLowerCase();

/** One page of a list, filtered by `q` (every word must occur in the name or be the code). */
export function pageOf<T extends { code: string; name: string }>(
  list: readonly T[],
  q: string | undefined,
  { page, pageSize }: PageRequest,
): Page<T> {
  checkPageRange(page, pageSize); // the contract's bounds, held here too (docs/decisions/0107)
  const words = q ? foldText(q).split(/\s+/).filter(Boolean) : [];
  const matches = words.length
    ? list.filter((m) => {
        const name = foldText(m.name);
        return words.every((w) => name.includes(w) || m.code === w);
      })
    : list;
  const start = (page - 1) * pageSize;
  return {
    items: matches.slice(start, start + pageSize),
    page,
    pageSize,
    total: matches.length,
    totalPages: Math.ceil(matches.length / pageSize),
  };
}
