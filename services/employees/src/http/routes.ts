import { Router, type Request } from 'express';
import { callerOf, pageRequest, requirePermission, route } from '@travel/platform';
import type { ApiKeysApp, CreateApiKeyInput } from '../app/api-keys';
import { getCompany } from '../app/company';
import type { EmployeeFilter, EmployeesApp } from '../app/employees';
import type { CostCentersApp, DepartmentsApp } from '../app/org';
import type { EmployeeWrite } from '../domain/employee';
import type { CostCenterWrite, DepartmentWrite } from '../domain/org';
import type { EmployeesModels } from '../infra/models';

// Who may write what (docs/decisions/0009, 0011, 0013): employees need ManageEmployees; departments,
// cost centers and API keys (reading the key list too) need ManageCompanyData. Other reads need a key of
// the company only. Bodies and queries are already checked against the contract.
const MANAGE_EMPLOYEES = 'ManageEmployees';
const MANAGE_COMPANY_DATA = 'ManageCompanyData';

export interface EmployeesContext {
  models: EmployeesModels;
  employees: EmployeesApp;
  departments: DepartmentsApp;
  costCenters: CostCentersApp;
  apiKeys: ApiKeysApp;
}

const id = (req: Request): string => String(req.params.id);

/** A query value the contract declared as a string (absent stays undefined). */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A query value the contract declared as a boolean; the validator has coerced it, or left "true"/"false". */
const flag = (value: unknown): boolean | undefined =>
  value === undefined ? undefined : value === true || value === 'true';

export function publicRoutes(ctx: EmployeesContext): Router {
  const r = Router();
  const { employees, departments, costCenters, apiKeys } = ctx;

  r.get(
    '/api/v1/employees',
    route(async (req, res) => {
      const q = req.query;
      const filter: EmployeeFilter = {
        departmentId: text(q.departmentId),
        status: text(q.status) as EmployeeFilter['status'],
        isArchived: flag(q.isArchived),
        email: text(q.email),
        q: text(q.q),
      };
      res.json(await employees.list(callerOf(req), filter, pageRequest(q)));
    }),
  );
  r.post(
    '/api/v1/employees',
    route(async (req, res) => {
      res.status(201).json(await employees.create(requirePermission(req, MANAGE_EMPLOYEES), req.body as EmployeeWrite));
    }),
  );
  r.get(
    '/api/v1/employees/:id',
    route(async (req, res) => {
      res.json(await employees.get(callerOf(req), id(req)));
    }),
  );
  r.put(
    '/api/v1/employees/:id',
    route(async (req, res) => {
      res.json(await employees.update(requirePermission(req, MANAGE_EMPLOYEES), id(req), req.body as EmployeeWrite));
    }),
  );

  r.get(
    '/api/v1/departments',
    route(async (req, res) => {
      const filter = { q: text(req.query.q), parentId: text(req.query.parentId) };
      res.json(await departments.list(callerOf(req), filter, pageRequest(req.query)));
    }),
  );
  r.post(
    '/api/v1/departments',
    route(async (req, res) => {
      res
        .status(201)
        .json(await departments.create(requirePermission(req, MANAGE_COMPANY_DATA), req.body as DepartmentWrite));
    }),
  );
  r.get(
    '/api/v1/departments/:id',
    route(async (req, res) => {
      res.json(await departments.get(callerOf(req), id(req)));
    }),
  );
  r.put(
    '/api/v1/departments/:id',
    route(async (req, res) => {
      res.json(
        await departments.update(requirePermission(req, MANAGE_COMPANY_DATA), id(req), req.body as DepartmentWrite),
      );
    }),
  );
  r.delete(
    '/api/v1/departments/:id',
    route(async (req, res) => {
      await departments.delete(requirePermission(req, MANAGE_COMPANY_DATA), id(req));
      res.status(204).end();
    }),
  );

  r.get(
    '/api/v1/cost-centers',
    route(async (req, res) => {
      const filter = { q: text(req.query.q), isActive: flag(req.query.isActive) };
      res.json(await costCenters.list(callerOf(req), filter, pageRequest(req.query)));
    }),
  );
  r.post(
    '/api/v1/cost-centers',
    route(async (req, res) => {
      res
        .status(201)
        .json(await costCenters.create(requirePermission(req, MANAGE_COMPANY_DATA), req.body as CostCenterWrite));
    }),
  );
  r.get(
    '/api/v1/cost-centers/:id',
    route(async (req, res) => {
      res.json(await costCenters.get(callerOf(req), id(req)));
    }),
  );
  r.put(
    '/api/v1/cost-centers/:id',
    route(async (req, res) => {
      res.json(
        await costCenters.update(requirePermission(req, MANAGE_COMPANY_DATA), id(req), req.body as CostCenterWrite),
      );
    }),
  );
  r.delete(
    '/api/v1/cost-centers/:id',
    route(async (req, res) => {
      await costCenters.delete(requirePermission(req, MANAGE_COMPANY_DATA), id(req));
      res.status(204).end();
    }),
  );

  r.get(
    '/api/v1/company',
    route(async (req, res) => {
      res.json(await getCompany(ctx.models, callerOf(req)));
    }),
  );

  r.get(
    '/api/v1/api-keys',
    route(async (req, res) => {
      const filter = { employeeId: text(req.query.employeeId), revoked: flag(req.query.revoked) };
      res.json(await apiKeys.list(requirePermission(req, MANAGE_COMPANY_DATA), filter, pageRequest(req.query)));
    }),
  );
  r.post(
    '/api/v1/api-keys',
    route(async (req, res) => {
      res
        .status(201)
        .json(await apiKeys.create(requirePermission(req, MANAGE_COMPANY_DATA), req.body as CreateApiKeyInput));
    }),
  );
  r.delete(
    '/api/v1/api-keys/:id',
    route(async (req, res) => {
      await apiKeys.revoke(requirePermission(req, MANAGE_COMPANY_DATA), id(req));
      res.status(204).end();
    }),
  );

  return r;
}
