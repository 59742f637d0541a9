import { Schema, type Connection, type Model } from 'mongoose';
import { outboxSchemaFields, tenantScoped, type OutboxFields } from '@travel/platform';
import type { ApiKey } from '../domain/api-key';
import type { BankDataChange } from '../domain/bank-data-change';
import type { Company } from '../domain/company';
import type { Delegation } from '../domain/delegation';
import type { Employee } from '../domain/employee';
import type { CostCenter, Department } from '../domain/org';

/** `rev`: raised by every change after creation (TenantScope.commit, 0170); absent until the first. */
export type CompanyDoc = Company & { rev?: number };
export type ApiKeyDoc = ApiKey;
export type DepartmentDoc = Department;
export type CostCenterDoc = CostCenter;

export interface EmployeeStorage {
  /** `emailKeyOf(employee)`: what the per-company unique e-mail index compares. */
  emailKey: string;
  /** Incremented by every update; an update applies only to the revision it read. */
  rev: number;
  /** Changes of the bank data, oldest first, written with the change itself (docs/decisions/0106). */
  bankDataChanges: BankDataChange[];
}

export type EmployeeDoc = Employee & Partial<EmployeeStorage> & OutboxFields;

/**
 * One approver's delegations (docs/decisions/0205): `_id` = the approver's id. One document per approver, so
 * the overlap rule is checked and written in one conditional write at the revision read, on any replica.
 */
export interface DelegationsDoc {
  _id: string;
  tenantId: string;
  rev: number;
  delegations: Delegation[];
}

const nullableString = { type: String, default: null };

export interface EmployeesModels {
  Company: Model<CompanyDoc>;
  Employee: Model<EmployeeDoc>;
  ApiKey: Model<ApiKeyDoc>;
  Department: Model<DepartmentDoc>;
  CostCenter: Model<CostCenterDoc>;
  Delegations: Model<DelegationsDoc>;
}

export const EMPLOYEES_COLLECTION = 'employees';

const NAMES = ['Company', 'Employee', 'ApiKey', 'Department', 'CostCenter', 'Delegations'] as const;

/**
 * Every index starts with tenantId, except the API-key hash (the key is what identifies the tenant) and the
 * outbox counter (the relay works across tenants). Uniqueness is enforced by indexes at insert; updates
 * check first and re-check after a write error, because FerretDB reports a unique violation on update as
 * an internal error instead of E11000 (docs/decisions/0002). Only `src/infra` (the repositories) and test
 * fixtures use the models; the app layer goes through `./repositories` (docs/decisions/0082).
 */
