import type { Aggregate, MongooseQueryMiddleware, Query, Schema } from 'mongoose';
import type { CallerContext } from '../context';
import { AppError } from '../errors';

// Tenant scope enforced by the code, not by care (docs/decisions/0081).

declare const TENANT: unique symbol;

/**
 * A tenant id the code has reason to trust. Created only from a verified caller context (`tenantOf`) or
 * by explicit parsing at a trusted seam (`parseTenantId`: an internal route behind a verified service
 * context, an event taken from the bus, a stored record). A plain string is not one, so a repository that
 * takes a `TenantId` cannot be handed an id from a request body by mistake.
 */
export type TenantId = string & { readonly [TENANT]: true };

/** The tenant of the verified caller (the gateway resolved it from the API key). */
export function tenantOf(caller: Pick<CallerContext, 'tenantId'>): TenantId {
  return parseTenantId(caller.tenantId);
}

/**
 * A tenant id read at a trusted seam. Refuses (400 VALIDATION_FAILED, keyed `tenantId`) anything that is
 * not a non-empty string of id characters: an object here would be a query injection, not a tenant.
 */
export function parseTenantId(raw: unknown): TenantId {
  if (typeof raw !== 'string' || !/^[A-Za-z0-9_:.-]{1,100}$/.test(raw)) {
    throw new AppError('VALIDATION_FAILED', undefined, { tenantId: ['must be a tenant id'] });
  }
  return raw as TenantId;
}

/** A programming error: a query of tenant data that does not say whose. Never a partner's fault (500). */
export class TenantScopeError extends Error {
  override name = 'TenantScopeError';
}

/** Query options that mark a call as cross-tenant (accepted wherever mongoose takes options). */
// `comment` is declared (never set) so the mark fits every options type mongoose declares.
export type CrossTenantMark = { crossTenant: string; comment?: string } & Record<string, any>;

/** The query option that marks a call as deliberately across tenants; its value says why. */
export const CROSS_TENANT_OPTION = 'crossTenant';

/**
 * Marks a query, update, delete, count or aggregate as deliberately across tenants, with the reason:
 * `Model.find(filter, null, crossTenant('retention'))`, `.setOptions(crossTenant('outbox relay'))`,
 * `Model.aggregate(pipeline).option(crossTenant('metrics'))`. Greppable on purpose: every use is a
 * decision (the list is in docs/decisions/0081).
 */
export function crossTenant(reason: string): CrossTenantMark {
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new TenantScopeError('a cross-tenant call needs a reason');
  }
  return { [CROSS_TENANT_OPTION]: reason };
}

/** The query operations whose filter must name the tenant (mongoose query middleware names). */
export const TENANT_SCOPED_OPERATIONS = [
  'find',
  'findOne',
  'findOneAndUpdate',
  'findOneAndDelete',
  'findOneAndReplace',
  'updateOne',
  'updateMany',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'countDocuments',
  'estimatedDocumentCount',
  'distinct',
] as const;

const namesTenant = (filter: unknown): boolean => {
  const value = (filter as Record<string, unknown> | null | undefined)?.tenantId;
  return typeof value === 'string' && value.length > 0;
};

/** Reads (and removes, so it never reaches the driver) the cross-tenant mark; true when it is valid. */
function takeMark(options: Record<string, unknown> | undefined, what: string): boolean {
  if (!options || !(CROSS_TENANT_OPTION in options)) return false;
  const reason = options[CROSS_TENANT_OPTION];
  delete options[CROSS_TENANT_OPTION];
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new TenantScopeError(`${what}: the crossTenant mark needs a reason (a non-empty string)`);
  }
  return true;
}

/**
 * Mongoose plugin, opt-in per schema (`schema.plugin(tenantScoped)`): refuses every query, update, delete,
 * count and distinct whose filter has no `tenantId` (an equality on a non-empty string, at the top
 * level), and every aggregate whose first stage is not such a `$match`, unless the call is marked with
 * `crossTenant(reason)`; `Model.bulkWrite` likewise for each of its filtered operations. Inserts carry
 * their tenantId in the document and are not filtered. The raw driver collection (`model.collection`)
 * bypasses mongoose middleware: only infra uses it, for the hot paths named in the decision.
 */
export function tenantScoped(schema: Schema): void {
  schema.pre([...TENANT_SCOPED_OPERATIONS] as MongooseQueryMiddleware[], function (this: Query<unknown, unknown>) {
    const what = `${this.model?.modelName ?? 'model'}.${(this as unknown as { op?: string }).op}`;
    if (takeMark(this.getOptions() as Record<string, unknown>, what)) return;
    if (!namesTenant(this.getFilter())) {
      throw new TenantScopeError(
        `${what} without tenantId in its filter; scope it to a tenant or mark it crossTenant(reason)`,
      );
    }
  });
  schema.pre('bulkWrite', function (this: { modelName?: string }, next, ops, options) {
    const what = `${this.modelName ?? 'model'}.bulkWrite`;
    try {
      if (!takeMark(options as Record<string, unknown> | undefined, what)) {
        for (const op of ops as Array<Record<string, { filter?: unknown } | undefined>>) {
          const [kind, body] = Object.entries(op)[0] ?? [];
          if (kind === 'insertOne' || namesTenant(body?.filter)) continue;
          throw new TenantScopeError(
            `${what} with a ${kind} without tenantId in its filter; scope it to a tenant or mark it crossTenant(reason)`,
          );
        }
      }
      next();
    } catch (err) {
      next(err as Error);
    }
  });
  schema.pre('aggregate', function (this: Aggregate<unknown>) {
    const what = `${(this as unknown as { _model?: { modelName?: string } })._model?.modelName ?? 'model'}.aggregate`;
    if (takeMark(this.options as Record<string, unknown>, what)) return;
    const first = this.pipeline()[0] as { $match?: unknown } | undefined;
    if (!first || !namesTenant(first.$match)) {
      throw new TenantScopeError(
        `${what} whose first stage is not a $match on tenantId; scope it to a tenant or mark it crossTenant(reason)`,
      );
    }
  });
}
