export type EmployeeStatus = 'Active' | 'Inactive';
export type Residency = 'Resident' | 'NonResident';

export interface Employee {
  _id: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  taxId: string | null;
  bankAccount: string | null;
  bic: string | null;
  position: string | null;
  departmentId: string | null;
  status: EmployeeStatus;
  isAccountOwner: boolean;
  isArchived: boolean;
  residency: Residency;
  costCenterIds: string[];
  customFields: Record<string, unknown>;
  permissions: string[];
  createdAt: Date;
  editedAt: Date;
}

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
    costCenterIds: e.costCenterIds ?? [],
    customFields: e.customFields ?? {},
    permissions: e.permissions ?? [],
    createdAt: e.createdAt.toISOString(),
    editedAt: e.editedAt.toISOString(),
  };
}

/**
 * EmployeeWebhookDto: the PII-free summary pushed to partners. Built field by field (never by copying
 * and deleting) so a new personal field on the record can never leak into a webhook by accident.
 */
export function toEmployeeWebhookDto(e: Employee) {
  return {
    id: e._id,
    firstName: e.firstName,
    lastName: e.lastName,
    position: e.position ?? null,
    departmentId: e.departmentId ?? null,
    status: e.status,
    isAccountOwner: e.isAccountOwner,
    isArchived: e.isArchived,
    permissions: e.permissions ?? [],
    createdAt: e.createdAt.toISOString(),
    editedAt: e.editedAt.toISOString(),
  };
}
export type EmployeeWebhookDto = ReturnType<typeof toEmployeeWebhookDto>;
