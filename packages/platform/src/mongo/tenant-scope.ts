import type { Model, FilterQuery } from 'mongoose';

/**
 * Every query of a tenant's data goes through a scope that adds `tenantId` to the filter, so a handler
 * cannot forget it. Another tenant's record is simply not found (404), never forbidden.
 */
export class TenantScope<T extends { tenantId: string }> {
  constructor(
    private readonly model: Model<T>,
    readonly tenantId: string,
  ) {}

  filter(extra: FilterQuery<T> = {}): FilterQuery<T> {
    return { ...extra, tenantId: this.tenantId } as FilterQuery<T>;
  }

  findById(id: string) {
    return this.model.findOne(this.filter({ _id: id } as FilterQuery<T>));
  }

  find(extra: FilterQuery<T> = {}) {
    return this.model.find(this.filter(extra));
  }

  count(extra: FilterQuery<T> = {}) {
    return this.model.countDocuments(this.filter(extra));
  }
}

/**
 * One record by its (globally unique, UUID) id, or null when it is missing or another tenant's.
 * The lookup is by `_id` alone and the tenant is checked on the result: identical semantics, and the
 * one filter FerretDB pushes down to SQL (any other field makes it decode every document in Go;
 * docs/decisions/0002). For hot paths; TenantScope.findById stays the general form.
 */
export async function findOwned<T extends { tenantId: string }>(
  model: Model<T>,
  id: string,
  tenantId: string,
): Promise<T | null> {
  const doc = (await model.findOne({ _id: id } as FilterQuery<T>).lean()) as T | null;
  return doc && doc.tenantId === tenantId ? doc : null;
}

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

/** Reads page/pageSize (already range-checked by the contract) with the documented defaults. */
export function pageRequest(query: Record<string, unknown>): PageRequest {
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.pageSize ?? 20);
  return { page, pageSize };
}

export async function paginate<D, T>(
  scope: TenantScope<any>,
  filter: Record<string, unknown>,
  { page, pageSize }: PageRequest,
  sort: Record<string, 1 | -1>,
  map: (doc: D) => T,
): Promise<Page<T>> {
  const [total, docs] = await Promise.all([
    scope.count(filter),
    scope
      .find(filter)
      .sort(sort)
      .skip((page - 1) * pageSize)
      .limit(pageSize)
      .lean(),
  ]);
  return { items: (docs as D[]).map(map), page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
}
