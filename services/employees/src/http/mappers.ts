// Employees' records as the API shows them (contracts/openapi.yaml): the one place a record becomes a body.
// Who may see an employee's personal data is decided by the use cases (ShownEmployee); this only shapes it.
import type { ApiKey } from '../domain/api-key';
import type { BankDataChange } from '../domain/bank-data-change';
import type { Company } from '../domain/company';
import type { Employee, ShownEmployee } from '../domain/employee';
import type { CostCenter, Department } from '../domain/org';

/** The full record, as GET /employees/{id} returns it. */
export function toEmployeeResponse(e: Employee) {
  return {
    id: e._id,
    firstName: e.firstName,
    lastName: e.lastName,
    email: e.email ?? null,
    phone: e.phone ?? null,
    address: e.address ?? null,
    taxId: e.taxId ?? null,
    bankAccount: e.bankAccount ?? null,
    bic: e.bic ?? null,
    position: e.position ?? null,
    departmentId: e.departmentId ?? null,
    status: e.status,
    isAccountOwner: e.isAccountOwner,
    isArchived: e.isArchived,
    residency: e.residency,
    mobileRoadTransportWorker: e.mobileRoadTransportWorker ?? false,
    costCenterIds: e.costCenterIds ?? [],
    customFields: e.customFields ?? {},
    permissions: e.permissions ?? [],
    createdAt: e.createdAt.toISOString(),
    editedAt: e.editedAt.toISOString(),
  };
}

/**
 * EmployeeSummary: what callers who may not read personal data get (docs/decisions/0036): the webhook
 * summary plus `residency` and `costCenterIds`. Built field by field, like the webhook DTO.
 */
export function toEmployeeSummary(e: Employee) {
  return {
    id: e._id,
    firstName: e.firstName,
    lastName: e.lastName,
    position: e.position ?? null,
    departmentId: e.departmentId ?? null,
    status: e.status,
    isAccountOwner: e.isAccountOwner,
    isArchived: e.isArchived,
    residency: e.residency,
    costCenterIds: e.costCenterIds ?? [],
    permissions: e.permissions ?? [],
    createdAt: e.createdAt.toISOString(),
    editedAt: e.editedAt.toISOString(),
  };
}

/** The full record or the summary, as the use case decided who may see what (docs/decisions/0036). */
export const toEmployeeView = ({ employee, personal }: ShownEmployee) =>
  personal ? toEmployeeResponse(employee) : toEmployeeSummary(employee);

/** The profile as GET /company returns it. */
export function toCompanyResponse(c: Company) {
  return {
    id: c._id,
    name: c.name,
    market: c.market,
    baseCurrency: c.baseCurrency,
    address: c.address ?? null,
    registrationNumber: c.registrationNumber ?? null,
    vatNumber: c.vatNumber ?? null,
    enabledCountries: c.enabledCountries ?? [],
    enabledCurrencies: c.enabledCurrencies ?? [],
    createdAt: c.createdAt.toISOString(),
  };
}

export function toDepartmentResponse(d: Department) {
  return {
    id: d._id,
    name: d.name,
    code: d.code,
    parentId: d.parentId ?? null,
    createdAt: d.createdAt.toISOString(),
    editedAt: d.editedAt.toISOString(),
  };
}

export function toCostCenterResponse(c: CostCenter) {
  return {
    id: c._id,
    name: c.name,
    code: c.code,
    description: c.description ?? null,
    isActive: c.isActive,
    createdAt: c.createdAt.toISOString(),
    editedAt: c.editedAt.toISOString(),
  };
}

/** A key as lists show it: never the key or its hash, only the hint. */
export function toApiKeyResponse(k: ApiKey) {
  return {
    id: k._id,
    name: k.name,
    employeeId: k.employeeId,
    hint: k.hint,
    createdByEmployeeId: k.createdByEmployeeId ?? null,
    permissionCap: k.permissionCap ? [...k.permissionCap] : null,
    createdAt: k.createdAt.toISOString(),
    revokedAt: k.revokedAt ? k.revokedAt.toISOString() : null,
  };
}

/** A record as the API shows it (`GET /employees/{id}/bank-data-changes`). */
export function toBankDataChangeResponse(c: BankDataChange) {
  return {
    id: c.id,
    changedAt: new Date(c.at).toISOString(),
    changedByEmployeeId: c.changedByEmployeeId,
    apiKeyId: c.apiKeyId,
    keyIssuedByEmployeeId: c.keyIssuedByEmployeeId ?? null,
    changes: c.changes.map((x) => ({ field: x.field, before: x.before, after: x.after })),
  };
}
