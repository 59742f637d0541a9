import { Router } from 'express';
import { AppError, route } from '@travel/platform';
import { resolveApiKey } from '../app/api-keys';
import type { EmployeesModels } from '../infra/models';

/** Service-to-service routes (behind a service context, never reachable through the gateway). */
export function internalRoutes(models: EmployeesModels): Router {
  const r = Router();
  r.post(
    '/api-keys/resolve',
    route(async (req, res) => {
      const key = (req.body as { key?: unknown })?.key;
      if (typeof key !== 'string') throw new AppError('VALIDATION_FAILED', undefined, { key: ['is required'] });
      const resolved = await resolveApiKey(models, key);
      if (!resolved) throw new AppError('UNAUTHORIZED');
      res.json(resolved);
    }),
  );
  return r;
}
