import type {
  AccountOwners,
  ChargeableCostCenters,
  Delegators,
  DocumentParties,
  EmployeeContact,
  InternalEmployee,
  KnownOrgUnits,
  Payees,
} from '@travel/contracts';
import type { Router } from 'express';
import { apiRouter, AppError, isCalendarDate, notFound, parseTenantId, route, type TenantId } from '@travel/platform';
import { resolveApiKey } from '../app/api-keys';
import type { DelegationsApp } from '../app/delegations';
import type { EmployeesRepositories } from '../infra/repositories';

/** Service-to-service routes (behind a service context, never reachable through the gateway). */
export function internalRoutes(repos: EmployeesRepositories, delegations: DelegationsApp): Router {
  const r = apiRouter();
  // The tenant in these paths comes from another service behind a verified service context: a trusted seam.
  const tenantIn = (params: Record<string, unknown>): TenantId => parseTenantId(String(params.tenantId));
  const employeeOf = (tenant: TenantId, id: unknown) =>
    repos.employees.of(tenant).findById(String(id).toLowerCase()).lean();
  r.post(
    '/api-keys/resolve',
    route(async (req, res) => {
      const key = (req.body as { key?: unknown })?.key;
      if (typeof key !== 'string') throw new AppError('VALIDATION_FAILED', undefined, { key: ['is required'] });
      const resolved = await resolveApiKey(repos, key);
      if (!resolved) throw new AppError('UNAUTHORIZED');
      res.json(resolved);
    }),
  );
  // Other contexts check that an employee they are given belongs to the company (fleet: a vehicle's
  // owner). Only the identity and state, never personal data.
  r.get(
    '/tenants/:tenantId/employees/:id',
    route(async (req, res) => {
      const employee = await employeeOf(tenantIn(req.params), req.params.id);
      if (!employee) throw notFound('employee');
      res.json({
        id: employee._id,
        status: employee.status,
        isArchived: employee.isArchived ?? false,
        // The per-diem calculator (entries): the SI tax-free cap depends on the residency, the SK foreign
        // rates on the mobile road-transport flag. Not personal data.
        residency: employee.residency ?? 'Resident',
        mobileRoadTransportWorker: employee.mobileRoadTransportWorker ?? false,
        // Entries narrows expense-policy rules by it (docs/decisions/0203). Not personal data.
        departmentId: employee.departmentId ?? null,
      } satisfies InternalEmployee);
    }),
  );
  // Entries checks the departments and cost centers an expense policy names (docs/decisions/0203): the
  // company's among the ids asked (archived or inactive ones included: a policy may outlive them).
  r.get(
    '/tenants/:tenantId/org-units',
    route(async (req, res) => {
      const tenant = tenantIn(req.params);
      const ids = (value: unknown) =>
        String(value ?? '')
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean)
          .slice(0, 200);
      const departmentIds = ids(req.query.departmentIds);
      const costCenterIds = ids(req.query.costCenterIds);
      const [departments, costCenters] = await Promise.all([
        departmentIds.length
          ? repos.departments.of(tenant).find({ _id: { $in: departmentIds } }, { _id: 1 }).lean()
          : [],
        costCenterIds.length
          ? repos.costCenters.of(tenant).find({ _id: { $in: costCenterIds } }, { _id: 1 }).lean()
          : [],
      ]);
      res.json({
        departmentIds: departments.map((d) => d._id),
        costCenterIds: costCenters.map((c) => c._id),
      } satisfies KnownOrgUnits);
    }),
  );
  // Entries asks which cost centers an employee may charge before it adds them to an entry: active cost
  // centers of the company, and within the employee's `costCenterIds` when that list is not empty.
  r.get(
    '/tenants/:tenantId/employees/:id/chargeable-cost-centers',
    route(async (req, res) => {
      const tenant = tenantIn(req.params);
      const employee = await employeeOf(tenant, req.params.id);
      if (!employee) throw notFound('employee');
      const asked = String(req.query.ids ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)
        .slice(0, 100);
      const allowed = employee.costCenterIds ?? [];
      const candidates = allowed.length ? asked.filter((id) => allowed.includes(id)) : asked;
      const active = candidates.length
        ? await repos.costCenters
            .of(tenant)
            .find({ _id: { $in: candidates }, isActive: true }, { _id: 1 })
            .lean()
        : [];
      res.json({ employeeId: employee._id, chargeable: active.map((c) => c._id) } satisfies ChargeableCostCenters);
    }),
  );
  // Entries asks who decides an approval step nobody else may decide (the default fallback approvers,
  // docs/decisions/0105): the company's active, unarchived account owners. Ids only.
  r.get(
    '/tenants/:tenantId/account-owners',
    route(async (req, res) => {
      const owners = await repos.employees
        .of(tenantIn(req.params))
        .find({ isAccountOwner: true, status: 'Active', isArchived: { $ne: true } }, { _id: 1 })
        .sort({ _id: 1 })
        .lean();
      res.json({ employeeIds: owners.map((o) => o._id) } satisfies AccountOwners);
    }),
  );
  // Entries asks, when someone who is not an approver of the step decides it, whose delegate they are on
  // the decision's day in the market's calendar (docs/decisions/0205). Ids only; nothing cached there.
  r.get(
    '/tenants/:tenantId/employees/:id/delegators',
    route(async (req, res) => {
      const on = String(req.query.on ?? '');
      if (!isCalendarDate(on))
        throw new AppError('VALIDATION_FAILED', undefined, { on: ['must be a date (yyyy-MM-dd)'] });
      const employeeIds = await delegations.delegatorsOf(tenantIn(req.params), String(req.params.id), on);
      res.json({ employeeId: String(req.params.id).toLowerCase(), on, employeeIds } satisfies Delegators);
    }),
  );
  // The address to send a reminder to (fleet's deadline e-mails). Personal data: only over this
  // service-to-service route, never through the gateway or in an event.
  r.get(
    '/tenants/:tenantId/employees/:id/contact',
    route(async (req, res) => {
      const employee = await employeeOf(tenantIn(req.params), req.params.id);
      if (!employee) throw notFound('employee');
      res.json({
        id: employee._id,
        firstName: employee.firstName,
        lastName: employee.lastName,
        email: employee.email ?? null,
        status: employee.status,
        isArchived: employee.isArchived ?? false,
      } satisfies EmployeeContact);
    }),
  );
  // The payouts context builds a batch's bank payment file (docs/decisions/0076): the payee's name and
  // bank data, and the company's name as the payer. Personal data: only over this service-to-service
  // route, only into the payment file, never in an event or a log.
  r.get(
    '/tenants/:tenantId/payees',
    route(async (req, res) => {
      const { company, employees } = await companyAndEmployees(repos, tenantIn(req.params), req.query.ids, 1000);
      res.json({
        company: { name: company.name, market: company.market, baseCurrency: company.baseCurrency },
        payees: employees.map((e) => ({
          id: e._id,
          name: `${e.firstName} ${e.lastName}`.trim(),
          bankAccount: e.bankAccount ?? null,
          bic: e.bic ?? null,
        })),
      } satisfies Payees);
    }),
  );
  // Entries prints an entry's travel order and settlement (docs/decisions/0137): the company's details and
  // the names of the employee and the approvers. Personal data: only into that PDF, never in an event.
  r.get(
    '/tenants/:tenantId/document-parties',
    route(async (req, res) => {
      const { company, employees } = await companyAndEmployees(repos, tenantIn(req.params), req.query.ids, 100);
      res.json({
        company: {
          name: company.name,
          address: company.address ?? null,
          registrationNumber: company.registrationNumber ?? null,
          vatNumber: company.vatNumber ?? null,
        },
        people: employees.map((e) => ({ id: e._id, name: `${e.firstName} ${e.lastName}`.trim() })),
      } satisfies DocumentParties);
    }),
  );
  return r;
}

/** The company and those of its employees a comma-separated `ids` names (at most `max`); 404 without a company. */
async function companyAndEmployees(repos: EmployeesRepositories, tenant: TenantId, idsParam: unknown, max: number) {
  const ids = String(idsParam ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
    .slice(0, max);
  const [company, employees] = await Promise.all([
    repos.companies.of(tenant).findOne().lean(),
    ids.length
      ? repos.employees
          .of(tenant)
          .find({ _id: { $in: ids } })
          .lean()
      : [],
  ]);
  if (!company) throw notFound('company');
  return { company, employees };
}
