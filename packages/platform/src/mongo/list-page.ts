import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import { checkPageRange, queryInstant } from '../limits';
import { wholeKey } from '../whole-key';
import type { CollectionState } from './collection-versions';
import { pageRequest, paginate, type Page, type PageRequest, type TenantScope } from './tenant-scope';

// Every list's paging, written once (docs/decisions/0156): pages by number in the list's own order, or
// delta sync — `updatedSince` and a keyset cursor over (editedAt, id) — for partners that keep a copy.

export interface ListRequest extends PageRequest {
  /** Only records edited at or after this instant, oldest edit first. */
  updatedSince?: Date;
  /** Where the previous page of the same query ended (`nextCursor`), opaque to the caller. */
  cursor?: string;
}

export interface ListPage<T> extends Page<T> {
  /** The cursor of the next page in delta-sync order; null on the last page and in page-number order. */
  nextCursor: string | null;
}

const invalid = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', undefined, { [field]: [message] });

/** page/pageSize as every list reads them, plus `updatedSince` and `cursor`; a cursor continues from page 1 only. */
export function listRequest(query: Record<string, unknown>): ListRequest {
  const request: ListRequest = pageRequest(query);
  const since = queryInstant('updatedSince', query.updatedSince);
  if (since) request.updatedSince = since;
  if (query.cursor !== undefined) {
    request.cursor = String(query.cursor);
    if (request.page !== 1)
      throw invalid('page', 'must be 1 (or left out) with a cursor: the cursor says where to go on');
  }
  if (request.updatedSince && request.page !== 1)
    throw invalid('page', 'must be 1 (or left out) with updatedSince: follow nextCursor for the next page');
  return request;
}

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

/**
 * Totals of lists, remembered per query while the collection's version stays (docs/decisions/0157): a list
 * read costs a count only after a write. Bounded; an entry of an older version is simply replaced.
 */
export class ListTotals {
  private readonly entries = new Map<string, { at: string; total: number }>();

  constructor(private readonly capacity = 2000) {}

  private static at(state: CollectionState): string {
    return `${state.epoch}.${state.version}`;
  }

  get(key: string, state: CollectionState | undefined): number | undefined {
    if (!state?.settled) return undefined;
    const entry = this.entries.get(key);
    return entry && entry.at === ListTotals.at(state) ? entry.total : undefined;
  }

  set(key: string, state: CollectionState | undefined, total: number): void {
    if (!state?.settled) return;
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(key, { at: ListTotals.at(state), total });
  }
}

export interface ListOptions {
  /** The collection's state read before the data (by the conditional read), for the totals. */
  state?: CollectionState;
  totals?: ListTotals;
  /** The field of a record's last change that delta sync goes by: `editedAt` unless the collection names it otherwise (0159). */
  editedField?: string;
}

const editedAtOf = (doc: object, field: string): Date => new Date((doc as Record<string, Date>)[field]!);

/**
 * One page of a tenant's list. In page-number order (`sort`) it skips to the page; with `updatedSince` or
 * a `cursor` it goes by (editedAt, _id) from where the cursor ended, never skipping. The total counts the
 * whole query (not what lies after the cursor), from `totals` while the collection did not change; in delta
 * sync it is counted for the first page (not at all when the first page is the last) and carried in the cursor
 * (what the query held when the sync began).
 */
export async function listPage<D extends { _id: string }, T>(
  scope: TenantScope<any>,
  filter: Record<string, unknown>,
  request: ListRequest,
  sort: Record<string, 1 | -1>,
  map: (doc: D) => T,
  { state, totals, editedField = 'editedAt' }: ListOptions = {},
): Promise<ListPage<T>> {
  const { page, pageSize } = checkPageRange(request.page, request.pageSize);
  const delta = request.updatedSince !== undefined || request.cursor !== undefined;
  const query: Record<string, unknown> = request.updatedSince
    ? { ...filter, [editedField]: { $gte: request.updatedSince } }
    : filter;
  const key = queryKey(filter, request.updatedSince);
  // The totals are remembered by the whole tenant, collection and query, never by a hash of them (0192).
  const totalKey = wholeKey(scope.tenantId, scope.collection, queryText(filter, request.updatedSince));
  const after = request.cursor ? decodeCursor(request.cursor, key) : undefined;
  const known = after?.total ?? totals?.get(totalKey, state);
  const count = () => (known !== undefined ? Promise.resolve(known) : scope.count(query).exec());

  if (!delta) {
    const numbered = await paginate<D, T>(scope, filter, { page, pageSize }, sort, map, async () => {
      const counted = await count();
      if (known === undefined) totals?.set(totalKey, state, counted);
      return counted;
    });
    return { ...numbered, nextCursor: null };
  }

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
  const counted = !after && !more ? items.length : await count();
  if (known === undefined) totals?.set(totalKey, state, counted);
  const total = Math.max(counted, items.length);
  return {
    items: items.map(map),
    page: 1,
    pageSize,
    total,
    totalPages: Math.ceil(total / pageSize),
    nextCursor: more ? encodeCursor({ editedAt: editedAtOf(last, editedField), id: last._id, total }, key) : null,
  };
}
