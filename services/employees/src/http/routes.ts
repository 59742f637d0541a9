import { Router } from 'express';
import { callerOf, notFound, pageRequest, requirePermission, route } from '@travel/platform';
import type { EmployeesApp, EmployeeInput } from '../app/employees';
import type { EmployeesModels } from '../infra/models';

export function publicRoutes(app: EmployeesApp, models: EmployeesModels): Router {
  const r = Router();

  r.get('/api/v1/employees', route(async (req, res) => {
    res.json(await app.list(callerOf(req), pageRequest(req.query)));
  }));

  r.post('/api/v1/employees', route(async (req, res) => {
    const caller = requirePermission(req, 'ManageEmployees');
    res.status(201).json(await app.create(caller, req.body as EmployeeInput));
  }));

  r.get('/api/v1/employees/:id', route(async (req, res) => {
    res.json(await app.get(callerOf(req), String(req.params.id)));
  }));

  r.get('/api/v1/company', route(async (req, res) => {
    const caller = callerOf(req);
    const c = await models.Company.findOne({ tenantId: caller.tenantId }).lean();
    if (!c) throw notFound('company');
    res.json({
      id: c._id,
      name: c.name,
      market: c.market,
      baseCurrency: c.baseCurrency,
      address: c.address ?? null,
      registrationNumber: c.registrationNumber ?? null,
      vatNumber: c.vatNumber ?? null,
      enabledCountries: c.enabledCountries,
      enabledCurrencies: c.enabledCurrencies,
      createdAt: c.createdAt.toISOString(),
    });
  }));

  return r;
}
