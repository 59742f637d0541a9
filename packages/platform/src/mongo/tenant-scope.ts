import type { FilterQuery, Model, QueryOptions, UpdateQuery } from 'mongoose';
import { TenantScopeError, type TenantId } from './tenant-guard';
import type { CollectionVersions } from './collection-versions';
import { ListTotals } from './list-totals';
import type { OutboxEvent } from '../messaging/events';
import { outboxUpdate, withOutbox } from '../messaging/outbox';
import { nudgeRelayOf } from '../messaging/outbox-nudge';
import { atRevision, RevisionConflict } from './writes';

/** What a revision-checked write changes (TenantScope.commit). */
export interface Change {
  $set: Record<string, unknown>;
  $push?: Record<string, unknown>;
  /** Conditions besides the revision the write holds to (`deletedAt: null`): unmet, the race is lost too. */
  where?: Record<string, unknown>;
}

/**
 * Every query of a tenant's data goes through a scope that adds `tenantId` to the filter, so a handler
 * cannot forget it. Another tenant's record is simply not found (404), never forbidden. Repositories in a
 * service's `src/infra/` hand these out for a `TenantId` (`TenantModel.of`); on a schema with the
 * `tenantScoped` plugin every other query without `tenantId` is refused (docs/decisions/0081).
 */
export class TenantScope<T extends { tenantId: string }> {
  constructor(
    private readonly model: Model<T>,
    readonly tenantId: string,
    private readonly versions?: CollectionVersions,
    /** The totals cache of the repository's lists (`listPage`, 0233); none on a collection without versions. */
    readonly totals?: ListTotals,
  ) {}

  /** The collection's name, as its version is kept (docs/decisions/0155). */
  get collection(): string {
    return this.model.collection.collectionName;
  }

  /** A write, bracketed by the collection's version bumps when the collection is versioned. */
  private write<R>(run: () => PromiseLike<R>): Promise<R> {
    if (!this.versions) return Promise.resolve(run());
    return this.versions.around(this.tenantId, this.collection, async () => run());
  }

  filter(extra: FilterQuery<T> = {}): FilterQuery<T> {
    return { ...extra, tenantId: this.tenantId } as FilterQuery<T>;
  }

  findById(id: string) {
    return this.model.findOne(this.filter({ _id: id } as FilterQuery<T>));
  }

  /** The tenant's record with this id as a plain object, or null (missing, or another tenant's). */
  async get(id: string): Promise<T | null> {
    return (await this.findById(id).lean()) as T | null;
  }

  find(extra: FilterQuery<T> = {}, projection?: Record<string, 0 | 1>) {
    return this.model.find(this.filter(extra), projection);
  }

  findOne(extra: FilterQuery<T> = {}, projection?: Record<string, 0 | 1>) {
    return this.model.findOne(this.filter(extra), projection);
  }

  count(extra: FilterQuery<T> = {}) {
    return this.model.countDocuments(this.filter(extra));
  }

  exists(extra: FilterQuery<T> = {}) {
    return this.model.exists(this.filter(extra));
  }

  distinct(field: string, extra: FilterQuery<T> = {}) {
    return this.model.distinct(field, this.filter(extra));
  }

  /**
   * Inserts the tenant's record; a record of another tenant is a programming error. Events given go into
   * its outbox in the same insert, and the relay is nudged (docs/decisions/0170).
   */
  create(doc: Omit<T, 'tenantId'> & { tenantId?: string }, ...events: OutboxEvent[]) {
    // Checked at the call (it throws there, not in the promise): another tenant's record is a bug.
    const owned = this.own(events.length ? { ...doc, ...withOutbox(...events) } : doc);
    const created = this.write(() => this.model.create(owned));
    if (!events.length) return created;
    return created.then((result) => {
      nudgeRelayOf(this.model.db, { collection: this.model.collection.collectionName, id: result._id });
      return result;
    });
  }

  /**
   * The one way a change of a tenant's document is written (docs/decisions/0170): conditional on the
   * revision read (`current.rev`; a legacy document without one on its absence), `rev` raised by one, the
   * events in the outbox of the same single-document write, the relay nudged after it. Bracketed by the
   * collection's version bumps like every write here (0155). Another write first: RevisionConflict (409
   * CONFLICT), which `withRevisionRetry` answers by running the attempt again. Answers the new revision.
   */
  async commit(current: { _id: string; rev?: number }, change: Change, ...events: OutboxEvent[]): Promise<number> {
    const rev = (current.rev ?? 0) + 1;
    const { where, ...update } = change;
    const write = { ...update, $set: { ...update.$set, rev } };
    const result = await this.updateOne(
      { ...where, _id: current._id, ...atRevision(current.rev) } as FilterQuery<T>,
      (events.length ? outboxUpdate(write, ...events) : write) as UpdateQuery<T>,
    );
    if (result.matchedCount === 0) throw new RevisionConflict();
    if (events.length)
      nudgeRelayOf(this.model.db, { collection: this.model.collection.collectionName, id: current._id });
    return rev;
  }

