import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import { checkPageRange, PAGE_SIZE_DEFAULT, queryInstant } from '../limits';
import { wholeKey } from '../whole-key';
import type { CollectionState } from './collection-versions';
import type { ListTotals } from './list-totals';
import { pageTotal, type TenantScope } from './tenant-scope';

export { ListTotals } from './list-totals';

// Every list's paging, in one module (docs/decisions/0156, 0233): pages by number in the list's own order
// (`paginate`), or delta sync — `updatedSince` and a keyset cursor over (editedAt, id) — for partners that
// keep a copy (`keysetPage`). The query is read and checked once (`listRequest`); the total comes from the
// repository's own cache (`ListTotals`) at the collection state the read is conditional on (`asOf`).

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

/** Reads page/pageSize with the documented defaults; out of the contract's range is 400 even unvalidated. */
export function pageRequest(query: Record<string, unknown>): PageRequest {
  return checkPageRange(Number(query.page ?? 1), Number(query.pageSize ?? PAGE_SIZE_DEFAULT));
}

export interface ListRequest extends PageRequest {
  /** Only records edited at or after this instant, oldest edit first. */
  updatedSince?: Date;
  /** Where the previous page of the same query ended (`nextCursor`), opaque to the caller. */
  cursor?: string;
  /**
   * The states of the collections the answer is conditional on, read before the data (`ConditionalGets.list`):
   * a list takes its total from its repository's cache, or keeps it there, only at its own collection's
   * settled state. Left out, the total is counted.
   */
  asOf?: ReadonlyMap<string, CollectionState>;
}

export interface ListPage<T> extends Page<T> {
  /** The cursor of the next page in delta-sync order; null on the last page and in page-number order. */
  nextCursor: string | null;
}

const invalid = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', undefined, { [field]: [message] });

/**
 * page/pageSize as every list reads them, plus `updatedSince` and `cursor`: the one place a list's query is
 * parsed and checked (`ConditionalGets.list` calls it). Delta sync pages by cursor, so it starts at page 1 only.
 */
export function listRequest(query: Record<string, unknown>): ListRequest {
  const request: ListRequest = pageRequest(query);
  const since = queryInstant('updatedSince', query.updatedSince);
  if (since) request.updatedSince = since;
  if (query.cursor !== undefined) request.cursor = String(query.cursor);
  if (request.page !== 1 && isDelta(request))
    throw invalid(
      'page',
      request.cursor !== undefined
        ? 'must be 1 (or left out) with a cursor: the cursor says where to go on'
        : 'must be 1 (or left out) with updatedSince: follow nextCursor for the next page',
    );
  return request;
}

/** Delta sync (by `updatedSince` or a cursor) rather than pages by number. */
const isDelta = (request: ListRequest): boolean => request.updatedSince !== undefined || request.cursor !== undefined;

/** The whole query as text: the filter (regular expressions by their text) and `updatedSince`. */
export function queryText(filter: Record<string, unknown>, updatedSince?: Date): string {
  return JSON.stringify([filter, updatedSince?.toISOString() ?? null], (_k, v: unknown) =>
    v instanceof RegExp ? String(v) : v,
  );
}

/**
 * Which query a cursor belongs to, short enough to travel in the cursor. It only makes a cursor of another
 * query refused; nothing is remembered under it (the totals go by the whole query, 0192).
 */
export function queryKey(filter: Record<string, unknown>, updatedSince?: Date): string {
  return createHash('sha256').update(queryText(filter, updatedSince)).digest('base64url').slice(0, 12);
}

interface CursorPosition {
  editedAt: Date;
  id: string;
  /** The query's total as counted for its first page: later pages do not count again. */
  total: number;
}

/** base64url of [editedAt in ms, id, query key, total]: opaque, and refused for another query. */
export function encodeCursor(position: CursorPosition, key: string): string {
  return Buffer.from(JSON.stringify([position.editedAt.getTime(), position.id, key, position.total])).toString(
    'base64url',
  );
}

const BAD_CURSOR =
  'is not a cursor of this query: pass nextCursor of the previous page unchanged, with the same filters';

/** The position a cursor names, or 400 VALIDATION_FAILED under `cursor` (malformed, tampered, or another query's). */
export function decodeCursor(cursor: string, key: string): CursorPosition {
  let parsed: unknown;
  try {
    if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor', BAD_CURSOR);
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 4 ||
    !Number.isSafeInteger(parsed[0]) ||
    typeof parsed[1] !== 'string' ||
    parsed[1].length === 0 ||
    parsed[1].length > 64 ||
    parsed[2] !== key ||
    !Number.isSafeInteger(parsed[3]) ||
    (parsed[3] as number) < 0
  )
    throw invalid('cursor', BAD_CURSOR);
  return { editedAt: new Date(parsed[0] as number), id: parsed[1], total: parsed[3] as number };
}

export interface ListOptions {
  /** The collection's state read before the data; by default the request's (`asOf`) for the scope's collection. */
  state?: CollectionState;
  /** By default the repository's own (`TenantScope.totals`). */
  totals?: ListTotals;
  /** The field of a record's last change that delta sync goes by: `editedAt` unless the collection names it otherwise (0159). */
  editedField?: string;
}

