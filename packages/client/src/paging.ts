import type { paths } from './openapi';

/** The query of one page request: the caller's filters plus the paging parameters of the strategy. */
export type PageQuery = Record<string, unknown>;

/** What a list answers today: the items and the page meta (`PageMeta` in the contract). */
export interface PageBody<Item = unknown> {
  items: Item[];
  page?: number;
  pageSize?: number;
  total?: number;
  totalPages?: number;
  [field: string]: unknown;
}

/**
 * How to walk a list: the query of the first page, then of each next page from the one just read.
 * Callers of `paginate` never see it, so a cursor can replace page numbers without changing them.
 */
export interface PageStrategy {
  first(query: PageQuery, pageSize: number): PageQuery;
  /** The query of the page after `body`, or undefined when `body` was the last one. */
  next(body: PageBody, query: PageQuery): PageQuery | undefined;
}

/** Page numbers, as every list of API v1 pages today: read until `page >= totalPages`. */
export const pageNumbers: PageStrategy = {
  first: (query, pageSize) => ({ pageSize, ...query, page: query.page ?? 1 }),
  next: (body, query) => {
    const page = body.page ?? Number(query.page ?? 1);
    return body.totalPages === undefined || page >= body.totalPages ? undefined : { ...query, page: page + 1 };
  },
};

/**
 * A cursor handed from page to page: the next page's query carries `param` = the body's `field`, and the
 * walk ends when the body has none. For lists that answer with a cursor (names as that list documents).
 */
export function cursorPaging(param: string, field: string): PageStrategy {
  return {
    first: (query, pageSize) => ({ pageSize, ...query }),
    next: (body, query) => {
      const cursor = body[field];
      return typeof cursor === 'string' && cursor !== '' ? { ...query, [param]: cursor } : undefined;
    },
  };
}

type JsonOk<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;
type GetOf<P extends keyof paths> = paths[P] extends { get: infer Op } ? Op : never;

/** Every path whose GET answers a paged list (`items` and the page meta). */
export type ListPath = {
  [P in keyof paths]: JsonOk<GetOf<P>> extends { items: unknown[]; totalPages: number } ? P : never;
}[keyof paths];

/** The body of one page of the list at `P`. */
export type PageOf<P extends ListPath> = JsonOk<GetOf<P>>;
/** One item of the list at `P`. */
export type ItemOf<P extends ListPath> = PageOf<P> extends { items: (infer Item)[] } ? Item : never;

type ParamsOf<P extends ListPath> = GetOf<P> extends { parameters: infer Params } ? Params : never;
type QueryOf<P extends ListPath> = ParamsOf<P> extends { query?: infer Query } ? NonNullable<Query> : never;
type PathParamsOf<P extends ListPath> = ParamsOf<P> extends { path?: infer Path } ? Path : never;

type NeedsPath<P extends ListPath> = [PathParamsOf<P>] extends [never | undefined] ? false : true;

/** Path parameters and filters of a list; `page` (or a cursor) is the helper's business. */
export type ListParams<P extends ListPath> = {
  query?: Omit<QueryOf<P>, 'page'>;
} & (NeedsPath<P> extends true ? { path: PathParamsOf<P> } : { path?: never });

/** The arguments after the path: the params are required where the path has parameters. */
export type ListArgs<P extends ListPath> =
  NeedsPath<P> extends true
    ? [params: ListParams<P>, options?: PaginateOptions<P>]
    : [params?: ListParams<P>, options?: PaginateOptions<P>];

export interface PaginateOptions<P extends ListPath = ListPath> {
  /** Items per request; the contract's maximum (100) by default, for the fewest requests. */
  pageSize?: number;
  /** How to walk this list; the client's default (page numbers) otherwise. */
  strategy?: PageStrategy;
  /** Called after each page is read, before the next is asked for (progress, or a pause). */
  onPage?: (page: PageOf<P>, index: number) => void | Promise<void>;
  signal?: AbortSignal;
}

export const MAX_PAGE_SIZE = 100;

/** Reads one page: `GET path` with these path parameters and query. */
export type PageReader = (
  path: string,
  pathParams: unknown,
  query: PageQuery,
  signal?: AbortSignal,
) => Promise<PageBody>;

/** Every page of a list, in order, each read only after the previous one was handed out. */
export async function* walkPages(
  read: PageReader,
  path: string,
  params: { query?: PageQuery; path?: unknown } | undefined,
  options: PaginateOptions<any>,
  defaultStrategy: PageStrategy,
): AsyncGenerator<PageBody> {
  const strategy = options.strategy ?? defaultStrategy;
  let query: PageQuery | undefined = strategy.first(params?.query ?? {}, options.pageSize ?? MAX_PAGE_SIZE);
  for (let index = 0; query !== undefined; index++) {
    const body = await read(path, params?.path, query, options.signal);
    yield body;
    await options.onPage?.(body as never, index);
    query = strategy.next(body, query);
  }
}
