import { Router } from 'express';
import { AppError, route } from '@travel/platform';
import type { UsageApp } from '../app/usage';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Service-to-service routes (behind a service context, never reachable through the gateway).
 *
 * `POST /internal/tenants/{tenantId}/vehicles/{id}/claims` — the entries context calls it before it stores
 * a mileage expense that names the vehicle: 200 with the vehicle's figures once the use is recorded, 404
 * when the vehicle is not the company's (or was deleted). Idempotent; the `vehicle.used` event of the same
 * expense revision later confirms it (docs/decisions/0032).
 */
export function internalRoutes(usage: UsageApp): Router {
  const r = Router();
  r.post(
    '/tenants/:tenantId/vehicles/:id/claims',
    route(async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const errors: Record<string, string[]> = {};
      for (const k of ['entryId', 'expenseId'])
        if (typeof body[k] !== 'string' || !UUID.test(body[k] as string)) errors[k] = ['must be a UUID'];
      const revision = body.revision;
      if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0)
        errors.revision = ['must be a whole number ≥ 0'];
      if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
      const claimed = await usage.claim(String(req.params.tenantId), {
        vehicleId: String(req.params.id),
        entryId: (body.entryId as string).toLowerCase(),
        expenseId: (body.expenseId as string).toLowerCase(),
        revision: revision as number,
      });
      if (!claimed) throw new AppError('NOT_FOUND', 'The vehicle does not exist in this company.');
      res.json(claimed);
    }),
  );
  return r;
}