  insertMany(docs: Array<Omit<T, 'tenantId'> & { tenantId?: string }>) {
    return this.write(() => this.model.insertMany(docs.map((d) => this.own(d))));
  }

  updateOne(extra: FilterQuery<T>, update: UpdateQuery<T>, options?: QueryOptions<T>) {
    return this.write(() => this.model.updateOne(this.filter(extra), update, options as never).exec());
  }

  updateMany(extra: FilterQuery<T>, update: UpdateQuery<T>) {
    return this.write(() => this.model.updateMany(this.filter(extra), update).exec());
  }

  /**
   * A query to chain (`.lean()`). On a versioned collection its execution is bracketed like every other
   * write (0155, 0159): the query's `exec`, which awaiting it calls, runs between the two bumps.
   */
  findOneAndUpdate(extra: FilterQuery<T>, update: UpdateQuery<T>, options: QueryOptions<T> = {}) {
    const query = this.model.findOneAndUpdate(this.filter(extra), update, options);
    if (!this.versions) return query;
    const exec = query.exec.bind(query);
    query.exec = ((...args: unknown[]) =>
      this.write(() => (exec as (...a: unknown[]) => Promise<unknown>)(...args))) as never;
    return query;
  }

  deleteOne(extra: FilterQuery<T>) {
    return this.write(() => this.model.deleteOne(this.filter(extra)).exec());
  }

  deleteMany(extra: FilterQuery<T>) {
    return this.write(() => this.model.deleteMany(this.filter(extra)).exec());
  }

  private own<D extends { tenantId?: string }>(doc: D): D & { tenantId: string } {
    if (doc.tenantId !== undefined && doc.tenantId !== this.tenantId) {
      throw new TenantScopeError(`a ${this.model.modelName} of another tenant written through this tenant's scope`);
    }
    return { ...doc, tenantId: this.tenantId };
  }
}

/**
 * A repository's door to one model: the tenant's scope for a `TenantId`. The model itself stays inside
 * the service's `src/infra/`; cross-tenant work there is written as named functions with `crossTenant`.
 */
export class TenantModel<T extends { tenantId: string }> {
  /**
   * The totals of this repository's lists, owned here (0233): kept only where writes bump a version, which
   * is what makes a remembered total safe across replicas (0157).
   */
  private readonly totals?: ListTotals;

  /** With `versions`, every write through a scope bumps the tenant's version of the collection (0155). */
  constructor(
    private readonly model: Model<T>,
    private readonly versions?: CollectionVersions,
  ) {
    if (versions) this.totals = new ListTotals();
  }

  of(tenantId: TenantId): TenantScope<T> {
    return new TenantScope<T>(this.model, tenantId, this.versions, this.totals);
  }

  /** The collection's name, as its version is kept (docs/decisions/0155). */
  get collection(): string {
    return this.model.collection.collectionName;
  }
}

/**
 * One record by its (globally unique, UUID) id, or null when it is missing or another tenant's.
 * Filters by `_id` and `tenantId`: since decision 0017 FerretDB serves that as cheaply as `_id` alone
 * (docs/decisions/0002), and the `tenantScoped` plugin accepts it.
 */
export async function findOwned<T extends { tenantId: string }>(
  model: Model<T>,
  id: string,
  tenantId: string,
): Promise<T | null> {
  const doc = (await model.findOne({ _id: id, tenantId } as FilterQuery<T>).lean()) as T | null;
  return doc && doc.tenantId === tenantId ? doc : null;
}

/**
 * The count and the page are two reads, so a write between them can make the envelope contradict its own
 * items (one item with `total: 0` right after a create). The page wins: a short page ends the list where
 * it ends; a full page means at least that many; an empty page, at most what lies before it.
 */
export function pageTotal(counted: number, skipped: number, pageSize: number, returned: number): number {
  if (returned === 0) return Math.min(counted, skipped); // past the end: at most what lies before it
  if (returned < pageSize) return skipped + returned;
  return Math.max(counted, skipped + returned);
}
