import type { Page, PageRequest } from './mongo/list-page';

/** One page of a list already in memory (a short history on one document), in the paged envelope of every list. */
export function pageOf<T>(items: readonly T[], { page, pageSize }: PageRequest): Page<T> {
  return {
    items: items.slice((page - 1) * pageSize, page * pageSize),
    page,
    pageSize,
    total: items.length,
    totalPages: Math.ceil(items.length / pageSize),
  };
}
