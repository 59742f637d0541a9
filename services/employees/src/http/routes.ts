import type { Request, Router } from 'express';
import type { components, operations } from '@travel/contracts';
import {
  apiRouter,
  callerOf,
  ConditionalGets,
  pageRequest,
  requirePermission,
  route,
  type CallerContext,
  type ListPage,
  type ListRequest,
  type TenantModel,
} from '@travel/platform';
import type { ApiKeysApp, CreateApiKeyInput } from '../app/api-keys';
import { getCompany } from '../app/company';
import type { EmployeeFilter, EmployeesApp } from '../app/employees';
import type { CostCentersApp, DepartmentsApp } from '../app/org';
import type { EmployeeWrite } from '../domain/employee';
import type { EmployeesRepositories } from '../infra/repositories';
import {
  toApiKeyResponse,
  toBankDataChangeResponse,
  toCompanyResponse,
  toCostCenterResponse,
  toDepartmentResponse,
  toEmployeeResponse,
  toEmployeeView,
} from './mappers';

// Who may write what (docs/decisions/0009, 0011, 0013): employees need ManageEmployees; departments,
// cost centers and API keys (reading the key list too) need ManageCompanyData. Other reads need a key of
// the company only; employees' personal data is shown only to some callers (0036: the use case decides, the
// mapper shapes).
// Bodies and queries are already checked against the contract; read-only fields are already dropped (0035).
const MANAGE_EMPLOYEES = 'ManageEmployees';
const MANAGE_COMPANY_DATA = 'ManageCompanyData';

export interface EmployeesContext {
  repos: EmployeesRepositories;
  employees: EmployeesApp;
  departments: DepartmentsApp;
  costCenters: CostCentersApp;
  apiKeys: ApiKeysApp;
  /** Every GET answers conditionally from the collections' versions (0155, 0157). */
  reads: ConditionalGets;
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
  const { employees, departments, costCenters, apiKeys, repos, reads } = ctx;

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
      const caller = callerOf(req);
      const read = (page: ListRequest) => employees.list(caller, filter, page);
      await reads.list(req, res, caller, [repos.employees], read, toEmployeeView, (l): EmployeePage => l);
    }),
  );
  r.post(
    '/api/v1/employees',
    route(async (req, res) => {
      const created = await employees.create(requirePermission(req, MANAGE_EMPLOYEES), req.body as EmployeeWrite);
      res.status(201).json(toEmployeeResponse(created));
    }),
  );
  r.get(
    '/api/v1/employees/:id',
    route(async (req, res) => {
      const caller = callerOf(req);
      await reads.answer(req, res, caller, [repos.employees], async () => {
        return toEmployeeView(await employees.get(caller, id(req))) satisfies EmployeeView;
      });
    }),
  );
  r.get(
    '/api/v1/employees/:id/bank-data-changes',
    route(async (req, res) => {
      const caller = callerOf(req);
      const page = pageRequest(req.query);
      await reads.answer(req, res, caller, [repos.employees], async () => {
        const found = await employees.bankDataChanges(caller, id(req), page);
        return { ...found, items: found.items.map(toBankDataChangeResponse) } satisfies BankDataChangePage;
      });
    }),
  );
  r.put(
    '/api/v1/employees/:id',
    route(async (req, res) => {
      const updated = await employees.update(
        requirePermission(req, MANAGE_EMPLOYEES),
        id(req),
        req.body as EmployeeWrite,
      );
      res.json(toEmployeeResponse(updated));
    }),
  );

  const departmentFilter = (q: Request['query']) => ({ q: text(q.q), parentId: text(q.parentId) });
  companyDataRoutes(
    r,
    '/api/v1/departments',
    departments,
    departmentFilter,
    toDepartmentResponse,
    reads,
    repos.departments,
  );
  const costCenterFilter = (q: Request['query']) => ({ q: text(q.q), isActive: flag(q.isActive) });
  companyDataRoutes(
    r,
    '/api/v1/cost-centers',
    costCenters,
    costCenterFilter,
    toCostCenterResponse,
    reads,
    repos.costCenters,
  );

  r.get(
    '/api/v1/company',
    route(async (req, res) => {
      const caller = callerOf(req);
      await reads.answer(req, res, caller, [repos.companies], async () =>
        toCompanyResponse(await getCompany(repos, caller)),
      );
    }),
  );

  r.get(
    '/api/v1/api-keys',
    route(async (req, res) => {
      const filter = {
        employeeId: text(req.query.employeeId),
        createdByEmployeeId: text(req.query.createdByEmployeeId),
        revoked: flag(req.query.revoked),
      };
      const caller = requirePermission(req, MANAGE_COMPANY_DATA);
      const page = pageRequest(req.query);
      await reads.answer(req, res, caller, [repos.apiKeys], async () => {
        const found = await apiKeys.list(caller, filter, page);
        return { ...found, items: found.items.map(toApiKeyResponse) };
      });
    }),
  );
  r.post(
    '/api/v1/api-keys',
    route(async (req, res) => {
      const issued = await apiKeys.create(requirePermission(req, MANAGE_COMPANY_DATA), req.body as CreateApiKeyInput);
      res.status(201).json({ ...toApiKeyResponse(issued.apiKey), key: issued.key });
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
interface CompanyDataApp<R, F, W> {
  list(caller: CallerContext, filter: F, page: ListRequest): Promise<ListPage<R>>;
  create(caller: CallerContext, body: W): Promise<R>;
  get(caller: CallerContext, id: string): Promise<R>;
  update(caller: CallerContext, id: string, body: W): Promise<R>;
  delete(caller: CallerContext, id: string): Promise<unknown>;
}

function companyDataRoutes<R, F, W>(
  r: Router,
  path: string,
  app: CompanyDataApp<R, F, W>,
  filterOf: (query: Request['query']) => F,
  toBody: (record: R) => unknown,
  reads: ConditionalGets,
  model: TenantModel<any>,
): void {
  const writer = (req: Request) => requirePermission(req, MANAGE_COMPANY_DATA);
  r.get(
    path,
    route(async (req, res) => {
      const caller = callerOf(req);
      const filter = filterOf(req.query);
      await reads.list(req, res, caller, [model], (page) => app.list(caller, filter, page), toBody);
    }),
  );
  r.post(
    path,
    route(async (req, res) => void res.status(201).json(toBody(await app.create(writer(req), req.body as W)))),
  );
  r.get(
    `${path}/:id`,
    route(async (req, res) => {
      const caller = callerOf(req);
      await reads.answer(req, res, caller, [model], async () => toBody(await app.get(caller, id(req))));
    }),
  );
  r.put(
    `${path}/:id`,
    route(async (req, res) => void res.json(toBody(await app.update(writer(req), id(req), req.body as W)))),
  );
  r.delete(
    `${path}/:id`,
    route(async (req, res) => {
      await app.delete(writer(req), id(req));
      res.status(204).end();
    }),
  );
}