export function registerModels(conn: Connection): EmployeesModels {
  // Idempotent: the admin command, the seeding script and tests may ask again on one connection.
  if (conn.models.Company)
    return Object.fromEntries(NAMES.map((n) => [n, conn.models[n]])) as unknown as EmployeesModels;
  const company = new Schema<CompanyDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true, unique: true },
      name: { type: String, required: true },
      market: { type: String, required: true },
      baseCurrency: { type: String, required: true },
      address: nullableString,
      registrationNumber: nullableString,
      vatNumber: nullableString,
      enabledCountries: [String],
      enabledCurrencies: [String],
      allowListsAppliedAt: { countries: Date, currencies: Date },
      rev: Number,
      createdAt: { type: Date, required: true },
    },
    { collection: 'companies', versionKey: false },
  );

  const employee = new Schema<EmployeeDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      firstName: { type: String, required: true },
      lastName: { type: String, required: true },
      email: nullableString,
      emailKey: { type: String },
      phone: nullableString,
      address: nullableString,
      taxId: nullableString,
      bankAccount: nullableString,
      bic: nullableString,
      position: nullableString,
      departmentId: nullableString,
      status: { type: String, required: true },
      isAccountOwner: { type: Boolean, default: false },
      isArchived: { type: Boolean, default: false },
      residency: { type: String, default: 'Resident' },
      mobileRoadTransportWorker: { type: Boolean, default: false },
      costCenterIds: { type: [String], default: [] },
      customFields: { type: Object, default: {} },
      permissions: { type: [String], default: [] },
      createdAt: { type: Date, required: true },
      editedAt: { type: Date, required: true },
      rev: { type: Number },
      bankDataChanges: { type: Array, default: undefined },
      ...outboxSchemaFields,
    },
    { collection: EMPLOYEES_COLLECTION, versionKey: false, minimize: false },
  );
  employee.index({ tenantId: 1, lastName: 1, firstName: 1 });
  employee.index({ tenantId: 1, emailKey: 1 }, { unique: true });
  employee.index({ tenantId: 1, departmentId: 1 });
  employee.index({ tenantId: 1, costCenterIds: 1 });
  // Delta sync: updatedSince and the cursor go by (editedAt, _id) (docs/decisions/0156).
  employee.index({ tenantId: 1, editedAt: 1, _id: 1 });

  const apiKey = new Schema<ApiKeyDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      employeeId: { type: String, required: true },
      name: { type: String, required: true },
      hint: { type: String, required: true },
      // Global on purpose: the key is what identifies the tenant (docs/decisions/0004).
      hash: { type: String, required: true, unique: true },
      createdByEmployeeId: nullableString,
      // null = no cap (the operator's keys); an array is stored as given (docs/decisions/0104).
      permissionCap: { type: Schema.Types.Mixed, default: null },
      createdAt: { type: Date, required: true },
      revokedAt: { type: Date, default: null },
    },
    { collection: 'api_keys', versionKey: false },
  );
  apiKey.index({ tenantId: 1, createdAt: -1 });
  apiKey.index({ tenantId: 1, employeeId: 1 });
  // The keys one person issued (GET /api-keys?createdByEmployeeId=, docs/decisions/0197).
  apiKey.index({ tenantId: 1, createdByEmployeeId: 1 });

  const department = new Schema<DepartmentDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      name: { type: String, required: true },
      code: { type: String, required: true },
      codeKey: { type: String, required: true },
      parentId: nullableString,
      createdAt: { type: Date, required: true },
      editedAt: { type: Date, required: true },
      rev: { type: Number, required: true },
    },
    { collection: 'departments', versionKey: false },
  );
  department.index({ tenantId: 1, codeKey: 1 }, { unique: true });
  department.index({ tenantId: 1, name: 1 });
  department.index({ tenantId: 1, parentId: 1 });
  department.index({ tenantId: 1, editedAt: 1, _id: 1 });

  const costCenter = new Schema<CostCenterDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      name: { type: String, required: true },
      code: { type: String, required: true },
      codeKey: { type: String, required: true },
      description: nullableString,
      isActive: { type: Boolean, required: true },
      createdAt: { type: Date, required: true },
      editedAt: { type: Date, required: true },
      rev: { type: Number, required: true },
    },
    { collection: 'cost_centers', versionKey: false },
  );
  costCenter.index({ tenantId: 1, codeKey: 1 }, { unique: true });
  costCenter.index({ tenantId: 1, code: 1 });
  costCenter.index({ tenantId: 1, isActive: 1 });
  costCenter.index({ tenantId: 1, editedAt: 1, _id: 1 });

  const delegations = new Schema<DelegationsDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      rev: { type: Number, required: true },
      delegations: { type: Schema.Types.Mixed, default: [] },
    },
    { collection: 'delegations', versionKey: false },
  );
  // Entries asks whom an employee is the delegate of (the internal delegators route).
  delegations.index({ tenantId: 1, 'delegations.delegateId': 1 });

  // Every query of these collections must name the tenant or say why not (docs/decisions/0081).
  for (const schema of [company, employee, apiKey, department, costCenter, delegations] as Schema[])
    schema.plugin(tenantScoped);

  return {
    Company: conn.model<CompanyDoc>('Company', company),
    Employee: conn.model<EmployeeDoc>('Employee', employee),
    ApiKey: conn.model<ApiKeyDoc>('ApiKey', apiKey),
    Department: conn.model<DepartmentDoc>('Department', department),
    CostCenter: conn.model<CostCenterDoc>('CostCenter', costCenter),
    Delegations: conn.model<DelegationsDoc>('Delegations', delegations),
  };
}
