import type { Request, Router } from 'express';
import type { components, operations } from '@travel/contracts';
import {
  apiRouter,
  callerOf,
  pageRequest,
  requirePermission,
  route,
  type CallerContext,
  type PageRequest,
} from '@travel/platform';
import type { ApiKeysApp, CreateApiKeyInput } from '../app/api-keys';
import { getCompany } from '../app/company';
import type { EmployeeFilter, EmployeesApp } from '../app/employees';
import type { CostCentersApp, DepartmentsApp } from '../app/org';
import type { EmployeeWrite } from '../domain/employee';
import type { EmployeesRepositories } from '../infra/repositories';

// Who may write what (docs/decisions/0009, 0011, 0013): employees need ManageEmployees; departments,
// cost centers and API keys (reading the key list too) need ManageCompanyData. Other reads need a key of
// the company only; employees' personal data is shown only to some callers (0036, in the use case).
// Bodies and queries are already checked against the contract; read-only fields are already dropped (0035).
const MANAGE_EMPLOYEES = 'ManageEmployees';
const MANAGE_COMPANY_DATA = 'ManageCompanyData';

export interface EmployeesContext {
  repos: EmployeesRepositories;
  employees: EmployeesApp;
  departments: DepartmentsApp;
  costCenters: CostCentersApp;
  apiKeys: ApiKeysApp;
}

const id = (req: Request): string => String(req.params.id);

// What the contract promises for employee reads: the full record or the summary (0036).
type EmployeeView = components['schemas']['EmployeeView'];
type EmployeePage = operations['listEmployees']['responses']['200']['content']['application/json'];
type BankDataChangePage = operations['listBankDataChanges']['responses']['200']['content']['application/json'];

/** A query value the contract declared as a string (absent stays undefined). */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A query value the contract declared as a boolean; the validator has coerced it, or left "true"/"false". */
const flag = (value: unknown): boolean | undefined =>
  value === undefined ? undefined : value === true || value === 'true';

export function publicRoutes(ctx: EmployeesContext): Router {
  const r = apiRouter();
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
      res.json((await employees.list(callerOf(req), filter, pageRequest(q))) satisfies EmployeePage);
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
      res.json((await employees.get(callerOf(req), id(req))) satisfies EmployeeView);
    }),
  );
  r.get(
    '/api/v1/employees/:id/bank-data-changes',
    route(async (req, res) => {
      res.json(
        (await employees.bankDataChanges(callerOf(req), id(req), pageRequest(req.query))) satisfies BankDataChangePage,
      );
    }),
  );
  r.put(
    '/api/v1/employees/:id',
    route(async (req, res) => {
      res.json(await employees.update(requirePermission(req, MANAGE_EMPLOYEES), id(req), req.body as EmployeeWrite));
    }),
  );

  companyDataRoutes(r, '/api/v1/departments', departments, (q) => ({ q: text(q.q), parentId: text(q.parentId) }));
  companyDataRoutes(r, '/api/v1/cost-centers', costCenters, (q) => ({ q: text(q.q), isActive: flag(q.isActive) }));

  r.get(
    '/api/v1/company',
    route(async (req, res) => {
      res.json(await getCompany(ctx.repos, callerOf(req)));
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

/** The use cases of a company-data resource (departments, cost centers): reads for every caller, writes with ManageCompanyData. */
interface CompanyDataApp<F, W> {
  list(caller: CallerContext, filter: F, page: PageRequest): Promise<unknown>;
  create(caller: CallerContext, body: W): Promise<unknown>;
  get(caller: CallerContext, id: string): Promise<unknown>;
  update(caller: CallerContext, id: string, body: W): Promise<unknown>;
  delete(caller: CallerContext, id: string): Promise<unknown>;
}

function companyDataRoutes<F, W>(
  r: Router,
  path: string,
  app: CompanyDataApp<F, W>,
  filterOf: (query: Request['query']) => F,
): void {
  const writer = (req: Request) => requirePermission(req, MANAGE_COMPANY_DATA);
  r.get(
    path,
    route(
      async (req, res) => void res.json(await app.list(callerOf(req), filterOf(req.query), pageRequest(req.query))),
    ),
  );
  r.post(
    path,
    route(async (req, res) => void res.status(201).json(await app.create(writer(req), req.body as W))),
  );
  r.get(
    `${path}/:id`,
    route(async (req, res) => void res.json(await app.get(callerOf(req), id(req)))),
  );
  r.put(
    `${path}/:id`,
    route(async (req, res) => void res.json(await app.update(writer(req), id(req), req.body as W))),
  );
  r.delete(
    `${path}/:id`,
    route(async (req, res) => {
      await app.delete(writer(req), id(req));
      res.status(204).end();
    }),
  );
}
