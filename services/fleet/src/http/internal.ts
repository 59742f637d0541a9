import type { InternalVehicle } from '@travel/contracts';
import type { Request, Router } from 'express';
import { apiRouter, AppError, parseTenantId, route, type TenantId } from '@travel/platform';
import type { UsageApp, UsageEventData } from '../app/usage';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The company in the path: set by another service behind a verified service context (a trusted seam). */
const tenantIn = (req: Request): TenantId => parseTenantId(String(req.params.tenantId));

/** The usage change a claim or release body describes (400 when it is not one). */
function usageOf(req: Request): UsageEventData {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  for (const k of ['entryId', 'expenseId'])
    if (typeof body[k] !== 'string' || !UUID.test(body[k] as string)) errors[k] = ['must be a UUID'];
  const revision = body.revision;
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0)
    errors.revision = ['must be a whole number ≥ 0'];
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
  return {
    vehicleId: String(req.params.id).toLowerCase(),
    entryId: (body.entryId as string).toLowerCase(),
    expenseId: (body.expenseId as string).toLowerCase(),
    revision: revision as number,
  };
}

/**
 * Service-to-service routes (behind a service context, never reachable through the gateway).
 *
 * `POST /internal/tenants/{tenantId}/vehicles/{id}/claims` — the entries context calls it before it stores
 * a mileage expense that names the vehicle: 200 with the vehicle's figures once the use is recorded, 404
 * when the vehicle is not the company's (or was deleted). Idempotent; the `vehicle.used` event of the same
 * expense revision later confirms it (docs/decisions/0032). `…/claims/abandon` gives back a claim whose
 * expense was not stored.
 */
export function internalRoutes(usage: UsageApp): Router {
  const r = apiRouter();
  // Entries asks whether a vehicle named on a non-mileage expense is the company's (no use is recorded).
  r.get(
    '/tenants/:tenantId/vehicles/:id',
    route(async (req, res) => {
      const found = await usage.find(tenantIn(req), String(req.params.id));
      if (!found) throw new AppError('NOT_FOUND', 'The vehicle does not exist in this company.');
      res.json(found satisfies InternalVehicle);
    }),
  );
  r.post(
    '/tenants/:tenantId/vehicles/:id/claims',
    route(async (req, res) => {
      const claimed = await usage.claim(tenantIn(req), usageOf(req));
      if (!claimed) throw new AppError('NOT_FOUND', 'The vehicle does not exist in this company.');
      res.json(claimed);
    }),
  );
  // A claim whose expense was then not stored (the entries write failed) is given back at once instead of
  // blocking the vehicle's delete. Only the claim of exactly that revision is undone; should the expense
  // have been stored after all, its `vehicle.used` of that revision records the use again. 204 always.
  r.post(
    '/tenants/:tenantId/vehicles/:id/claims/abandon',
    route(async (req, res) => {
      await usage.abandon(tenantIn(req), usageOf(req));
      res.status(204).end();
    }),
  );
  return r;
}