/**
 * One page by number in `sort` order, and its total: counted, or from `count` (a list's totals cache,
 * `listPage`), made consistent with the page (`pageTotal`). Every page-number list pages here.
 */
export async function paginate<D, T>(
  scope: TenantScope<any>,
  filter: Record<string, unknown>,
  { page, pageSize }: PageRequest,
  sort: Record<string, 1 | -1>,
  map: (doc: D) => T,
  count: () => Promise<number> = () => scope.count(filter).exec(),
): Promise<Page<T>> {
  checkPageRange(page, pageSize); // a use case may build its own request: the bound holds here too
  const [total, docs] = await Promise.all([
    count(),
    scope
      .find(filter)
      .sort(sort)
      .skip((page - 1) * pageSize)
      .limit(pageSize)
      .lean(),
  ]);
  const consistent = pageTotal(total, (page - 1) * pageSize, pageSize, docs.length);
  return {
    items: (docs as D[]).map(map),
    page,
    pageSize,
    total: consistent,
    totalPages: Math.ceil(consistent / pageSize),
  };
}

/** A query's total: as known (the cursor's, or the cache's at this state), else counted and kept for the state. */
interface Total {
  counted(): Promise<number>;
  keep(counted: number): void;
}

const editedAtOf = (doc: object, field: string): Date => new Date((doc as Record<string, Date>)[field]!);

/**
 * Delta sync: by (editedAt, _id) from where the cursor ended, never skipping. The total is counted for the
 * first page (not at all when the first page is the last) and carried in the cursor (what the query held
 * when the sync began).
 */
async function keysetPage<D extends { _id: string }, T>(
  scope: TenantScope<any>,
  query: Record<string, unknown>,
  pageSize: number,
  after: CursorPosition | undefined,
  key: string,
  total: Total,
  map: (doc: D) => T,
  editedField: string,
): Promise<ListPage<T>> {
  const position = after
    ? [{ $or: [{ [editedField]: { $gt: after.editedAt } }, { [editedField]: after.editedAt, _id: { $gt: after.id } }] }]
    : [];
  const keyset = position.length
    ? { ...query, $and: [...((query.$and as unknown[] | undefined) ?? []), ...position] }
    : query;
  const docs = await scope
    .find(keyset)
    .sort({ [editedField]: 1, _id: 1 })
    .limit(pageSize + 1)
    .lean();
  const items = (docs as D[]).slice(0, pageSize);
  const last = items[items.length - 1];
  const more = docs.length > pageSize && last !== undefined;
  // A delta that fits in its first page is its own total: no count (on FerretDB a count over a range
  // decodes the collection again, 0156).
  const counted = !after && !more ? items.length : await total.counted();
  total.keep(counted);
  const whole = Math.max(counted, items.length);
  return {
    items: items.map(map),
    page: 1,
    pageSize,
    total: whole,
    totalPages: Math.ceil(whole / pageSize),
    nextCursor: more
      ? encodeCursor({ editedAt: editedAtOf(last, editedField), id: last._id, total: whole }, key)
      : null,
  };
}

/**
 * One page of a tenant's list. In page-number order (`sort`) it skips to the page (`paginate`); with
 * `updatedSince` or a `cursor` it goes by (editedAt, _id) (`keysetPage`). The total counts the whole query
 * (not what lies after the cursor); it comes from the repository's totals while the collection did not
 * change since the version the read is conditional on (`request.asOf`, 0157, 0233).
 */
export async function listPage<D extends { _id: string }, T>(
  scope: TenantScope<any>,
  filter: Record<string, unknown>,
  request: ListRequest,
  sort: Record<string, 1 | -1>,
  map: (doc: D) => T,
  { state = request.asOf?.get(scope.collection), totals = scope.totals, editedField = 'editedAt' }: ListOptions = {},
): Promise<ListPage<T>> {
  const { page, pageSize } = checkPageRange(request.page, request.pageSize);
  const query: Record<string, unknown> = request.updatedSince
    ? { ...filter, [editedField]: { $gte: request.updatedSince } }
    : filter;
  const key = queryKey(filter, request.updatedSince);
  // The totals are remembered by the whole tenant, collection and query, never by a hash of them (0192).
  const totalKey = wholeKey(scope.tenantId, scope.collection, queryText(filter, request.updatedSince));
  const after = request.cursor ? decodeCursor(request.cursor, key) : undefined;
  const known = after?.total ?? totals?.get(totalKey, state);
  const total: Total = {
    counted: () => (known !== undefined ? Promise.resolve(known) : scope.count(query).exec()),
    keep: (counted) => {
      if (known === undefined) totals?.set(totalKey, state, counted);
    },
  };
  if (isDelta(request)) return keysetPage(scope, query, pageSize, after, key, total, map, editedField);
  const numbered = await paginate<D, T>(scope, filter, { page, pageSize }, sort, map, async () => {
    const counted = await total.counted();
    total.keep(counted);
    return counted;
  });
  return { ...numbered, nextCursor: null };
}
