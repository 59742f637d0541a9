// The official municipality lists as reference-fx serves them: searched and paged. The lists themselves
// live in @travel/places (packages/places/data/README.md names the sources), shared with entries.
import { foldPlaceName } from '@travel/places';
import type { Page, PageRequest } from '@travel/platform';
import { checkPageRange } from '@travel/platform/src/limits';

/**
 * One page of a list, filtered by `q`: every word must occur in the name or be the code, compared in the one
 * folded form of place names (`foldPlaceName`: `ljubljana` finds `Ljubljana`, `cakovec` finds `ČAKOVEC`).
 */
export function pageOf<T extends { code: string; name: string }>(
  list: readonly T[],
  q: string | undefined,
  { page, pageSize }: PageRequest,
): Page<T> {
  checkPageRange(page, pageSize); // the contract's bounds, held here too (docs/decisions/0107)
  const words = q ? foldPlaceName(q).split(/\s+/).filter(Boolean) : [];
  const matches = words.length
    ? list.filter((m) => {
        const name = foldPlaceName(m.name);
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
